/**
 * What both SDKs (npm and pip) do with an answer that is not a success: the error class each status
 * raises, and which failures they retry and how long they wait first. The SDKs' generators copy
 * these tables into each SDK (packages/sdk/src/generated/policy.ts,
 * packages/sdk-python/src/openmates/_generated_policy.py); the SDKs' code only runs the loop.
 */
import { ERROR_TABLE, type ErrorCode } from './errors.ts';
import { MAX_BODY_BYTES } from './limits.ts';

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
  /**
   * Raised for its status only when the body's `code` is this one (checked before the status's
   * other row): two codes of one status that a caller handles apart (`quota_exceeded`'s 429 is never
   * retried, `rate_limited`'s is).
   */
  code?: ErrorCode;
  /** Raised when no answer came: the connection failed or dropped, or the timeout passed first. */
  failure?: 'connection' | 'timeout';
  /**
   * What it means, in one sentence. Neither the status, nor its codes, nor whether it is retried:
   * `sdkErrorDoc` adds those from the error table and `RETRY_POLICY`, so the two cannot disagree.
   */
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
    doc: 'The server answered with a non-2xx status: `status`, the contract `code` and the request id; each subclass names one status.',
  },
  {
    name: 'BadRequestError',
    parent: 'APIError',
    status: 400,
    doc: '`issues` names each broken rule by path.',
  },
  {
    name: 'AuthenticationError',
    parent: 'APIError',
    status: 401,
    doc: 'The server wants an API key and none or a wrong one came.',
  },
  {
    name: 'PermissionDeniedError',
    parent: 'APIError',
    status: 403,
    doc: 'The request’s `Origin` or `Host` is not one the server allows.',
  },
  {
    name: 'NotFoundError',
    parent: 'APIError',
    status: 404,
    doc: 'No such route (is the base URL the server’s origin?).',
  },
  { name: 'MethodNotAllowedError', parent: 'APIError', status: 405, doc: 'The route does not take this method.' },
  {
    name: 'PayloadTooLargeError',
    parent: 'APIError',
    status: 413,
    doc: `The body is over ${MAX_BODY_BYTES / 1024} KiB.`,
  },
  {
    name: 'UnsupportedMediaTypeError',
    parent: 'APIError',
    status: 415,
    doc: 'The body is not `application/json`.',
  },
  {
    name: 'QuotaExceededError',
    parent: 'APIError',
    status: 429,
    code: 'quota_exceeded',
    doc: 'This key’s quota (calls a UTC day, dollars a UTC month) is spent; `resetAt` is when its window ends.',
  },
  {
    name: 'RateLimitError',
    parent: 'APIError',
    status: 429,
    doc: 'This key’s rate limit.',
  },
  {
    name: 'InternalServerError',
    parent: 'APIError',
    status: 500,
    doc: 'The server failed; also raised for any other 5xx not from an OpenMates server (such as a proxy’s).',
  },
  {
    name: 'ProviderError',
    parent: 'APIError',
    status: 502,
    body: 'WebSearchResponse',
    doc: 'Every result group failed at the provider; `response` is the whole WebSearchResponse, each group’s `error` set.',
  },
  {
    name: 'ServiceUnavailableError',
    parent: 'APIError',
    status: 503,
    doc: 'The server’s provider cannot serve.',
  },
  {
    name: 'APIConnectionError',
    parent: 'OpenMatesError',
    failure: 'connection',
    doc: 'No answer came: the connection failed or dropped.',
  },
  {
    name: 'APITimeoutError',
    parent: 'APIConnectionError',
    failure: 'timeout',
    doc: 'No answer came within the timeout; the server may already have searched.',
  },
] as const satisfies readonly SdkErrorClass[];

export type SdkErrorClassName = (typeof SDK_ERROR_CLASSES)[number]['name'];

/** The class of a non-2xx status no row names: a 5xx is a server error, anything else the base. */
export const SDK_ERROR_FALLBACK = { serverError: 'InternalServerError', other: 'APIError' } as const satisfies Record<
  string,
  SdkErrorClassName
>;

/**
 * What a class declares beyond its parent, the same in both SDKs, for their generators to write:
 * `root` nothing (it extends the language's own error); `answer` the fields of a non-2xx answer (the
 * class every status class extends); `response` the whole search response its body is; `connection`
 * and `timeout` the constructor of a failure with no answer; `status` nothing.
 */
export type SdkErrorKind = 'root' | 'answer' | 'response' | 'quota' | 'connection' | 'timeout' | 'status';

