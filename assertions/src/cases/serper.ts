import type { GroupErrorCode } from '@openmates/contract';
import { expectedBraveResults, expectedSerperResults, SERPER_CANARY_API_KEY } from '@openmates/fixtures';
import type { ParityCase, ProviderRequest } from '../case.ts';
import type { Outcome } from '../outcome.ts';
import { check } from './check.ts';

// Cases against the Serper fixture (docs/providers/serper.md), on the columns ADR 0128 names: core,
// REST, the CLI, the npm SDK and the columns that run its cases (the pip SDK, MCP, the event streams).

const provider = 'serper' as const;
const COLUMNS = {
  surfaces: ['core', 'rest', 'cli', 'sdk'],
  // REST behind a proxy in front of several replicas: no provider-specific path (ADR 0128).
  except: ['cluster'],
  formCannotExpress: 'provider option: the GUI columns do not run the Serper cases (ADR 0128).',
} as const;

const ordinary = (query: string, from: number, to: number, news = false) =>
  expectedSerperResults(query, from, to, news);

/** The JSON body of every search the fixture received, each column's runs together. */
const bodies = (requests: readonly ProviderRequest[]) => requests.map((r) => (r.body ?? {}) as Record<string, unknown>);

/** A case asserting one honoured option: the results it gives and what Serper was sent for it. */
function honoured(
  option: string,
  item: Record<string, unknown>,
  sent: (body: Record<string, unknown>, path: string) => string | undefined,
  results: Outcome['groups'][number]['results'] | ((outcome: Outcome) => void),
  assertion: ParityCase['assertion'] = 'web-search.results.bounded',
): ParityCase {
  return {
    name: `serper-${option}-sent`,
    assertion,
    description: `Serper honours ${option}: the request it gets carries it as Serper's own parameter.`,
    provider,
    ...COLUMNS,
    request: { requests: [{ filter_tabloids: false, count: 3, ...item }] },
    expect: typeof results === 'function' ? results : { groups: [{ id: 1, results }] },
    received: (requests) => {
      check(requests.length > 0, 'Serper got the search');
      for (const request of requests) {
        const wrong = sent(bodies([request])[0] ?? {}, String(request.query.path));
        check(wrong === undefined, `${option}: ${wrong} (sent ${JSON.stringify(request.body)})`);
      }
    },
  };
}

const expectEqual = (what: string, got: unknown, want: unknown) =>
  JSON.stringify(got) === JSON.stringify(want)
    ? undefined
    : `${what} ${JSON.stringify(got)}, not ${JSON.stringify(want)}`;

const failed = (name: string, query: string, code: GroupErrorCode, description: string): ParityCase => ({
  name,
  assertion: 'web-search.provider-error.visible',
  description,
  provider,
  ...COLUMNS,
  request: { requests: [{ query }] },
  expect: { code, groups: [{ id: 1, errorCode: code, results: [] }] },
});

