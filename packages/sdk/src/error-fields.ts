// What the generated error classes (src/generated/errors.ts) read from an answer or a failure: the
// contract's fields of a non-2xx body, the one-line messages, and which class a status raises.
import type { ErrorCode, ErrorResponse, Issue, WebSearchResponse } from './generated/openapi.ts';
import { ERROR_CLASS_FALLBACK, ERROR_CLASSES } from './generated/policy.ts';
import { parseRateLimit, type RateLimit } from './rate-limit.ts';

/** A non-2xx answer, as an APIError is built from it. */
export interface APIErrorInit {
  status: number;
  headers: Headers;
  body: unknown;
}

/** What an APIError carries of its answer, and its message. */
export interface AnswerFields {
  message: string;
  code: ErrorCode | undefined;
  issues: Issue[];
  requestId: string | undefined;
  rateLimit: RateLimit | undefined;
}

type StatusRow = Extract<(typeof ERROR_CLASSES)[number], { status: number }>;
/** The name of every class an answer can raise. */
export type APIErrorClassName = StatusRow['name'] | typeof ERROR_CLASS_FALLBACK.other;

/** The `{ error, code, issues, request_id }` fields an ErrorResponse or a 502 WebSearchResponse carries, and the message. */
export function answerFields({ status, headers, body }: APIErrorInit): AnswerFields {
  const record = isRecord(body) ? (body as Partial<ErrorResponse>) : {};
  const error = typeof record.error === 'string' ? record.error : undefined;
  const code = typeof record.code === 'string' ? record.code : undefined;
  const issues = Array.isArray(record.issues) ? record.issues.filter(isIssue) : [];
  const requestId = typeof record.request_id === 'string' ? record.request_id : undefined;
  return {
    message: errorMessage(status, error, code, issues),
    code,
    issues,
    requestId: requestId ?? headers.get('x-request-id') ?? undefined,
    rateLimit: parseRateLimit(headers),
  };
}

/**
 * The class a non-2xx answer raises: the one the contract's table names for its status (a 502's
 * only when its body is a WebSearchResponse), else the server-error fallback for a 5xx, else APIError.
 */
export function errorClassName(status: number, body: unknown): APIErrorClassName {
  const code = isRecord(body) ? body.code : undefined;
  // A row naming a code is raised for that code alone (`quota_exceeded` apart from `rate_limited`).
  const row = ERROR_CLASSES.find(
    (c): c is StatusRow => 'status' in c && c.status === status && (!('code' in c) || c.code === code),
  );
  const named = row && (!('body' in row) || isWebSearchResponse(body)) ? row.name : undefined;
  return named ?? (status >= 500 ? ERROR_CLASS_FALLBACK.serverError : ERROR_CLASS_FALLBACK.other);
}

/** An APIConnectionError's message: the URL that could not be reached, and why when the cause says. */
export function connectionMessage(cause: unknown, url?: string): string {
  return `Could not reach the OpenMates server${url ? ` at ${url}` : ''}${causeDetail(cause)}.`;
}

/** An APITimeoutError's message: the URL that did not answer in time. */
export function timeoutMessage(timeout: number, url?: string): string {
  return `The OpenMates server${url ? ` at ${url}` : ''} did not answer within ${timeout} ms.`;
}

const MAX_ISSUES_IN_MESSAGE = 3;

/** One line: the status, the code, the server's message and the first few issues. */
function errorMessage(status: number, error: string | undefined, code: string | undefined, issues: Issue[]): string {
  let message = `${status}${code ? ` ${code}` : ''}: ${error ?? 'the server answered without an error message'}`;
  // An issue the server's message already says (its summary names the first) is said once.
  const unsaid = issues.filter((i) => !message.includes(i.path ? `${i.path}: ${i.message}` : i.message));
  if (unsaid.length > 0) {
    const shown = unsaid.slice(0, MAX_ISSUES_IN_MESSAGE).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
    const more = unsaid.length - shown.length;
    message += ` (${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''})`;
  }
  return message.replace(/\s+/g, ' ');
}

function causeDetail(cause: unknown): string {
  if (!(cause instanceof Error)) return '';
  // undici reports the useful part (ECONNREFUSED, ...) on the cause of its "fetch failed" TypeError.
  const inner = cause.cause instanceof Error ? cause.cause : undefined;
  const code = inner && 'code' in inner && typeof inner.code === 'string' ? inner.code : undefined;
  return `: ${code ?? inner?.message ?? cause.message}`.replace(/\s+/g, ' ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIssue(value: unknown): value is Issue {
  return isRecord(value) && typeof value.path === 'string' && typeof value.message === 'string';
}

/** A 502 from an OpenMates server carries the whole search response. */
function isWebSearchResponse(body: unknown): body is WebSearchResponse {
  return isRecord(body) && Array.isArray(body.results) && typeof body.provider === 'string';
}
