import { expectedBraveResults, expectedSearxngResults } from '@openmates/fixtures';
import type { ParityCase, ProviderRequest } from '../case.ts';
import { check } from './check.ts';

// Chain cases: OPENMATES_PROVIDER=brave,searxng, each provider against its own fixture. A group
// goes to SearXNG only when Brave fails it as the provider's fault, and every group says who answered.

const provider = ['brave', 'searxng'] as const;

const brave = (query: string, count: number) =>
  expectedBraveResults(query, count).map(({ url, title, description }) => ({ url, title, description }));
const searxng = (query: string, count: number) =>
  expectedSearxngResults(query, 1, count).map(({ url, title, description }) => ({ url, title, description }));

/** How many requests `member`'s fixture received whose `q` is `query`. */
const sent = (requests: readonly ProviderRequest[], member: 'brave' | 'searxng', query: string) =>
  requests.filter((r) => r.provider === member && r.query.q === query).length;

export const failoverCases: ParityCase[] = [
  {
    name: 'chain-brave-fails-searxng-answers',
    assertion: 'web-search.provider-error.visible',
    description:
      'Brave answers one group, fails another with provider_error and a third with a 429; SearXNG answers those two at once (Brave’s 429 is not waited out), each group says who answered, and provider names both.',
    provider,
    request: {
      requests: [
        { id: 'brave', query: 'rust vec', count: 3, filter_tabloids: false },
        { id: 'error', query: 'refused rust', count: 3, filter_tabloids: false },
        // Retry-After 3: short enough that a lone Brave would wait it out and retry.
        { id: 'limited', query: 'ratelimit-3s rust', count: 3, filter_tabloids: false },
      ],
    },
    expect: {
      provider: 'Brave Search, SearXNG',
      groups: [
        { id: 'brave', provider: 'Brave Search', results: brave('rust vec', 3) },
        { id: 'error', provider: 'SearXNG', results: searxng('refused rust', 3) },
        { id: 'limited', provider: 'SearXNG', results: searxng('ratelimit-3s rust', 3) },
      ],
    },
    // A column may search more than once (the CLI's JSON, human and flag runs): Brave gets each failing
    // query as often as the one it answers, never the three calls a waited-out 429 would cost.
    received: (requests) => {
      const searches = sent(requests, 'brave', 'rust vec');
      const limited = sent(requests, 'brave', 'ratelimit-3s rust');
      check(searches >= 1, 'Brave got the query it answers');
      check(
        limited === searches,
        `Brave once per search for the 429 query (no wait, no retry): ${limited} for ${searches}`,
      );
      check(sent(requests, 'brave', 'refused rust') === searches, 'Brave once per search for the refused query');
      check(sent(requests, 'searxng', 'rust vec') === 0, 'nothing to SearXNG for the group Brave answered');
    },
  },
  {
    name: 'chain-every-provider-fails',
    assertion: 'web-search.provider-error.visible',
    description:
      'When Brave and then SearXNG fail a group, its error is the last provider’s, it names SearXNG as the last one tried, and provider is the first provider’s name (none answered).',
    provider,
    request: { requests: [{ id: 'x', query: 'error500 chain' }] },
    expect: {
      code: 'provider_error',
      provider: 'Brave Search',
      groups: [{ id: 'x', errorCode: 'provider_error', provider: 'SearXNG', results: [] }],
    },
    received: (requests) => {
      check(sent(requests, 'brave', 'error500 chain') >= 1, 'the query went to Brave');
      check(sent(requests, 'searxng', 'error500 chain') >= 1, 'then to SearXNG');
    },
  },
  {
    name: 'chain-invalid-request-reaches-no-provider',
    assertion: 'web-search.request.validated',
    description:
      'A request the first provider refuses (over Brave’s 50-word limit) is a 400 before any call: it never reaches SearXNG, which would have taken it.',
    provider,
    request: { requests: [{ query: Array.from({ length: 51 }, (_, i) => `w${i}`).join(' ') }] },
    expect: { code: 'invalid_request', issuePaths: ['requests[0].query'], groups: [] },
    received: (requests) => check(requests.length === 0, `no provider call, got ${requests.length}`),
  },
  {
    name: 'chain-skips-provider-that-cannot-apply-option',
    assertion: 'web-search.provider-error.visible',
    description:
      'SearXNG cannot apply a freshness date range: a group that asks for one and that Brave fails keeps Brave’s error, while a group without it goes on to SearXNG.',
    provider,
    request: {
      requests: [
        { id: 'dated', query: 'refused dated', freshness: '2025-01-01..2025-06-30', filter_tabloids: false },
        { id: 'plain', query: 'refused plain', count: 3, filter_tabloids: false },
      ],
    },
    expect: {
      code: 'provider_error',
      provider: 'SearXNG',
      groups: [
        { id: 'dated', errorCode: 'provider_error', provider: 'Brave Search', results: [] },
        { id: 'plain', provider: 'SearXNG', results: searxng('refused plain', 3) },
      ],
    },
    received: (requests) => {
      check(sent(requests, 'searxng', 'refused dated') === 0, 'SearXNG never got the dated query');
      check(sent(requests, 'brave', 'refused dated') >= 1, 'Brave got the dated query');
    },
  },
];
