/**
 * The closed vocabulary of error codes: one table from code to HTTP status and CLI exit code.
 */

export const ERROR_TABLE = {
  invalid_request: { status: 400, exitCode: 2, message: 'The request is invalid.' },
  unauthorized: { status: 401, exitCode: 4, message: 'A valid API key is required.' },
  forbidden: { status: 403, exitCode: 4, message: 'Requests from this origin or host name are not allowed.' },
  not_found: { status: 404, exitCode: 2, message: 'No such route.' },
  method_not_allowed: { status: 405, exitCode: 2, message: 'This method is not allowed on this route.' },
  payload_too_large: { status: 413, exitCode: 2, message: 'The request body is larger than 64 KiB.' },
  unsupported_media_type: {
    status: 415,
    exitCode: 2,
    message: 'The request body must be application/json.',
  },
  rate_limited: { status: 429, exitCode: 5, message: 'Too many requests for this API key; retry later.' },
  quota_exceeded: {
    status: 429,
    exitCode: 6,
    message: "This API key's quota is spent until its window ends (the UTC day or month).",
  },
  provider_error: { status: 502, exitCode: 3, message: 'The search provider returned an unusable answer.' },
  provider_timeout: { status: 502, exitCode: 3, message: 'The search provider did not answer in time.' },
  provider_rate_limited: { status: 502, exitCode: 3, message: 'The search provider is rate limiting this server.' },
  provider_auth: { status: 502, exitCode: 3, message: "The search provider rejected this server's credentials." },
  provider_unavailable: { status: 502, exitCode: 3, message: 'The search provider could not be reached.' },
  not_configured: { status: 503, exitCode: 4, message: 'The selected search provider is not configured.' },
  internal_error: { status: 500, exitCode: 1, message: 'An internal error occurred.' },
} as const satisfies Record<string, { status: number; exitCode: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_TABLE;
export const ERROR_CODES = Object.keys(ERROR_TABLE) as [ErrorCode, ...ErrorCode[]];

/**
 * Codes a single result group can fail with: the provider failed for that query, or the key's quota
 * was spent when the group's call was to be sent (ADR 0136).
 */
export const GROUP_ERROR_CODES = [
  'provider_error',
  'provider_timeout',
  'provider_rate_limited',
  'provider_auth',
  'provider_unavailable',
  'quota_exceeded',
] as const satisfies readonly ErrorCode[];
export type GroupErrorCode = (typeof GROUP_ERROR_CODES)[number];

/** Exit code when every group succeeded (zero hits included). */
export const EXIT_OK = 0;

/** HTTP status for a code. Group codes answer 200 when another group succeeded; see `searchStatus`. */
export function httpStatus(code: ErrorCode): number {
  return ERROR_TABLE[code].status;
}

/** CLI exit code for a code. */
export function exitCode(code: ErrorCode): number {
  return ERROR_TABLE[code].exitCode;
}

/** True for the codes a result group may carry. */
export function isGroupErrorCode(code: string): code is GroupErrorCode {
  return (GROUP_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * HTTP status of a search outcome: 200 when at least one group succeeded (or there was nothing to
 * fail), 502 when every group failed at the provider.
 */
export function searchStatus(groups: readonly { error?: unknown }[]): 200 | 502 {
  return groups.length > 0 && groups.every((g) => g.error !== undefined) ? 502 : 200;
}

/** CLI exit code of a search outcome: 0 when every group succeeded, else the group-failure code. */
export function searchExitCode(groups: readonly { error?: unknown }[]): number {
  return groups.some((g) => g.error !== undefined) ? exitCode('provider_error') : EXIT_OK;
}
