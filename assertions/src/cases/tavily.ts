import { expectedSearxngResults, TAVILY_CANARY_API_KEY, tavilyOrdinaryResults } from '@openmates/fixtures';
import type { ParityCase, ProviderRequest, Surface } from '../case.ts';
import type { Outcome } from '../outcome.ts';
import { check } from './check.ts';

// Cases against the Tavily fixture (docs/providers/tavily.md): one per option it honours (the body
// it received), one per option it refuses, one per error class, the key canary, and failover with
// Tavily first and second. Columns: core, REST, CLI, the TypeScript SDK and legacy stdio MCP (ADR 0125).

const provider = 'tavily' as const;
const surfaces: readonly Surface[] = ['core', 'rest', 'cli', 'sdk', 'mcp'];
const except: readonly Surface[] = [
  'cluster',
  'pip',
  'pip-stream',
  'stream',
  'sdk-stream',
  'mcp-http',
  'mcp-2026',
  'mcp-http-2026',
];
const columns = { surfaces, except } as const;

const ordinary = (query: string, count: number, host?: string) =>
  tavilyOrdinaryResults(query, count, host === undefined ? {} : { host }).map(({ url, title, content }) => ({
    url,
    title,
    description: content,
  }));

/** The bodies the fixture received, each column's searches together. */
const bodies = (requests: readonly ProviderRequest[]) =>
  requests.map((r) => (r.body ?? {}) as Record<string, unknown>).filter((b) => typeof b.query === 'string');

/** Checks every body received carries `fields` (and lacks `absent`). */
const everyBody =
  (fields: Record<string, unknown>, absent: readonly string[] = []) =>
  (requests: readonly ProviderRequest[]) => {
    const sent = bodies(requests);
    check(sent.length > 0, 'Tavily received a search');
    for (const body of sent) {
      for (const [key, value] of Object.entries(fields))
        check(JSON.stringify(body[key]) === JSON.stringify(value), `${key}: ${JSON.stringify(body[key])}`);
      for (const key of absent) check(!(key in body), `${key} is not sent: ${JSON.stringify(body[key])}`);
    }
  };

const honoured: ParityCase[] = [
  {
    name: 'tavily-count',
    assertion: 'web-search.results.bounded',
    description: 'count is Tavily’s max_results, in a basic search (1 API credit), the country by its English name.',
    provider,
    ...columns,
    request: { requests: [{ query: 'rust vec', count: 3, filter_tabloids: false }] },
    expect: { groups: [{ id: 1, results: ordinary('rust vec', 3) }] },
    received: everyBody({ max_results: 3, search_depth: 'basic', topic: 'general', country: 'united states' }),
  },
  {
    name: 'tavily-topic-news',
    assertion: 'web-search.results.bounded',
    description: 'topic news is Tavily’s news topic, sent without a country (its news search takes none).',
    provider,
    ...columns,
    request: { requests: [{ query: 'rust release', count: 3, topic: 'news', filter_tabloids: false }] },
    expect: (outcome: Outcome) => {
      check(outcome.code === undefined, `no error, got ${outcome.code}`);
      check(outcome.groups[0]?.results.length === 3, `3 news results: ${outcome.groups[0]?.results.length}`);
    },
    received: everyBody({ topic: 'news' }, ['country']),
  },
  {
    name: 'tavily-freshness-period',
    assertion: 'web-search.results.bounded',
    description: 'A freshness period is Tavily’s time_range.',
    provider,
    ...columns,
    request: { requests: [{ query: 'rust vec', count: 3, freshness: 'week', filter_tabloids: false }] },
    expect: (outcome: Outcome) => check(outcome.code === undefined, `no error, got ${outcome.code}`),
    received: everyBody({ time_range: 'week' }, ['start_date', 'end_date']),
  },
  {
    name: 'tavily-freshness-range',
    assertion: 'web-search.results.bounded',
    description: 'A freshness date range is Tavily’s start_date and end_date.',
    provider,
    ...columns,
    request: {
      requests: [{ query: 'rust vec', count: 3, freshness: '2025-01-01..2025-03-31', filter_tabloids: false }],
    },
    expect: (outcome: Outcome) => check(outcome.code === undefined, `no error, got ${outcome.code}`),
    received: everyBody({ start_date: '2025-01-01', end_date: '2025-03-31' }, ['time_range']),
  },
  {
    name: 'tavily-domains',
    assertion: 'web-search.results.bounded',
    description: 'include_domains and exclude_domains are Tavily’s own lists.',
    provider,
    ...columns,
    request: {
      requests: [
        {
          query: 'rust vec',
          count: 3,
          include_domains: ['docs.rs'],
          exclude_domains: ['spam.example'],
          filter_tabloids: false,
        },
      ],
    },
    expect: { groups: [{ id: 1, results: ordinary('rust vec', 3, 'docs.rs') }] },
    received: everyBody({ include_domains: ['docs.rs'], exclude_domains: ['spam.example'] }),
  },
  {
    name: 'tavily-country',
    assertion: 'web-search.results.bounded',
    description: 'country is Tavily’s country boost, by the country’s English name in lowercase.',
    provider,
    ...columns,
    request: { requests: [{ query: 'rust vec', count: 3, country: 'DE', filter_tabloids: false }] },
    expect: { groups: [{ id: 1, results: ordinary('rust vec', 3) }] },
    received: everyBody({ country: 'germany' }),
  },
];