export const serperCases: ParityCase[] = [
  honoured('count', { query: 'rust count' }, (b) => expectEqual('num', b.num, 3), ordinary('rust count', 1, 3)),
  honoured(
    'page',
    { query: 'rust page', page: 2 },
    (b) => expectEqual('page', [b.num, b.page], [3, 2]),
    ordinary('rust page', 4, 6),
  ),
  honoured(
    'country',
    { query: 'rust country', country: 'GB' },
    (b) => expectEqual('gl', b.gl, 'uk'),
    ordinary('rust country', 1, 3),
  ),
  honoured(
    'search_lang',
    { query: 'rust lang', search_lang: 'de' },
    (b) => expectEqual('hl', b.hl, 'de'),
    ordinary('rust lang', 1, 3),
  ),
  honoured(
    'freshness',
    { query: 'rust fresh', freshness: 'week' },
    (b) => expectEqual('tbs', b.tbs, 'qdr:w'),
    ordinary('rust fresh', 1, 3),
    'web-search.scope.freshness-applied',
  ),
  honoured(
    'freshness-range',
    { query: 'rust range', freshness: '2025-03-09..2025-12-31' },
    (b) => expectEqual('tbs', b.tbs, 'cdr:1,cd_min:3/9/2025,cd_max:12/31/2025'),
    // The fixture's results carry no machine-readable date: none is out of the range.
    ordinary('rust range', 1, 3),
    'web-search.scope.freshness-applied',
  ),
  honoured(
    'include_domains',
    { query: 'rust include', include_domains: ['example.com'] },
    (b) => expectEqual('q', b.q, 'rust include site:example.com'),
    ordinary('rust include', 1, 3),
    'web-search.scope.domains-enforced',
  ),
  honoured(
    'exclude_domains',
    { query: 'rust exclude', exclude_domains: ['spam.example.org'] },
    (b) => expectEqual('q', b.q, 'rust exclude -site:spam.example.org'),
    ordinary('rust exclude', 1, 3),
    'web-search.scope.domains-enforced',
  ),
  honoured(
    'topic',
    { query: 'rust news', topic: 'news' },
    (_b, path) => expectEqual('path', path, '/news'),
    (outcome: Outcome) => {
      const urls = outcome.groups[0]?.results.map((r) => r.url) ?? [];
      check(
        [...urls].sort().join() ===
          ordinary('rust news', 1, 3, true)
            .map((r) => r.url)
            .sort()
            .join(),
        `news results: ${urls}`,
      );
    },
  ),
  {
    name: 'serper-safesearch-strict-refused',
    assertion: 'web-search.request.validated',
    description: 'Serper has no safe-search parameter: strict is refused before any call, naming the option.',
    provider,
    ...COLUMNS,
    request: { requests: [{ query: 'anything', safesearch: 'strict' }] },
    expect: { code: 'invalid_request', issuePaths: ['requests[0].safesearch'], groups: [] },
    received: (requests) => check(requests.length === 0, `no call to Serper: ${requests.length}`),
  },
  {
    name: 'serper-extra-snippets-refused',
    assertion: 'web-search.request.validated',
    description: 'Serper answers one snippet a result: extra_snippets is refused before any call, naming the option.',
    provider,
    ...COLUMNS,
    request: { requests: [{ query: 'anything', extra_snippets: true }] },
    expect: { code: 'invalid_request', issuePaths: ['requests[0].extra_snippets'], groups: [] },
    received: (requests) => check(requests.length === 0, `no call to Serper: ${requests.length}`),
  },
  failed('serper-auth', 'unauthorized rust', 'provider_auth', 'Serper’s 403 for an unknown key is provider_auth.'),
  failed(
    'serper-rate-limited',
    'ratelimit-long rust',
    'provider_rate_limited',
    'A 429 naming a wait longer than the call may take is provider_rate_limited, not waited out.',
  ),
  failed('serper-unavailable', 'unavailable rust', 'provider_unavailable', 'A 503 is provider_unavailable.'),
  failed('serper-malformed', 'malformed rust', 'provider_error', 'Truncated JSON from Serper is provider_error.'),
  {
    name: 'serper-key-canary',
    assertion: 'web-search.secrets.never-exposed',
    description: 'The Serper key, echoed in results, a related search and a 500 body, never leaves.',
    provider,
    ...COLUMNS,
    forbidden: [SERPER_CANARY_API_KEY],
    request: { requests: [{ query: 'leak x' }, { query: 'error500 x' }] },
    expect: (outcome: Outcome) => {
      const [leak, error500] = outcome.groups;
      check(
        leak?.results.map((r) => r.url).join() === ['https://example.com/leak/1', 'https://example.com/leak/3'].join(),
        `the link carrying the key is dropped: ${leak?.results.map((r) => r.url)}`,
      );
      check(leak?.results[0]?.title === 'Key [redacted] in a title', `title: ${leak?.results[0]?.title}`);
      check(error500?.errorCode === 'provider_error', `500: ${error500?.errorCode}`);
    },
  },
  {
    name: 'chain-serper-fails-brave-answers',
    assertion: 'web-search.provider-error.visible',
    description: 'Serper first: a group it refuses (out of credits) goes to Brave, which answers it and says so.',
    provider: ['serper', 'brave'],
    ...COLUMNS,
    request: { requests: [{ id: 'credits', query: 'nocredits rust', count: 3, filter_tabloids: false }] },
    expect: {
      provider: 'Brave Search',
      groups: [
        {
          id: 'credits',
          provider: 'Brave Search',
          results: expectedBraveResults('nocredits rust', 3).map(({ url, title, description }) => ({
            url,
            title,
            description,
          })),
        },
      ],
    },
  },
  {
    name: 'chain-brave-fails-serper-answers',
    assertion: 'web-search.provider-error.visible',
    description: 'Serper second: a group Brave refuses goes to Serper, which answers it and says so.',
    provider: ['brave', 'serper'],
    ...COLUMNS,
    request: { requests: [{ id: 'refused', query: 'refused rust', count: 3, filter_tabloids: false }] },
    expect: {
      provider: 'Serper',
      groups: [{ id: 'refused', provider: 'Serper', results: ordinary('refused rust', 1, 3) }],
    },
  },
];
