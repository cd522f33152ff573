import { ERROR_TABLE, type Issue, type WebSearchResponse } from '@openmates/contract';

/** What a search came to, as the page renders it (from the server's `load` or from the event stream). */
export type Outcome =
  /** The API answered with groups (some or all may have failed: a 502 carries the same shape). */
  | { kind: 'results'; response: WebSearchResponse }
  /** The API refused the request (400 with issues, 429, 503, 500) or could not be reached. */
  | { kind: 'error'; status: number; code: string; message: string; issues: Issue[]; requestId?: string };

/** An outcome the API refused, or that never reached it. */
export type ErrorOutcome = Extract<Outcome, { kind: 'error' }>;

/** The outcome when the API could not be reached from this page's server. */
export const UNREACHABLE: ErrorOutcome = {
  kind: 'error',
  status: 0,
  code: 'connection_error',
  message: 'The search API could not be reached from this page’s server.',
  issues: [],
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isIssue = (value: unknown): value is Issue =>
  isRecord(value) && typeof value.path === 'string' && typeof value.message === 'string';

/** True for a body shaped like a WebSearchResponse (a 502 carries one). */
export function isSearchResponse(body: unknown): body is WebSearchResponse {
  return isRecord(body) && Array.isArray(body.results) && typeof body.provider === 'string';
}

/**
 * What the page shows for a non-2xx answer of the API: the same for the server's `load` (an SDK
 * error's status and body) and the event stream's refusals (the relayed JSON), so a refused
 * search looks the same with and without JavaScript. The message is the API's own safe message
 * from a contract body; for any other body (a proxy's error page), the contract's message for the
 * code, never that body's text.
 */
export function refusalOutcome(status: number, body: unknown, headerRequestId?: string | null): Outcome {
  if (status === 502 && isSearchResponse(body)) return { kind: 'results', response: body };
  const record = isRecord(body) ? body : {};
  const code = typeof record.code === 'string' ? record.code : status === 400 ? 'invalid_request' : 'internal_error';
  const message =
    typeof record.error === 'string' && typeof record.code === 'string'
      ? record.error
      : code in ERROR_TABLE
        ? ERROR_TABLE[code as keyof typeof ERROR_TABLE].message
        : `The API answered HTTP ${status}.`;
  const requestId = typeof record.request_id === 'string' ? record.request_id : (headerRequestId ?? undefined);
  return {
    kind: 'error',
    status,
    code,
    message,
    issues: Array.isArray(record.issues) ? record.issues.filter(isIssue) : [],
    ...(requestId ? { requestId } : {}),
  };
}
