import { SCOPED_IDN } from '@openmates/fixtures';
import type { ParityCase, ProviderRequest } from '../case.ts';
import type { Outcome } from '../outcome.ts';
import { check } from './check.ts';

const domains = 'web-search.scope.domains-enforced' as const;
const freshness = 'web-search.scope.freshness-applied' as const;
const validated = 'web-search.request.validated' as const;

const hostsOf = (outcome: Outcome, group = 0) =>
  outcome.groups[group]?.results.map((r) => new URL(r.url).hostname) ?? [];
const within = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);
/** The fixtures write each result's date into its description (`published YYYY-MM-DD`), so a date is checkable on every column. */
const yearsOf = (outcome: Outcome, group = 0) =>
  outcome.groups[group]?.results.map((r) => /published (\d{4})/.exec(r.description)?.[1] ?? 'none') ?? [];
const searches = (requests: readonly ProviderRequest[]) => requests.filter((r) => r.query.q !== undefined);
const invalid = (issuePaths: string[]) => ({ code: 'invalid_request' as const, issuePaths, groups: [] });

function noError(outcome: Outcome): void {
  check(outcome.code === undefined, `no error, got ${outcome.code}`);
}

/** Every search the provider received: at least one, each passing `test`. */
function everySearch(test: (query: Record<string, string>) => boolean, what: string) {
  return (requests: readonly ProviderRequest[]) => {
    const calls = searches(requests);
    check(calls.length > 0, 'no search call');
    for (const call of calls) check(test(call.query), `${JSON.stringify(call.query)}, not ${what}`);
  };
}

function noCall(requests: readonly ProviderRequest[]): void {
  check(searches(requests).length === 0 && requests.length === 0, `${requests.length} calls, expected none`);
}

/** Today in UTC, as an open end of a date range becomes for a provider that needs both ends. */
const todayUtc = () => new Date().toISOString().slice(0, 10);