export function sdkErrorKind(row: SdkErrorClass): SdkErrorKind {
  if (row.name === row.parent) return 'root';
  if (SDK_ERROR_CLASSES.some((other: SdkErrorClass) => other.status !== undefined && other.parent === row.name))
    return 'answer';
  if (row.body === 'WebSearchResponse') return 'response';
  if (row.code === 'quota_exceeded') return 'quota';
  return row.failure ?? 'status';
}

/** The contract's error codes each status-class is raised for, from the error table. */
export function sdkErrorCodes(status: number): ErrorCode[] {
  return (Object.keys(ERROR_TABLE) as ErrorCode[]).filter((code) => ERROR_TABLE[code].status === status);
}

/** The codes one class is raised for: its own code, or its status's codes no other class claims. */
export function sdkRowCodes(row: SdkErrorClass): ErrorCode[] {
  if (row.status === undefined) return [];
  if (row.code !== undefined) return [row.code];
  const claimed = new Set((SDK_ERROR_CLASSES as readonly SdkErrorClass[]).flatMap((r) => (r.code ? [r.code] : [])));
  return sdkErrorCodes(row.status).filter((code) => !claimed.has(code));
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
  /** Codes never retried whatever their status: a quota's window may last a month. */
  neverRetriedCodes: ['quota_exceeded'],
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

/**
 * A class's whole documentation, the same in both SDKs: its status and codes from the error table,
 * its meaning from `SDK_ERROR_CLASSES`, and whether it is retried from `RETRY_POLICY`.
 */
export function sdkErrorDoc(row: SdkErrorClass): string {
  const retry = sdkRetrySentence(row);
  const head =
    row.status === undefined
      ? row.doc
      : `${row.status} ${orList(sdkRowCodes(row).map((code) => `\`${code}\``))}: ${lowerFirst(row.doc)}`;
  return retry ? `${head} ${retry}` : head;
}

/** Whether the SDKs retry a class before raising it, in one sentence read off `RETRY_POLICY`. */
export function sdkRetrySentence(row: SdkErrorClass): string | undefined {
  if (row.failure === 'connection') return RETRY_POLICY.connectionFailures ? RETRIED : NEVER;
  if (row.failure === 'timeout') return RETRY_POLICY.timeouts ? RETRIED : NEVER;
  if (row.code !== undefined && (RETRY_POLICY.neverRetriedCodes as readonly string[]).includes(row.code)) return NEVER;
  const reach = statusesRaising(row);
  if (reach === undefined) return undefined;
  const always = reach.filter((status) => (RETRY_POLICY.statuses as readonly number[]).includes(status));
  const withHeader = reach.filter((status) =>
    (RETRY_POLICY.statusesWithRetryAfter as readonly number[]).includes(status),
  );
  if (always.length === 0 && withHeader.length === 0)
    return row.status === undefined ? 'Raised itself for a status no subclass names, which is never retried.' : NEVER;
  const header = `\`${headerCase(RETRY_POLICY.retryAfterHeader)}\``;
  if (reach.length === 1 && always.length === 1)
    return `${RETRIED.slice(0, -1)}, after the wait ${header} names, if any.`;
  if (reach.length === 1) return `${RETRIED.slice(0, -1)} when the answer carries ${header}; raised at once otherwise.`;
  const cases = [...always.map((s) => `a ${s}`), ...withHeader.map((s) => `a ${s} that carries ${header}`)];
  return `${RETRIED.slice(0, -1)} only for ${orList(cases)}; raised at once otherwise.`;
}

const RETRIED = 'Retried before it is raised.';
const NEVER = 'Never retried.';

/**
 * The statuses a class is raised for, as far as retrying can tell them apart: its own, and for a
 * fallback class the retried statuses that reach it (one no row names, or a row's status whose body
 * is not the row's). Undefined for a class no status raises.
 */
function statusesRaising(row: SdkErrorClass): number[] | undefined {
  const retried: readonly number[] = [...RETRY_POLICY.statuses, ...RETRY_POLICY.statusesWithRetryAfter];
  const rows: readonly SdkErrorClass[] = SDK_ERROR_CLASSES;
  const fallsBack = (status: number) => {
    const named = rows.find((r) => r.status === status);
    return named === undefined || named.body !== undefined;
  };
  const own = row.status === undefined ? [] : [row.status];
  if (row.name === SDK_ERROR_FALLBACK.serverError)
    return [...own, ...retried.filter((s) => s >= 500 && s !== row.status && fallsBack(s))];
  if (row.name === SDK_ERROR_FALLBACK.other) return retried.filter((s) => s < 500 && fallsBack(s));
  return row.status === undefined ? undefined : own;
}

function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** `retry-after` as people write it: `Retry-After`. */
function headerCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}
