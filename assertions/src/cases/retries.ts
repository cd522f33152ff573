import { ERROR_TABLE, type ErrorCode, type GroupErrorCode, RETRY_POLICY } from '@openmates/contract';
import { expectedBraveResults } from '@openmates/fixtures';
import type { ParityCase, ScriptedAnswer } from '../case.ts';

// Retry cases: the SDK columns (npm and pip, plain and stream) behind a scripted upstream on
// loopback, retries on, each reporting the retries it made. The waits are the server's
// `retry-after-ms` or `Retry-After: 0` so the suite stays quick; one case takes the backoff once.

const ordinary = (query: string, count: number) =>
  expectedBraveResults(query, count).map(({ url, title, description }) => ({ url, title, description }));

/** The SDK columns: the SDK's cases, without MCP (no retries of its own) and REST's raw event stream. */
const SDK_COLUMNS = {
  surfaces: ['sdk'],
  except: ['mcp', 'mcp-http', 'mcp-2026', 'mcp-http-2026', 'stream'],
} as const;

/** An ErrorResponse as the server answers `code`. */
function refusal(code: ErrorCode, headers: Record<string, string> = {}): ScriptedAnswer {
  const { status, message } = ERROR_TABLE[code];
  return { status, headers, body: { error: message, code, request_id: `req_scripted_${code}` } };
}

/** A 502: every query failed at the provider with `code`. */
const everyQueryFailed = (id: string, code: GroupErrorCode, headers: Record<string, string> = {}): ScriptedAnswer => ({
  status: 502,
  headers,
  body: {
    provider: 'Brave Search',
    results: [{ id, results: [], error: { code, message: ERROR_TABLE[code].message } }],
    error: `Every search failed at the provider (${id}).`,
    code,
    request_id: 'req_scripted_502',
  },
});

const { initialMs, jitter } = RETRY_POLICY.backoff;

export const retryCases: ParityCase[] = [
  {
    name: 'sdk-retries-429-502-503-then-answers',
    assertion: 'web-search.provider-error.visible',
    description:
      'A 429 with Retry-After, a 502 whose every group was rate limited (with Retry-After), then a 503 are retried with the waits the headers name (retry-after-ms first); the 200 after them is the answer.',
    ...SDK_COLUMNS,
    request: { requests: [{ id: 'r', query: 'rust vec', count: 2 }] },
    upstream: [
      refusal('rate_limited', { 'retry-after': '0' }),
      // The one 502 the server sends Retry-After with: the provider's rate limit refused every query.
      everyQueryFailed('r', 'provider_rate_limited', { 'retry-after': '1', 'retry-after-ms': '15' }),
      refusal('not_configured', { 'retry-after-ms': '10' }),
    ],
    retries: [
      { status: 429, delayMs: 0 },
      { status: 502, delayMs: 15 },
      { status: 503, delayMs: 10 },
    ],
    expect: { groups: [{ id: 'r', results: ordinary('rust vec', 2) }] },
  },
  {
    name: 'sdk-backs-off-without-retry-after',
    assertion: 'web-search.provider-error.visible',
    description: 'A 503 naming no wait is retried after the first backoff step: 0.5 s, jittered by at most 25 %.',
    ...SDK_COLUMNS,
    request: { requests: [{ id: 'b', query: 'css grid', count: 1 }] },
    upstream: [refusal('not_configured')],
    retries: [{ status: 503, delayMs: { min: initialMs * (1 - jitter), max: initialMs * (1 + jitter) } }],
    expect: { groups: [{ id: 'b', results: ordinary('css grid', 1) }] },
  },
  {
    name: 'sdk-never-retries-500',
    assertion: 'web-search.provider-error.visible',
    description: 'A 500 is never retried, whatever the retry budget: the first refusal is the answer.',
    ...SDK_COLUMNS,
    request: { requests: [{ id: 'e', query: 'rust vec', count: 1 }] },
    upstream: [refusal('internal_error', { 'retry-after': '0' })],
    retries: [],
    expect: { code: 'internal_error', groups: [] },
  },
  {
    name: 'sdk-never-retries-ordinary-502',
    assertion: 'web-search.provider-error.visible',
    description: 'A 502 without Retry-After (the provider failed; a retry would search again) is never retried.',
    ...SDK_COLUMNS,
    request: { requests: [{ id: 'r', query: 'rust vec', count: 1 }] },
    upstream: [everyQueryFailed('r', 'provider_unavailable')],
    retries: [],
    expect: { code: 'provider_unavailable', groups: [{ id: 'r', errorCode: 'provider_unavailable', results: [] }] },
  },
];
