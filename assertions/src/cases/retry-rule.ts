import type { GroupErrorCode } from '@openmates/contract';
import { expectedBraveResults, expectedSearxngResults } from '@openmates/fixtures';
import type { ParityCase, ProviderRequest } from '../case.ts';
import { check } from './check.ts';

// One retry rule for every provider (ADR 0075): Brave and SearXNG, each against its own fixture,
// come to the same outcome with the same number of upstream calls on the same upstream answer. Only
// a 429 that names no wait differs, as each provider's capability table says: Brave pauses briefly
// and retries, SearXNG (whose limiter blocks for minutes) fails at once and pauses long. Every case
// runs on a server of its own (the cluster column flushes Redis), so no pause reaches the next case.

type Member = 'brave' | 'searxng';

const results = (member: Member, query: string, count: number) =>
  (member === 'brave' ? expectedBraveResults(query, count) : expectedSearxngResults(query, 1, count)).map(
    ({ url, title, description }) => ({ url, title, description }),
  );

/** How many requests the fixture received for `query`. */
const sent = (requests: readonly ProviderRequest[], query: string) =>
  requests.filter((r) => r.query.q === query).length;

/**
 * Beside each case's query, one every search sends again: a refusal that is never retried and, being
 * a failure, never cached (Brave's 400, SearXNG's redirect of an external bang), so its calls count
 * the searches a column made, the cluster column's two included.
 */
const CONTROL = { brave: 'refused control', searxng: 'bang control' } as const;

/**
 * A group that fails with `code` after exactly one call a search. A 429 pauses the provider for
 * every query and replica, so a 429 case carries no control query (the cluster column's second
 * replica would find it paused too) and shows only that the provider was asked; the call count of
 * a 429 is pinned by the provider tests.
 */
function failsOnce(member: Member, name: string, query: string, code: GroupErrorCode, description: string) {
  const limited = code === 'provider_rate_limited';
  const control = { id: 'c', query: CONTROL[member], filter_tabloids: false };
  return {
    name: `${member}-${name}`,
    assertion: 'web-search.provider-error.visible',
    description,
    provider: member,
    request: { requests: [{ id: 'r', query, filter_tabloids: false }, ...(limited ? [] : [control])] },
    env: { OPENMATES_PROVIDER_TIMEOUT_MS: '400' },
    expect: {
      code,
      groups: [
        { id: 'r', errorCode: code, results: [] },
        ...(limited ? [] : [{ id: 'c', errorCode: 'provider_error' as const, results: [] }]),
      ],
    },
    received: (requests: readonly ProviderRequest[]) => {
      if (limited) return check(sent(requests, query) >= 1, 'the query reached the provider');
      const searches = sent(requests, CONTROL[member]);
      check(searches >= 1, 'the searches reached the provider');
      check(sent(requests, query) === searches, `one call a search: ${sent(requests, query)} for ${searches}`);
    },
  } satisfies ParityCase;
}

function sameRuleCases(member: Member): ParityCase[] {
  const waited = 'ratelimit-once retried';
  return [
    {
      name: `${member}-429-retry-after-then-answers`,
      assertion: 'web-search.provider-error.visible',
      description: 'A 429 with Retry-After: 1, then a 200: waited out and retried once, and the answer is the result.',
      provider: member,
      request: { requests: [{ id: 'r', query: waited, count: 2, filter_tabloids: false }] },
      expect: { groups: [{ id: 'r', results: results(member, waited, 2) }] },
      // The fixture refuses only the first call for the query: a column that searches again gets a 200 at once.
      received: (requests) => check(sent(requests, waited) >= 2, `the 429 was retried: ${sent(requests, waited)}`),
    },
    failsOnce(
      member,
      '429-past-the-deadline',
      'ratelimit-long x',
      'provider_rate_limited',
      'A 429 asking for 60 s, longer than the call has left: no wait, no retry, a visible rate-limit error.',
    ),
    failsOnce(
      member,
      '503-with-retry-after',
      'unavailable-retry x',
      'provider_unavailable',
      'A 503 asking for 120 s: longer than worth waiting, so one call and provider_unavailable.',
    ),
    failsOnce(member, '500', 'error500 x', 'provider_error', 'A 500 is never retried: one call and provider_error.'),
    failsOnce(
      member,
      'timeout',
      'slow x',
      'provider_timeout',
      'A provider slower than the call’s timeout: one call and provider_timeout.',
    ),
  ];
}

export const retryRuleCases: ParityCase[] = [
  ...sameRuleCases('brave'),
  ...sameRuleCases('searxng'),
  {
    name: 'brave-429-naming-no-wait-retries',
    assertion: 'web-search.provider-error.visible',
    description: 'A Brave 429 naming no wait takes Brave’s default: a 1 s pause, then one retry, and the answer.',
    provider: 'brave',
    request: { requests: [{ id: 'r', query: 'ratelimit-nowait x', count: 2, filter_tabloids: false }] },
    expect: { groups: [{ id: 'r', results: results('brave', 'ratelimit-nowait x', 2) }] },
    received: (requests) => check(sent(requests, 'ratelimit-nowait x') >= 2, 'the 429 was retried'),
  },
  failsOnce(
    'searxng',
    '429-naming-no-wait-fails',
    'limited x',
    'provider_rate_limited',
    'A SearXNG 429 naming no wait (its limiter) takes SearXNG’s default: no retry, and a visible rate-limit error.',
  ),
];
