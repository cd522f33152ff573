import {
  expectedBraveNews,
  expectedBraveResults,
  expectedSearxngResults,
  searxngNewsResult,
} from '@openmates/fixtures';
import type { ParityCase } from '../case.ts';
import type { Outcome, OutcomeResult } from '../outcome.ts';
import { check } from './check.ts';

const plain = ({ url, title, description }: { url: string; title: string; description: string }): OutcomeResult => ({
  url,
  title,
  description,
});

const urlsOf = (outcome: Outcome, group: number) => (outcome.groups[group]?.results ?? []).map((r) => r.url);

/** Result pages, the news topic, and what a group says of more results and an altered query (ADRs 0102–0104). */
export const pageCases: ParityCase[] = [
  {
    name: 'pages-local-second-after-first',
    assertion: 'web-search.results.bounded',
    description:
      "The local index's page 2 holds the two hits it ranks right after page 1's two: together they are its first four, none repeated; page 1 says more exist, page 2 (its last) does not.",
    provider: 'local',
    request: {
      requests: [
        { query: 'element', count: 2 },
        { query: 'element', count: 2, page: 2 },
        { query: 'element', count: 4 },
      ],
    },
    expect: (outcome) => {
      const [first, second, both] = [urlsOf(outcome, 0), urlsOf(outcome, 1), urlsOf(outcome, 2)];
      check(outcome.code === undefined && first.length === 2 && second.length === 2, JSON.stringify(outcome));
      check(new Set([...first, ...second]).size === 4, `page 2 repeats page 1: ${JSON.stringify([first, second])}`);
      check(JSON.stringify([...first, ...second]) === JSON.stringify(both), 'pages 1 and 2 are not the first four');
      check(outcome.groups[0]?.more === true, 'page 1 does not say more exist');
    },
  },
  {
    name: 'pages-brave-second-after-first',
    assertion: 'web-search.results.bounded',
    description:
      "Brave's page 2 of count 10 without tabloids is asked as count=10&offset=1 and holds results 11–20, none of page 1's.",
    request: {
      requests: [
        { query: 'paging rust', count: 10, filter_tabloids: false },
        { query: 'paging rust', count: 10, filter_tabloids: false, page: 2 },
      ],
    },
    expect: {
      groups: [
        { id: 1, more: true, results: expectedBraveResults('paging rust', 10, 0).map(plain) },
        { id: 2, more: true, results: expectedBraveResults('paging rust', 10, 1).map(plain) },
      ],
    },
    received: (requests) => {
      // A column may run the search twice (the CLI's two outputs): each call counts once.
      const asked = [...new Set(requests.map((r) => `${r.query.count}/${r.query.offset ?? '0'}`))].sort();
      check(JSON.stringify(asked) === JSON.stringify(['10/0', '10/1']), `Brave was asked ${JSON.stringify(asked)}`);
    },
  },
  {
    name: 'pages-searxng-second-after-first',
    assertion: 'web-search.results.bounded',
    description: "SearXNG's page 2 of count 10 without tabloids is asked as pageno=2 and holds its results 11–20.",
    provider: 'searxng',
    request: {
      requests: [
        { query: 'paging rust', count: 10, filter_tabloids: false },
        { query: 'paging rust', count: 10, filter_tabloids: false, page: 2 },
      ],
    },
    expect: {
      groups: [
        { id: 1, more: true, results: expectedSearxngResults('paging rust', 1, 10).map(plain) },
        { id: 2, more: true, results: expectedSearxngResults('paging rust', 11, 20).map(plain) },
      ],
    },
    received: (requests) => {
      const pages = [...new Set(requests.map((r) => r.query.pageno))].sort();
      check(JSON.stringify(pages) === JSON.stringify(['1', '2']), `SearXNG was asked pageno ${JSON.stringify(pages)}`);
    },
  },
  {
    name: 'pages-openai-refused',
    assertion: 'web-search.request.validated',
    description: "OpenAI's hosted search cannot page: page 2 is a 400 naming requests[0].page, before any call.",
    provider: 'openai',
    request: { requests: [{ query: 'a', page: 2 }] },
    formCannotExpress: 'provider option: the GUI disables the page control where the provider cannot apply it.',
    expect: { code: 'invalid_request', issuePaths: ['requests[0].page'], groups: [] },
    received: (requests) => check(requests.length === 0, `${requests.length} provider calls`),
  },
  {
    name: 'pages-brave-past-reach-refused',
    assertion: 'web-search.request.validated',
    description:
      'Brave serves offsets up to 9: page 10 of count 20 with tabloids filtered would start at offset 18, so it is a 400 naming page, before any call.',
    // Brave's own rule: beyond what the contract alone can tell.
    provider: 'brave',
    request: { requests: [{ query: 'a', count: 20, page: 10 }] },
    expect: { code: 'invalid_request', issuePaths: ['requests[0].page'], groups: [] },
    received: (requests) => check(requests.length === 0, `${requests.length} provider calls`),
  },
  {
    name: 'news-brave',
    assertion: 'web-search.response.sanitized',
    description: "topic news reads Brave's news endpoint (no web-only parameters): news articles, newest first.",
    request: { requests: [{ query: 'rust release', topic: 'news', count: 5 }] },
    expect: {
      groups: [{ id: 1, more: true, results: expectedBraveNews('rust release', 5).map(plain) }],
    },
    received: (requests) =>
      check(
        requests.length > 0 && requests.every((r) => r.query.result_filter === undefined && r.query.count === '10'),
        `Brave was asked ${JSON.stringify(requests.map((r) => r.query))}`,
      ),
  },
  {
    name: 'news-searxng',
    assertion: 'web-search.response.sanitized',
    description: 'topic news asks SearXNG for its news category: news articles, newest first.',
    provider: 'searxng',
    request: { requests: [{ query: 'rust release', topic: 'news', count: 5 }] },
    expect: {
      groups: [
        {
          id: 1,
          more: true,
          results: [1, 2, 3, 4, 5].map((n) => plain(searxngNewsResult('rust release', n))),
        },
      ],
    },
    received: (requests) =>
      check(
        requests.length > 0 && requests.every((r) => r.query.categories === 'news'),
        `SearXNG was asked ${JSON.stringify(requests.map((r) => r.query))}`,
      ),
  },
  {
    name: 'news-local-refused',
    assertion: 'web-search.request.validated',
    description: 'The local index has no news: topic news is a 400 naming requests[0].topic.',
    provider: 'local',
    request: { requests: [{ query: 'element', topic: 'news' }] },
    formCannotExpress: 'provider option: the GUI disables the topic control where the provider cannot apply it.',
    expect: { code: 'invalid_request', issuePaths: ['requests[0].topic'], groups: [] },
  },
  {
    name: 'altered-query-shown',
    assertion: 'web-search.response.sanitized',
    description:
      'When Brave searched for a corrected query, the group says it as altered_query (its site: operator removed) and it is no follow-up suggestion.',
    request: { requests: [{ query: 'altered rust ownership', count: 3, include_domains: ['example.org'] }] },
    expect: {
      groups: [
        {
          id: 1,
          altered_query: 'rust ownership',
          more: true,
          results: expectedBraveResults('rust ownership site:example.org', 3).map(plain),
        },
      ],
    },
  },
  {
    name: 'more-true-and-false',
    assertion: 'web-search.results.bounded',
    description:
      'A group says more results exist where Brave said so past a full page, and not where Brave said its results end.',
    request: {
      requests: [
        { query: 'scarce rust', count: 20, filter_tabloids: false },
        { query: 'plenty rust', count: 3 },
      ],
    },
    expect: (outcome) => {
      check(outcome.code === undefined && outcome.groups.length === 2, JSON.stringify(outcome));
      check(outcome.groups[0]?.more === undefined, `scarce: more ${outcome.groups[0]?.more}`);
      check(outcome.groups[1]?.more === true, `plenty: more ${outcome.groups[1]?.more}`);
    },
  },
];