const refused = (
  name: string,
  field: string,
  item: Record<string, unknown>,
  formCannotExpress: string,
): ParityCase => ({
  name: `tavily-${name}-refused`,
  assertion: 'web-search.request.validated',
  description: `Tavily cannot apply ${field} here: refused before any call, naming the field.`,
  provider,
  ...columns,
  formCannotExpress,
  request: { requests: [{ query: 'anything', ...item }] },
  expect: { code: 'invalid_request', issuePaths: [`requests[0].${field}`], groups: [] },
  received: (requests) => check(requests.length === 0, `no call to Tavily: ${requests.length}`),
});

const refusals: ParityCase[] = [
  refused('page', 'page', { page: 2 }, 'provider option: the GUI offers no next page where the provider cannot page.'),
  refused(
    'lang',
    'search_lang',
    { search_lang: 'de' },
    'provider option: skill info lists search_lang as unsupported.',
  ),
  refused(
    'strict',
    'safesearch',
    { safesearch: 'strict' },
    'provider option: skill info lists safesearch as unsupported.',
  ),
  refused(
    'extra-snippets',
    'extra_snippets',
    { extra_snippets: true },
    'provider option: skill info lists extra_snippets as unsupported.',
  ),
  refused(
    'news-country',
    'country',
    { topic: 'news', country: 'DE' },
    'provider option: a country beside topic news is refused for Tavily only.',
  ),
];

const failed = (name: string, query: string, code: string, description: string): ParityCase => ({
  name: `tavily-${name}`,
  assertion: 'web-search.provider-error.visible',
  description,
  provider,
  ...columns,
  request: { requests: [{ query }] },
  expect: { code, groups: [{ id: 1, errorCode: code, results: [] }] } as Outcome,
});

const errors: ParityCase[] = [
  failed('auth', 'unauthorized rust', 'provider_auth', 'Tavily refusing the key (401) is provider_auth.'),
  failed(
    'rate-limited',
    'limited rust',
    'provider_rate_limited',
    'A 429 whose wait is too long to retry is provider_rate_limited.',
  ),
  failed('unavailable', 'unavailable rust', 'provider_unavailable', 'Tavily answering 503 is provider_unavailable.'),
  failed('malformed', 'malformed rust', 'provider_error', 'Truncated JSON from Tavily is provider_error.'),
  {
    name: 'tavily-canary',
    assertion: 'web-search.secrets.never-exposed',
    description: 'The Tavily key, echoed in results and in a 500 body, never leaves.',
    provider,
    ...columns,
    forbidden: [TAVILY_CANARY_API_KEY, encodeURIComponent(TAVILY_CANARY_API_KEY)],
    request: { requests: [{ query: 'leak x' }, { query: 'error500 x' }] },
    expect: (outcome: Outcome) => {
      const [leak, error500] = outcome.groups;
      check((leak?.results.length ?? 0) > 0, 'the leak group answers');
      check(error500?.errorCode === 'provider_error', `500: ${error500?.errorCode}`);
    },
  },
];

const searxng = (query: string, count: number) =>
  expectedSearxngResults(query, 1, count).map(({ url, title, description }) => ({ url, title, description }));

const failover: ParityCase[] = [
  {
    name: 'chain-tavily-fails-searxng-answers',
    assertion: 'web-search.provider-error.visible',
    description: 'Tavily first: the group it fails (a 503) goes to SearXNG, the one it answers stays its own.',
    provider: ['tavily', 'searxng'],
    ...columns,
    request: {
      requests: [
        { id: 'tavily', query: 'rust vec', count: 3, filter_tabloids: false },
        { id: 'error', query: 'unavailable rust', count: 3, filter_tabloids: false },
      ],
    },
    expect: {
      provider: 'Tavily, SearXNG',
      groups: [
        { id: 'tavily', provider: 'Tavily', results: ordinary('rust vec', 3) },
        { id: 'error', provider: 'SearXNG', results: searxng('unavailable rust', 3) },
      ],
    },
  },
  {
    name: 'chain-searxng-fails-tavily-answers',
    assertion: 'web-search.provider-error.visible',
    description: 'Tavily second: the group SearXNG fails (JSON output off, 403) goes to Tavily.',
    provider: ['searxng', 'tavily'],
    ...columns,
    request: { requests: [{ id: 'off', query: 'noformat rust', count: 3, filter_tabloids: false }] },
    expect: {
      provider: 'Tavily',
      groups: [{ id: 'off', provider: 'Tavily', results: ordinary('noformat rust', 3) }],
    },
  },
];

/** Every Tavily case. */
export const tavilyCases: ParityCase[] = [...honoured, ...refusals, ...errors, ...failover];
