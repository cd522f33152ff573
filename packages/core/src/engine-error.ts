import {
  ERROR_TABLE,
  type ErrorCode,
  type ErrorResponse,
  httpStatus,
  type Issue,
  issueMessage,
} from '@openmates/contract';

/**
 * A search that produced no WebSearchResponse: an invalid request (400), a provider that cannot
 * serve (503) or a bug (500). The message is always safe to show.
 */
export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly code: ErrorCode;
  readonly issues: Issue[] | undefined;
  constructor(
    code: ErrorCode,
    message: string = ERROR_TABLE[code].message,
    options: { issues?: Issue[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.issues = options.issues;
  }

  get status(): number {
    return httpStatus(this.code);
  }
}

/** One line summarizing validation issues: `Invalid request: requests[0].query: must not be blank (and 1 more)`. */
export function describeIssues(issues: readonly Issue[]): string {
  const [first, ...rest] = issues;
  if (!first) return ERROR_TABLE.invalid_request.message;
  const where = first.path === '' ? 'body' : first.path;
  const more = rest.length > 0 ? ` (and ${rest.length} more issue${rest.length === 1 ? '' : 's'})` : '';
  return `Invalid request: ${where}: ${first.message}${more}`;
}

/** The ErrorResponse body for an EngineError (or any error code), with the request id when known. */
export function errorResponse(
  code: ErrorCode,
  options: { message?: string; issues?: readonly Issue[]; requestId?: string } = {},
): ErrorResponse {
  const body: ErrorResponse = { error: options.message ?? ERROR_TABLE[code].message, code };
  if (options.issues && options.issues.length > 0) body.issues = [...options.issues];
  if (options.requestId) body.request_id = options.requestId;
  return body;
}

/** Parses a request body's text as JSON; rejects with EngineError 400 when it is not JSON. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new EngineError('invalid_request', 'Invalid request: the body is not valid JSON.', {
      issues: [{ path: '', message: issueMessage('bodyNotJson') }],
    });
  }
}
