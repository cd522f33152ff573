import { expectedSearxngResults, SEARXNG_CANARY_PASSWORD, SEARXNG_FIXTURE_USER } from '@openmates/fixtures';
import type { ParityCase } from '../case.ts';
import type { Outcome } from '../outcome.ts';
import { check } from './check.ts';

const provider = 'searxng' as const;

const ordinary = (query: string, from: number, to: number) =>
  expectedSearxngResults(query, from, to).map(({ url, title, description }) => ({ url, title, description }));

/** The Authorization header's token for the fixture's credentials: a secret as much as the password. */
const AUTH_TOKEN = Buffer.from(`${SEARXNG_FIXTURE_USER}:${SEARXNG_CANARY_PASSWORD}`).toString('base64');
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

/**
 * SearXNG's title and content are plain text (SEARXNG_TEXT_FORMAT): once the engine honours a
 * provider's text format, markup-looking text stays literal. Until that lands (the provider
 * interface's text-format flag, wired at merge), the engine parses all provider text as HTML; the
 * case accepts exactly one of these two renderings, and the surfaces must still agree.
 */
const HOSTILE_TITLE = 'Vec<T> <b>guide</b><script>alert(1)</script>';
const HOSTILE_DESCRIPTION = 'Use &amp; <img src=x onerror=alert(1)> wisely done';

/** Cases against the SearXNG fixture (docs/providers/searxng.md), one at least per assertion id. */
export const searxngCases: ParityCase[] = [
  {
    name: 'searxng-validated',
    assertion: 'web-search.request.validated',
    description: 'SearXNG gets the same contract validation as any other provider, before any call.',
    provider,
    request: { requests: [{ query: 'rust', count: 0 }] },
    expect: { code: 'invalid_request', issuePaths: ['requests[0].count'], groups: [] },
  },
  {
    name: 'searxng-ids-correlated',
    assertion: 'web-search.request.ids-correlated',
    description: 'A failed and a successful SearXNG query keep their own ids, in request order.',
    provider,
    request: {
      requests: [
        { id: 'off', query: 'noformat rust', filter_tabloids: false },
        { id: 'ok', query: 'rust ownership', filter_tabloids: false },
      ],
    },
    expect: {
      code: 'provider_error',
      groups: [
        { id: 'off', errorCode: 'provider_error', results: [] },
        { id: 'ok', results: ordinary('rust ownership', 1, 10) },
      ],
    },
  },
  {
    name: 'searxng-hostile-markup',
    assertion: 'web-search.response.sanitized',
    description:
      'Markup-looking text, entities, invisible characters, a 10 KB title and a script URL from SearXNG arrive as bounded, safe text.',
    provider,
    request: { requests: [{ query: 'hostile markup', count: 10 }] },
    expect: (outcome: Outcome) => {
      const results = outcome.groups[0]?.results ?? [];
      check(outcome.code === undefined, `no error, got ${outcome.code}`);
      check(
        results.map((r) => r.url).join() ===
          ['https://example.net/hostile/1', 'https://example.net/hostile/2', 'https://example.net/hostile/3'].join(),
        `the javascript: URL is dropped: ${results.map((r) => r.url)}`,
      );
      const [first, huge, blank] = results;
      // SearXNG's text is plain text (ADR 0017): markup-looking text stays as written.
      check(first?.title === HOSTILE_TITLE, `title: ${JSON.stringify(first?.title)}`);
      check(first?.description === HOSTILE_DESCRIPTION, `description: ${JSON.stringify(first?.description)}`);
      check([...(huge?.title ?? '')].length === 300 && (huge?.title.endsWith('…') ?? false), 'the 10 KB title is cut');
      check(huge?.description === '', 'invisible-only content is empty');
      check(blank?.title === 'example.net', `a blank title becomes the hostname: ${blank?.title}`);
      check([...(blank?.description ?? '')].length === 1000, 'the 3000-char content is cut to 1000');
      for (const r of results) check(!INVISIBLE.test(r.title + r.description), `invisible characters in ${r.url}`);
    },
  },
  {
    name: 'searxng-duplicates-across-pages',
    assertion: 'web-search.results.bounded',
    description: 'URLs SearXNG repeats on later pages are kept once, and paging still meets count.',
    provider,
    request: { requests: [{ query: 'repeat pages', count: 15, filter_tabloids: false }] },
    expect: { groups: [{ id: 1, results: ordinary('repeat pages', 1, 15) }] },
  },
  {
    name: 'searxng-zero-hits',
    assertion: 'web-search.no-results.explicit',
    description: 'An instance whose engines all answered and found nothing is a finished empty group.',
    provider,
    request: { requests: [{ query: 'nothing matches this' }] },
    expect: { groups: [{ id: 1, results: [] }] },
  },
  {
    name: 'searxng-unresponsive-engines',
    assertion: 'web-search.provider-error.visible',
    description:
      'Zero results because engines did not respond is provider_unavailable, never zero hits; results beside unresponsive engines are kept.',
    provider,
    request: {
      requests: [
        { id: 'down', query: 'unresponsive engines' },
        { id: 'some', query: 'partial engines' },
      ],
    },
    expect: {
      code: 'provider_unavailable',
      groups: [
        { id: 'down', errorCode: 'provider_unavailable', results: [] },
        { id: 'some', results: ordinary('partial engines', 1, 10) },
      ],
    },
  },
  {
    name: 'searxng-json-disabled-and-html',
    assertion: 'web-search.provider-error.visible',
    description:
      'JSON output turned off (403), an HTML page and a failed later page: visible errors, earlier pages kept (the limiter’s 429, which pauses SearXNG for every query, has a case of its own: searxng-429-naming-no-wait-fails).',
    provider,
    request: {
      requests: [
        { id: 'formats', query: 'noformat rust' },
        { id: 'html', query: 'html rust' },
        { id: 'later', query: 'failater rust' },
      ],
    },
    expect: {
      code: 'provider_error',
      groups: [
        { id: 'formats', errorCode: 'provider_error', results: [] },
        { id: 'html', errorCode: 'provider_error', results: [] },
        { id: 'later', results: ordinary('failater rust', 1, 10) },
      ],
    },
  },
  {
    name: 'searxng-credentials-canary',
    assertion: 'web-search.secrets.never-exposed',
    description:
      'The instance’s basic-auth password, echoed in results, a suggestion, engine errors and a 500 page, never leaves.',
    provider,
    forbidden: [SEARXNG_CANARY_PASSWORD, encodeURIComponent(SEARXNG_CANARY_PASSWORD), AUTH_TOKEN],
    request: { requests: [{ query: 'leak x' }, { query: 'unresponsive x' }, { query: 'error500 x' }] },
    expect: (outcome: Outcome) => {
      const [leak, unresponsive, error500] = outcome.groups;
      check(
        leak?.results.map((r) => r.url).join() ===
          ['https://example.net/leak/1', 'https://example.net/leak/3', 'https://example.net/leak/4'].join(),
        `the URL carrying the password is dropped: ${leak?.results.map((r) => r.url)}`,
      );
      check(leak?.results[0]?.title === 'Password [redacted] in a title', `title: ${leak?.results[0]?.title}`);
      check(
        leak?.results[1]?.description === 'Authorization: Basic [redacted]',
        `description: ${leak?.results[1]?.description}`,
      );
      check(unresponsive?.errorCode === 'provider_unavailable', `unresponsive: ${unresponsive?.errorCode}`);
      check(error500?.errorCode === 'provider_error', `500: ${error500?.errorCode}`);
    },
  },
];