const braveCases: ParityCase[] = [
  {
    name: 'scope-include-brave',
    assertion: domains,
    description:
      'include_domains ["Docs.Example.ORG"] against a Brave fixture that ignores site: yields only docs.example.org and its subdomains, and reaches Brave as a site: operator.',
    request: { requests: [{ query: 'scoped docs', count: 10, include_domains: ['Docs.Example.ORG'] }] },
    expect: (outcome) => {
      noError(outcome);
      const hosts = hostsOf(outcome);
      check(hosts.length === 10, `10 results, got ${hosts.length}`);
      check(
        hosts.every((h) => within(h, 'docs.example.org')),
        `a host outside docs.example.org: ${hosts}`,
      );
      check(hosts.includes('a.docs.example.org'), `the subdomain is kept: ${hosts}`);
    },
    received: everySearch(
      (q) => q.q?.startsWith('scoped docs') === true && /(^|\s|\()site:docs\.example\.org\b/.test(q.q),
      'q with site:docs.example.org',
    ),
  },
  {
    name: 'scope-exclude-brave',
    assertion: domains,
    description:
      'exclude_domains ["example.com"] removes example.com and news.example.com, never notdocs.example.org, and reaches Brave as -site:example.com.',
    request: { requests: [{ query: 'scoped news', count: 10, exclude_domains: ['example.com'] }] },
    expect: (outcome) => {
      noError(outcome);
      const hosts = hostsOf(outcome);
      check(hosts.length === 10, `10 results, got ${hosts.length}`);
      check(!hosts.some((h) => within(h, 'example.com')), `example.com or a subdomain kept: ${hosts}`);
      check(hosts.includes('notdocs.example.org') && hosts.includes('example.net'), `other hosts kept: ${hosts}`);
    },
    received: everySearch((q) => /(^|\s)-site:example\.com\b/.test(q.q ?? ''), 'q with -site:example.com'),
  },
  {
    name: 'scope-idn-brave',
    assertion: domains,
    description: `An internationalized name (${SCOPED_IDN}) is compared, and sent, in its punycode form.`,
    request: { requests: [{ query: 'scoped books', count: 3, include_domains: [SCOPED_IDN] }] },
    expect: (outcome) => {
      noError(outcome);
      const hosts = hostsOf(outcome);
      check(hosts.length === 3 && hosts.every((h) => h === 'xn--bcher-kva.example'), `hosts: ${hosts}`);
    },
    received: everySearch((q) => (q.q ?? '').includes('site:xn--bcher-kva.example'), 'q with the punycode host'),
  },
  {
    name: 'scope-paging-meets-count',
    assertion: domains,
    description:
      'A first page holding 3 in-scope results of 20: the engine asks Brave for the next page (offset) and the group meets count.',
    request: { requests: [{ query: 'sparse docs', count: 8, include_domains: ['docs.example.org'] }] },
    expect: (outcome) => {
      noError(outcome);
      const hosts = hostsOf(outcome);
      check(hosts.length === 8, `8 results, got ${hosts.length}`);
      check(
        hosts.every((h) => within(h, 'docs.example.org')),
        `a host outside docs.example.org: ${hosts}`,
      );
    },
    received: (requests) => {
      const offsets = searches(requests).map((r) => Number(r.query.offset ?? '0'));
      check(offsets.includes(0) && offsets.some((o) => o >= 1), `offsets ${offsets}: a later page was asked for`);
    },
  },
  {
    name: 'scope-runs-out',
    assertion: domains,
    description: 'When the provider runs out, the group holds the in-scope results there were, and no error.',
    request: { requests: [{ query: 'scarce docs', count: 10, include_domains: ['docs.example.org'] }] },
    expect: (outcome) => {
      noError(outcome);
      const hosts = hostsOf(outcome);
      check(outcome.groups[0]?.errorCode === undefined, `group error ${outcome.groups[0]?.errorCode}`);
      check(
        hosts.length === 3 && hosts.every((h) => within(h, 'docs.example.org')),
        `3 in-scope results, got ${hosts}`,
      );
    },
  },
  {
    name: 'freshness-week-brave',
    assertion: freshness,
    description:
      'freshness "week" reaches Brave as freshness=pw; results whose page_age lies before the week are removed, undated ones kept.',
    request: { requests: [{ query: 'scoped recent', count: 5, freshness: 'Week' }] },
    expect: (outcome) => {
      noError(outcome);
      const years = yearsOf(outcome);
      check(years.length === 5 && years.every((y) => y === 'none'), `dates kept: ${years}`);
    },
    received: everySearch((q) => q.freshness === 'pw', 'freshness=pw'),
  },
  {
    name: 'freshness-range-brave',
    assertion: freshness,
    description:
      'A date range reaches Brave as YYYY-MM-DDtoYYYY-MM-DD (an open end as 1970-01-01 or today, UTC); results dated outside it are removed.',
    request: {
      requests: [
        { id: 'closed', query: 'scoped closed', count: 6, freshness: '2025-01-01..2025-12-31' },
        { id: 'from', query: 'scoped from', count: 6, freshness: '2025-01-01..' },
        { id: 'until', query: 'scoped until', count: 6, freshness: '..2024-12-31' },
      ],
    },
    expect: (outcome) => {
      noError(outcome);
      const [closed, from, until] = [0, 1, 2].map((g) => yearsOf(outcome, g));
      check(closed?.length === 6 && !closed.includes('2024'), `closed range kept 2024: ${closed}`);
      check(from?.length === 6 && !from.includes('2024'), `open end kept 2024: ${from}`);
      check(until?.length === 6 && !until.includes('2025'), `open start kept 2025: ${until}`);
    },
    received: (requests) => {
      const sent = (prefix: string) =>
        [
          ...new Set(searches(requests).flatMap((r) => (r.query.q?.startsWith(prefix) ? [r.query.freshness] : []))),
        ].join();
      check(sent('scoped closed') === '2025-01-01to2025-12-31', `closed: ${sent('scoped closed')}`);
      check(sent('scoped from') === `2025-01-01to${todayUtc()}`, `open end: ${sent('scoped from')}`);
      check(sent('scoped until') === '1970-01-01to2024-12-31', `open start: ${sent('scoped until')}`);
    },
  },
];

const searxngCases: ParityCase[] = [
  {
    name: 'scope-searxng-native',
    assertion: domains,
    description:
      'SearXNG gets freshness "week" as time_range=week and the domains as site: / -site: in q; a leaking instance is still fully filtered.',
    provider: 'searxng',
    request: {
      requests: [
        { query: 'scoped docs', count: 6, freshness: 'week', include_domains: ['docs.example.org'] },
        { query: 'scoped rest', count: 6, exclude_domains: ['example.com', 'docs.example.org'] },
      ],
    },
    expect: (outcome) => {
      noError(outcome);
      const included = hostsOf(outcome, 0);
      check(included.length > 0 && included.every((h) => within(h, 'docs.example.org')), `included hosts: ${included}`);
      check(
        yearsOf(outcome, 0).every((y) => y === 'none'),
        `publishedDate before the week kept: ${yearsOf(outcome, 0)}`,
      );
      const rest = hostsOf(outcome, 1);
      check(rest.length === 6, `6 results, got ${rest.length}`);
      check(
        !rest.some((h) => within(h, 'example.com') || within(h, 'docs.example.org')),
        `excluded hosts kept: ${rest}`,
      );
    },
    received: (requests) => {
      const calls = searches(requests);
      const docs = calls.filter((r) => r.query.q?.startsWith('scoped docs'));
      const rest = calls.filter((r) => r.query.q?.startsWith('scoped rest'));
      check(docs.length > 0 && rest.length > 0, 'both queries called');
      for (const r of docs)
        check(
          r.query.time_range === 'week' && (r.query.q ?? '').includes('site:docs.example.org'),
          JSON.stringify(r.query),
        );
      for (const r of rest)
        check(
          r.query.time_range === undefined && /-site:example\.com\b/.test(r.query.q ?? ''),
          JSON.stringify(r.query),
        );
    },
  },
  {
    name: 'scope-searxng-paging',
    assertion: domains,
    description: 'Filtering that leaves fewer than count makes the engine ask SearXNG for the next page (pageno).',
    provider: 'searxng',
    request: { requests: [{ query: 'sparse docs', count: 6, include_domains: ['docs.example.org'] }] },
    expect: (outcome) => {
      noError(outcome);
      const hosts = hostsOf(outcome);
      check(hosts.length === 6 && hosts.every((h) => within(h, 'docs.example.org')), `hosts: ${hosts}`);
    },
    received: (requests) => {
      const pages = searches(requests).map((r) => Number(r.query.pageno ?? '1'));
      check(
        pages.some((p) => p >= 2),
        `pages ${pages}: a later page was asked for`,
      );
    },
  },
  {
    name: 'freshness-range-searxng-refused',
    assertion: freshness,
    description: 'A date range on SearXNG is a 400 naming freshness (SearXNG has periods only), before any call.',
    provider: 'searxng',
    request: { requests: [{ query: 'scoped x', freshness: '2025-01-01..2025-06-30' }] },
    expect: invalid(['requests[0].freshness']),
    received: noCall,
  },
];

const openaiCases: ParityCase[] = [
  {
    name: 'scope-openai-allowed-domains',
    assertion: domains,
    description:
      'include_domains reaches OpenAI as the web_search tool’s filters.allowed_domains; what it cites outside them is removed anyway.',
    provider: 'openai',
    request: {
      requests: [
        { query: 'scoped docs', include_domains: ['Docs.Example.ORG'], exclude_domains: ['a.docs.example.org'] },
      ],
    },
    expect: (outcome) => {
      noError(outcome);
      const hosts = hostsOf(outcome);
      check(hosts.length > 0 && hosts.every((h) => h === 'docs.example.org'), `hosts: ${hosts}`);
    },
    received: (requests) => {
      check(requests.length > 0, 'no call');
      for (const request of requests) {
        const tools = (request.body as { tools?: { type?: string; filters?: { allowed_domains?: unknown } }[] }).tools;
        const search = tools?.find((t) => t.type?.startsWith('web_search'));
        check(
          JSON.stringify(search?.filters?.allowed_domains) === '["docs.example.org"]',
          `tools ${JSON.stringify(tools)}`,
        );
      }
    },
  },
  {
    name: 'freshness-openai-refused',
    assertion: freshness,
    description: 'freshness on OpenAI’s hosted search (no date filter) is a 400 naming freshness, before any call.',
    provider: 'openai',
    request: { requests: [{ query: 'scoped x', freshness: 'week' }] },
    formCannotExpress: 'provider option: the GUI disables the freshness control where the provider cannot apply it.',
    expect: invalid(['requests[0].freshness']),
    received: noCall,
  },
];

const validationCases: ParityCase[] = [
  {
    name: 'scope-bad-domains',
    assertion: validated,
    description:
      'A URL instead of a host name, a port, a wildcard, an IP address and 11 entries: each a 400 naming the exact entry (or the list).',
    request: {
      requests: [
        { query: 'a', include_domains: ['https://docs.example.org'] },
        { query: 'b', include_domains: ['docs.example.org:443'] },
        { query: 'c', include_domains: ['docs.example.org', '*.example.org'] },
        { query: 'd', exclude_domains: ['127.0.0.1'] },
        { query: 'e', include_domains: Array.from({ length: 11 }, (_, i) => `d${i}.example.org`) },
      ],
    },
    expect: invalid([
      'requests[0].include_domains[0]',
      'requests[1].include_domains[0]',
      'requests[2].include_domains[1]',
      'requests[3].exclude_domains[0]',
      'requests[4].include_domains',
    ]),
    received: noCall,
  },
  {
    name: 'scope-exclude-covers-include',
    assertion: validated,
    description: 'An excluded domain that covers an included one is a 400 naming the excluded entry.',
    request: {
      requests: [
        { query: 'a', include_domains: ['docs.example.org'], exclude_domains: ['example.net', 'example.org'] },
      ],
    },
    expect: invalid(['requests[0].exclude_domains[1]']),
    received: noCall,
  },
  {
    name: 'scope-bad-freshness',
    assertion: validated,
    description:
      'A date that does not exist, an end before the start, both ends open and an unknown period: 400s naming freshness.',
    request: {
      requests: [
        { query: 'a', freshness: '2026-02-30' },
        { query: 'b', freshness: '2026-03-10..2026-03-01' },
        { query: 'c', freshness: '..' },
        { query: 'd', freshness: 'fortnight' },
      ],
    },
    expect: invalid([
      'requests[0].freshness',
      'requests[1].freshness',
      'requests[2].freshness',
      'requests[3].freshness',
    ]),
    received: noCall,
  },
];

/** Time and domain scope: native parameters, enforcement whatever the provider returned, paging, and the 400s. */
export const scopeCases: ParityCase[] = [...braveCases, ...searxngCases, ...openaiCases, ...validationCases];
