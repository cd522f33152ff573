/**
 * What both SDKs (npm and pip) do with an answer that is not a success: the error class each status
 * raises, and which failures they retry and how long they wait first. The SDKs' generators copy
 * these tables into each SDK (packages/sdk/src/generated/policy.ts,
 * packages/sdk-python/src/openmates/_generated_policy.py); the SDKs' code only runs the loop.
 */
import { ERROR_TABLE, type ErrorCode } from './errors.ts';

/** One error class of the SDKs, in the shape openai-node gives its errors. */
export interface SdkErrorClass {
  /** The class name, the same in both SDKs. */
  name: string;
  /** The class it extends. `APIError` carries `status`, `code` and the request id. */
  parent: 'OpenMatesError' | 'APIError' | 'APIConnectionError';
  /** The HTTP status that raises it (APIError subclasses only). */
  status?: number;
  /**
   * Raised for its status only when the body is a WebSearchResponse (a 502 from an OpenMates
   * server); any other body of that status falls back to `SDK_ERROR_FALLBACK.serverError`.
   */
  body?: 'WebSearchResponse';
  /** One line for the class's documentation. */
  doc: string;
}

/**
 * Every error class of the SDKs. A caller's abort is not among them: it rejects with the platform's
 * own error (the signal's reason in JavaScript, `CancelledError` in asyncio).
 */
export const SDK_ERROR_CLASSES = [
  {
    name: 'OpenMatesError',
    parent: 'OpenMatesError',
    doc: 'The base class of every error the SDK raises.',
  },
  {
    name: 'APIError',
    parent: 'OpenMatesError',
    doc: 'The server answered with a non-2xx status: `status`, the contract `code` and the request id.',
  },
  {
    name: 'BadRequestError',
    parent: 'APIError',
    status: 400,
    doc: '`invalid_request`: `issues` names each broken rule by path. Never retried.',
  },
  {
    name: 'AuthenticationError',
    parent: 'APIError',
    status: 401,
    doc: '`unauthorized`: the server wants an API key and none or a wrong one came. Never retried.',
  },
  {
    name: 'PermissionDeniedError',
    parent: 'APIError',
    status: 403,
    doc: '`forbidden`: the request’s `Origin` or `Host` is not one the server allows. Never retried.',
  },
  {
    name: 'NotFoundError',
    parent: 'APIError',
    status: 404,
    doc: '`not_found`: no such route (is the base URL the server’s origin?).',
  },
  { name: 'MethodNotAllowedError', parent: 'APIError', status: 405, doc: '`method_not_allowed`.' },
  {
    name: 'PayloadTooLargeError',
    parent: 'APIError',
    status: 413,
    doc: '`payload_too_large`: the body is over 64 KiB.',
  },
  { name: 'UnsupportedMediaTypeError', parent: 'APIError', status: 415, doc: '`unsupported_media_type`.' },
  {
    name: 'RateLimitError',
    parent: 'APIError',
    status: 429,
    doc: '`rate_limited`: this key’s rate limit; retried, honouring `Retry-After`, before it is raised.',
  },
  {
    name: 'InternalServerError',
    parent: 'APIError',
    status: 500,
    doc: '`internal_error`, or any other 5xx not from an OpenMates server (such as a proxy’s). Never retried.',
  },
  {
    name: 'ProviderError',
    parent: 'APIError',
    status: 502,
    body: 'WebSearchResponse',
    doc: 'Every result group failed at the provider; `response` is the whole WebSearchResponse. Retried only with `Retry-After`.',
  },
  {
    name: 'ServiceUnavailableError',
    parent: 'APIError',
    status: 503,
    doc: '`not_configured`: the server’s provider cannot serve; retried before it is raised.',
  },
  {
    name: 'APIConnectionError',
    parent: 'OpenMatesError',
    doc: 'No answer came: the connection failed or dropped. Retried before it is raised.',
  },
  {
    name: 'APITimeoutError',
    parent: 'APIConnectionError',
    doc: 'No answer came within the timeout. Not retried: the server may already have searched.',
  },
] as const satisfies readonly SdkErrorClass[];

export type SdkErrorClassName = (typeof SDK_ERROR_CLASSES)[number]['name'];

/** The class of a non-2xx status no row names: a 5xx is a server error, anything else the base. */
export const SDK_ERROR_FALLBACK = { serverError: 'InternalServerError', other: 'APIError' } as const satisfies Record<
  string,
  SdkErrorClassName
>;

/** The contract's error codes each status-class is raised for, from the error table. */
export function sdkErrorCodes(status: number): ErrorCode[] {
  return (Object.keys(ERROR_TABLE) as ErrorCode[]).filter((code) => ERROR_TABLE[code].status === status);
}

/**
 * When the SDKs try again and how long they wait. A 400-class answer will not change on its own;
 * a 500 or an ordinary 502 may already have cost provider calls, so neither is retried. The server
 * sets `Retry-After` on a 502 only when every query was refused by the provider's rate limit,
 * which costs nothing to try again. A timeout is not retried: the server may already have searched.
 */
export const RETRY_POLICY = {
  /** Further attempts when the caller sets none. */
  defaultMaxRetries: 2,
  /** Statuses always retried. */
  statuses: [429, 503],
  /** Statuses retried only when the answer carries `retryAfterHeader`. */
  statusesWithRetryAfter: [502],
  /** A connection that failed or dropped before any answer is retried; a timeout is not. */
  connectionFailures: true,
  timeouts: false,
  /** The header that makes a `statusesWithRetryAfter` answer retryable. */
  retryAfterHeader: 'retry-after',
  /**
   * The server's wait, first header that parses wins: `retry-after-ms` (milliseconds), then
   * `Retry-After` (seconds, or an HTTP date). A number is `numberPattern` once trimmed.
   */
  waitHeaders: [
    { name: 'retry-after-ms', unit: 'ms', httpDate: false },
    { name: 'retry-after', unit: 's', httpDate: true },
  ],
  numberPattern: '^[0-9]+(\\.[0-9]+)?$',
  /** An HTTP date as servers must send it (IMF-fixdate), such as `Wed, 01 Jan 2025 00:00:07 GMT`. */
  httpDatePattern:
    '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$',
  /** A server's wait longer than this, or negative, is ignored in favour of the backoff. Waits are whole ms, rounded up. */
  maxRetryAfterMs: 60_000,
  /** Otherwise: initialMs × factor^retry (retry counted from 0), at most maxMs, times 1 ± jitter, rounded to whole ms. */
  backoff: { initialMs: 500, factor: 2, maxMs: 8_000, jitter: 0.25 },
} as const;
