import { MAX_EXTRA_SNIPPET_LENGTH, MAX_EXTRA_SNIPPETS, MIN_MAX_RESPONSE_BYTES } from '@openmates/contract';
import { EXCERPT_FIXTURE_CLEANED, expectedBraveResults, fixtureExcerpt } from '@openmates/fixtures';
import type { ParityCase, ProviderRequest } from '../case.ts';
import type { Outcome } from '../outcome.ts';
import { check } from './check.ts';

const INVISIBLE_OR_MARKUP = /[\p{Cc}\p{Cf}]|<script|<strong|&amp;|alert\(/iu;

const everyExcerpt = (outcome: Outcome) =>
  outcome.groups.flatMap((group) => group.results.flatMap((result) => result.extra_snippets ?? []));

const sentExtraSnippets = (requests: readonly ProviderRequest[]) => requests.map((r) => r.query.extra_snippets);

/** A query of the fitting case: three queries of 20 results, five excerpts of 290 characters on each. */
const FITTED_QUERIES = ['excerpts one', 'excerpts two', 'excerpts three'] as const;

/** Page excerpts (`extra_snippets`): asked for, cleaned, bounded, refused where they cannot be given, fitted out first. */
export const excerptCases: ParityCase[] = [
  {
    name: 'excerpts-brave-clean-bounded',
    assertion: 'web-search.response.sanitized',
    description:
      'Brave is asked for extra_snippets; its markup, entities, invisible characters and script tag come out as at most 5 plain excerpts of at most 300 characters, without blanks or the description.',
    request: { requests: [{ id: 'x', query: 'excerpts markup', count: 3, extra_snippets: true }] },
    expect: (outcome: Outcome) => {
      const results = outcome.groups[0]?.results ?? [];
      check(outcome.code === undefined && results.length === 3, `expected 3 results, got ${results.length}`);
      const [first, ...rest] = results;
      check(
        JSON.stringify(first?.extra_snippets) === JSON.stringify(EXCERPT_FIXTURE_CLEANED),
        `first result's excerpts: ${JSON.stringify(first?.extra_snippets)}`,
      );
      rest.forEach((result, i) => {
        const expected = [1, 2, 3, 4, 5].map((k) => fixtureExcerpt('excerpts markup', i + 2, k));
        check(
          JSON.stringify(result.extra_snippets) === JSON.stringify(expected),
          `result ${i + 2}: ${JSON.stringify(result.extra_snippets)}`,
        );
      });
      for (const result of results) {
        const excerpts = result.extra_snippets ?? [];
        check(excerpts.length > 0 && excerpts.length <= MAX_EXTRA_SNIPPETS, `${excerpts.length} excerpts`);
        for (const text of excerpts) {
          check([...text].length <= MAX_EXTRA_SNIPPET_LENGTH, `an excerpt of ${[...text].length} characters`);
          check(!INVISIBLE_OR_MARKUP.test(text), `unsafe excerpt ${JSON.stringify(text)}`);
          check(text !== result.description, 'an excerpt repeats the description');
        }
      }
    },
    received: (requests) =>
      check(
        requests.length > 0 && sentExtraSnippets(requests).every((value) => value === 'true'),
        `extra_snippets sent: ${JSON.stringify(sentExtraSnippets(requests))}`,
      ),
  },
  {
    name: 'excerpts-not-asked-none',
    assertion: 'web-search.results.bounded',
    description: 'Without extra_snippets (or with it false) Brave is not asked for excerpts and no result carries any.',
    request: {
      requests: [
        { query: 'excerpts markup', count: 3 },
        { query: 'excerpts plain', count: 2, extra_snippets: false },
      ],
    },
    expect: {
      groups: [
        {
          id: 1,
          results: expectedBraveResults('excerpts markup', 3).map(({ url, title, description }) => ({
            url,
            title,
            description,
          })),
        },
        {
          id: 2,
          results: expectedBraveResults('excerpts plain', 2).map(({ url, title, description }) => ({
            url,
            title,
            description,
          })),
        },
      ],
    },
    received: (requests) =>
      check(
        requests.length > 0 && sentExtraSnippets(requests).every((value) => value === undefined),
        `extra_snippets sent: ${JSON.stringify(sentExtraSnippets(requests))}`,
      ),
  },
  {
    name: 'excerpts-searxng-refused',
    assertion: 'web-search.request.validated',
    description: 'SearXNG cannot give page excerpts: asking for them is a 400 naming extra_snippets, before any call.',
    provider: 'searxng',
    request: { requests: [{ query: 'a' }, { query: 'b', extra_snippets: true }] },
    formCannotExpress: 'provider option: the GUI disables the excerpts toggle where the provider cannot apply it.',
    expect: { code: 'invalid_request', issuePaths: ['requests[1].extra_snippets'], groups: [] },
    received: (requests) => check(requests.length === 0, `${requests.length} provider calls`),
  },
  {
    name: 'excerpts-local-query-terms',
    assertion: 'web-search.results.bounded',
    description: 'The local index cuts its excerpts from the indexed text around the matched terms: each holds one.',
    provider: 'local',
    request: { requests: [{ query: 'dialog element', extra_snippets: true }] },
    expect: (outcome: Outcome) => {
      const excerpts = everyExcerpt(outcome);
      check(outcome.code === undefined && excerpts.length > 0, `no excerpts: ${JSON.stringify(outcome)}`);
      for (const group of outcome.groups)
        for (const result of group.results)
          check(
            (result.extra_snippets?.length ?? 0) <= 3,
            `${result.extra_snippets?.length} excerpts on ${result.url}`,
          );
      for (const text of excerpts) check(/dialog|element/i.test(text), `no query term in ${JSON.stringify(text)}`);
    },
  },
  {
    name: 'excerpts-fitted-out-first',
    assertion: 'web-search.results.bounded',
    description:
      'Under the smallest response ceiling, excerpts are removed (last group first) before any result: every result stays.',
    env: { OPENMATES_MAX_RESPONSE_BYTES: String(MIN_MAX_RESPONSE_BYTES) },
    // The cluster column's second replica answers from the shared cache, and its answer says so
    // (`usage`, a few bytes shorter): fitted to the byte, it keeps one excerpt more than the first.
    except: ['cluster'],
    request: { requests: FITTED_QUERIES.map((query) => ({ query, count: 20, extra_snippets: true })) },
    expect: (outcome: Outcome) => {
      check(
        outcome.groups.map((group) => group.results.length).join() === '20,20,20',
        `results kept: ${outcome.groups.map((group) => group.results.length)}`,
      );
      const last = outcome.groups.at(-1)?.results ?? [];
      check(
        last.every((result) => result.extra_snippets === undefined),
        'the last group kept excerpts',
      );
      check(
        (outcome.groups[0]?.results ?? []).some((result) => result.extra_snippets !== undefined),
        'the first group lost every excerpt though the response had room for some',
      );
      // A result keeps all of its excerpts or none.
      for (const result of outcome.groups.flatMap((group) => group.results))
        check(
          result.extra_snippets === undefined || result.extra_snippets.length === 5,
          `${result.url} was cut in part`,
        );
    },
  },
];
