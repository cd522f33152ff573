import { CANARY_API_KEY, expectedBraveResults } from '@openmates/fixtures';
import type { ParityCase } from '../case.ts';
import type { Outcome } from '../outcome.ts';
import { check } from './check.ts';

const ordinary = (query: string, count: number) =>
  expectedBraveResults(query, count).map(({ url, title, description }) => ({ url, title, description }));

const INVISIBLE_OR_MARKUP = /[\p{Cc}\p{Cf}]|<script|<img|<style|onerror=|javascript:/iu;

/** Cases against the Brave fixture for sanitization, bounds, zero hits, errors and secrets. */
export const braveResultCases: ParityCase[] = [
  {
    name: 'hostile-markup-sanitized',
    assertion: 'web-search.response.sanitized',
    description: 'Markup, entities, invisible characters and a 10 KB title arrive as bounded plain text.',
    request: { requests: [{ id: 'h', query: 'hostile markup', count: 20 }] },
    expect: (outcome: Outcome) => {
      const results = outcome.groups[0]?.results ?? [];
      check(outcome.code === undefined && results.length === 8, `expected 8 results, got ${results.length}`);
      const byUrl = new Map(results.map((r) => [r.url.split('/').pop(), r]));
      const expectText = (n: string, title: string, description: string) => {
        const r = byUrl.get(n);
        check(r?.title === title && r.description === description, `result ${n}: ${JSON.stringify(r)}`);
      };
      expectText('1', 'Script title', 'Styled bold description');
      expectText('2', 'Image title', 'click here');
      expectText('3', 'Vec<T> in Rust', 'Use Vec<T> & friends');
      expectText('4', '&lt;b&gt; double-encoded', '&amp; stays &amp;');
      expectText('5', 'invisible title', 'bidi gnirts and tags and line breaks');
      expectText('7', 'example.org', '');
      expectText('8', 'Comment <tag> <3', '');
      const huge = byUrl.get('6');
      check(
        [...(huge?.title ?? '')].length === 300 && (huge?.title.endsWith('…') ?? false),
        'the 10 KB title is cut to 300',
      );
      check([...(huge?.description ?? '')].length === 1000, 'the 5000-char description is cut to 1000');
      for (const r of results) check(!INVISIBLE_OR_MARKUP.test(r.title + r.description), `unsafe text in ${r.url}`);
    },
  },
  {
    name: 'bad-urls-dropped',
    assertion: 'web-search.response.sanitized',
    description:
      'javascript:, data:, relative, credentialed, over-long and duplicate-after-normalization URLs are dropped.',
    request: { requests: [{ query: 'badurls everywhere', count: 20 }] },
    expect: {
      groups: [
        {
          id: 1,
          results: [
            { url: 'https://example.org/b', title: 'Bad URL 6', description: 'badurls scenario result 6' },
            { url: 'https://example.org/insecure-favicon', title: 'Insecure favicon', description: 'ok' },
            { url: 'https://example.org/badurls/good', title: 'Good URL', description: 'the one clean result' },
          ],
        },
      ],
    },
  },
  {
    name: 'count-bounds-results',
    assertion: 'web-search.results.bounded',
    description: 'A provider that always sends 20 results is cut to each item’s count.',
    request: {
      requests: [
        { query: 'many things', count: 3 },
        { id: 'all', query: 'many more', count: 20 },
      ],
    },
    expect: (outcome: Outcome) => {
      check(outcome.groups.map((g) => g.results.length).join() === '3,20', 'counts 3 and 20');
    },
  },
  {
    name: 'ordinary-results-exact',
    assertion: 'web-search.results.bounded',
    description: 'An ordinary query returns exactly count results in provider order.',
    request: { requests: [{ query: 'rust ownership', count: 4 }] },
    expect: { groups: [{ id: 1, results: ordinary('rust ownership', 4) }] },
  },
  {
    name: 'tabloids-filtered-count-met',
    assertion: 'web-search.results.bounded',
    description: 'Tabloid domains are removed and count is still met by asking the provider for more.',
    request: { requests: [{ query: 'tabloids today', count: 5 }] },
    expect: (outcome: Outcome) => {
      const hosts = outcome.groups[0]?.results.map((r) => new URL(r.url).hostname) ?? [];
      check(hosts.length === 5, `5 results, got ${hosts.length}`);
      check(!hosts.some((h) => /(^|\.)(dailymail\.co\.uk|thesun\.co\.uk|nypost\.com)$/.test(h)), `tabloid in ${hosts}`);
    },
  },
  {
    name: 'zero-hits-empty-web',
    assertion: 'web-search.no-results.explicit',
    description: 'An empty web result list is a finished empty group, and the call succeeds.',
    request: { requests: [{ query: 'empty nothing' }] },
    expect: { groups: [{ id: 1, results: [] }] },
  },
  {
    name: 'zero-hits-absent-web',
    assertion: 'web-search.no-results.explicit',
    description: 'An answer without any web section is zero hits too, not an error.',
    request: {
      requests: [
        { id: 'z', query: 'noweb nothing' },
        { query: 'rust', count: 1 },
      ],
    },
    expect: {
      groups: [
        { id: 'z', results: [] },
        { id: 1, results: ordinary('rust', 1) },
      ],
    },
  },
  {
    name: 'provider-error-every-group',
    assertion: 'web-search.provider-error.visible',
    description: 'A provider 500 fails the group visibly (502 over HTTP), never as zero hits.',
    request: { requests: [{ query: 'error500 boom' }] },
    expect: { code: 'provider_error', groups: [{ id: 1, errorCode: 'provider_error', results: [] }] },
  },
  {
    name: 'provider-error-partial',
    assertion: 'web-search.provider-error.visible',
    description: 'One failed group among successes: the others keep their results and the response names the failure.',
    request: { requests: [{ query: 'rust', count: 2 }, { id: 'bad', query: 'badkey x' }, { query: 'malformed y' }] },
    expect: {
      code: 'provider_auth',
      groups: [
        { id: 1, results: ordinary('rust', 2) },
        { id: 'bad', errorCode: 'provider_auth', results: [] },
        { id: 2, errorCode: 'provider_error', results: [] },
      ],
    },
  },
  {
    name: 'provider-rate-limited',
    assertion: 'web-search.provider-error.visible',
    description: 'A provider that keeps answering 429 asks for longer than we wait: a visible rate-limit error.',
    request: { requests: [{ query: 'ratelimit-long x' }] },
    expect: { code: 'provider_rate_limited', groups: [{ id: 1, errorCode: 'provider_rate_limited', results: [] }] },
  },
  {
    name: 'provider-timeout',
    assertion: 'web-search.provider-error.visible',
    description: 'A provider slower than the per-call timeout fails its group with provider_timeout.',
    request: { requests: [{ query: 'slow x' }] },
    env: { OPENMATES_PROVIDER_TIMEOUT_MS: '250' },
    expect: { code: 'provider_timeout', groups: [{ id: 1, errorCode: 'provider_timeout', results: [] }] },
  },
  {
    name: 'canary-in-upstream-error',
    assertion: 'web-search.secrets.never-exposed',
    description: 'An upstream 500 whose body and headers echo the key leaks nothing.',
    request: { requests: [{ query: 'error500 leak' }, { query: 'leak everything', count: 20 }] },
    forbidden: [CANARY_API_KEY, encodeURIComponent(CANARY_API_KEY), 'internal.brave.example', 'handler.js:42'],
    expect: {
      code: 'provider_error',
      groups: [
        { id: 1, errorCode: 'provider_error', results: [] },
        {
          id: 2,
          results: [
            { url: 'https://example.org/leak/clean', title: 'Clean result', description: 'nothing secret here' },
          ],
        },
      ],
    },
  },
];
