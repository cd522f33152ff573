import type { ErrorCode, ErrorResponse, Issue, WebSearchResponse } from './generated/openapi.ts';
import { ERROR_CLASS_FALLBACK, ERROR_CLASSES, type ErrorClassName } from './generated/policy.ts';
import { parseRateLimit, type RateLimit } from './rate-limit.ts';

/** The base class of every error this SDK throws (a caller's abort excepted: that is the platform's AbortError). */
export class OpenMatesError extends Error {
  override name = 'OpenMatesError';
}

interface APIErrorInit {
  status: number;
  headers: Headers;
  body: unknown;
}

/** The server answered with a non-2xx status. Subclasses name the status; `APIError.generate` picks one. */
export class APIError extends OpenMatesError {
  override name = 'APIError';
  /** The HTTP status. */
  readonly status: number;
  /** The contract's error code, when the body carries one. */
  readonly code: ErrorCode | undefined;
  /** What was wrong with the request, one entry per problem (400 only; empty otherwise). */
  readonly issues: readonly Issue[];
  /** The server's request id (body `request_id` or the `x-request-id` header), for support. */
  readonly requestId: string | undefined;
  /** The response headers. */
  readonly headers: Headers;
  /** The parsed JSON body, or its text when it was not JSON, or undefined when empty. */
  readonly body: unknown;
  /** The caller's rate-limit state after this answer (on a 429: `remaining` 0); undefined when the call was not counted. */
  readonly rateLimit: RateLimit | undefined;

  constructor({ status, headers, body }: APIErrorInit) {
    const fields = contractFields(body);
    super(errorMessage(status, fields));
    this.status = status;
    this.code = fields.code;
    this.issues = fields.issues;
    this.requestId = fields.requestId ?? headers.get('x-request-id') ?? undefined;
    this.headers = headers;
    this.body = body;
    this.rateLimit = parseRateLimit(headers);
  }

  /**
   * The error for a non-2xx answer: the class the contract's table names for its status (a 502's
   * only when its body is a WebSearchResponse), else InternalServerError for a 5xx, else APIError.
   */
  static generate(status: number, body: unknown, headers: Headers): APIError {
    const init = { status, headers, body };
    const row = ERROR_CLASSES.find((c): c is StatusRow => 'status' in c && c.status === status);
    const named = row && (!('body' in row) || isWebSearchResponse(body)) ? row.name : undefined;
    const name = named ?? (status >= 500 ? ERROR_CLASS_FALLBACK.serverError : ERROR_CLASS_FALLBACK.other);
    return new API_ERROR_CLASSES[name](init);
  }
}

/** 400 `invalid_request`: `issues` names each broken rule by path. Never retried. */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
/** 401 `unauthorized`: the server wants an API key and none or a wrong one came. Never retried. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/** 403 `forbidden`: the request's `Origin` or `Host` is not one the server allows (its MCP endpoint). Never retried. */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
/** 404 `not_found`: no such route (is `baseURL` the server's origin?). */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/** 405 `method_not_allowed`. */
export class MethodNotAllowedError extends APIError {
  override name = 'MethodNotAllowedError';
}
/** 413 `payload_too_large`: the body is over 64 KiB. */
export class PayloadTooLargeError extends APIError {
  override name = 'PayloadTooLargeError';
}
/** 415 `unsupported_media_type`. */
export class UnsupportedMediaTypeError extends APIError {
  override name = 'UnsupportedMediaTypeError';
}
/** 429 `rate_limited`: this key's rate limit; retried, honouring `Retry-After`, before it is thrown. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
}
/** 500 `internal_error`, or any other 5xx not from an OpenMates server (such as a proxy's). Never retried. */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}
/**
 * 502: every result group failed at the search provider. `response` is the full WebSearchResponse,
 * each group's `error` set, so a caller handles search outcomes with one shape. Never retried.
 */
export class ProviderError extends APIError {
  override name = 'ProviderError';
  /** The full search response, every group carrying its `error`. */
  readonly response: WebSearchResponse;

  constructor(init: APIErrorInit) {
    super(init);
    this.response = init.body as WebSearchResponse;
  }
}
/** 503 `not_configured`: the server's provider cannot serve; retried before it is thrown. */
export class ServiceUnavailableError extends APIError {
  override name = 'ServiceUnavailableError';
}

/** No answer came: the connection failed or dropped. Retried before it is thrown. */
export class APIConnectionError extends OpenMatesError {
  override name = 'APIConnectionError';
  constructor({ message, cause }: { message?: string; cause?: unknown } = {}) {
    super(message ?? `Could not reach the OpenMates server${causeDetail(cause)}.`, { cause });
  }
}

/** No answer came within `timeout`. Not retried: the server may already have searched. */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError';
  constructor({ timeout }: { timeout: number }) {
    super({ message: `The OpenMates server did not answer within ${timeout} ms.` });
  }
}

type StatusRow = Extract<(typeof ERROR_CLASSES)[number], { status: number }>;
type APIErrorClassName = StatusRow['name'] | 'APIError';

/** The class of each name the contract's table raises for a status; a missing one fails the type check. */
const API_ERROR_CLASSES: Record<APIErrorClassName, new (init: APIErrorInit) => APIError> = {
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  RateLimitError,
  InternalServerError,
  ProviderError,
  ServiceUnavailableError,
};

/** Every class of the contract's table by name, for tests that walk it. */
export const ERROR_CLASSES_BY_NAME: Record<ErrorClassName, abstract new (...args: never[]) => OpenMatesError> = {
  ...API_ERROR_CLASSES,
  OpenMatesError,
  APIConnectionError,
  APITimeoutError,
};

interface ContractFields {
  error: string | undefined;
  code: ErrorCode | undefined;
  issues: Issue[];
  requestId: string | undefined;
}

/** The `{ error, code, issues, request_id }` fields an ErrorResponse or a 502 WebSearchResponse carries. */
function contractFields(body: unknown): ContractFields {
  const record = isRecord(body) ? (body as Partial<ErrorResponse>) : {};
  return {
    error: typeof record.error === 'string' ? record.error : undefined,
    code: typeof record.code === 'string' ? record.code : undefined,
    issues: Array.isArray(record.issues) ? record.issues.filter(isIssue) : [],
    requestId: typeof record.request_id === 'string' ? record.request_id : undefined,
  };
}

const MAX_ISSUES_IN_MESSAGE = 3;

/** One line: the status, the code, the server's message and the first few issues. */
function errorMessage(status: number, { error, code, issues }: ContractFields): string {
  let message = `${status}${code ? ` ${code}` : ''}: ${error ?? 'the server answered without an error message'}`;
  if (issues.length > 0) {
    const shown = issues.slice(0, MAX_ISSUES_IN_MESSAGE).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
    const more = issues.length - shown.length;
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

function isWebSearchResponse(body: unknown): body is WebSearchResponse {
  return isRecord(body) && Array.isArray(body.results) && typeof body.provider === 'string';
}
