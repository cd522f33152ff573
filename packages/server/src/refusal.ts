import { ERROR_TABLE, type ErrorCode, type ErrorResponse, type Issue, RATE_LIMIT_HEADERS } from '@openmates/contract';
import { EngineError, errorResponse } from '@openmates/core';

/** The challenge a 401 names (RFC 6750): the realm and the charset a key is read in. */
const BEARER_CHALLENGE = 'Bearer realm="openmates", charset="UTF-8"';

/** The rate-limit state's header names as node writes them. */
const RATE_LIMIT_HEADER_NAMES = [RATE_LIMIT_HEADERS.policy.toLowerCase(), RATE_LIMIT_HEADERS.state.toLowerCase()];

/**
 * The server's one HTTP refusal: an error of the contract's table with the headers its answer
 * carries (`WWW-Authenticate`, `Retry-After`, the rate limit's state, `Allow`, `Connection`).
 * Status and default message come from the error table; each transport words the same refusal
 * its own way (the contract's JSON, a JSON-RPC error, tRPC's envelope). It is an EngineError, so
 * whatever reads one (the MCP tool's refusals, tRPC's error formatter) reads this too.
 */
export class Refusal extends EngineError {
  /** Lowercase header names, as they are sent. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    message: string = ERROR_TABLE[code].message,
    options: { issues?: Issue[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(code, message, options);
    this.headers = {
      ...(code === 'unauthorized' ? { 'www-authenticate': BEARER_CHALLENGE } : {}),
      ...options.headers,
    };
  }

  /** The refusal an error stands for: itself, an engine's error with no headers, or none (a fault). */
  static of(error: unknown): Refusal | undefined {
    if (error instanceof Refusal) return error;
    if (error instanceof EngineError)
      return new Refusal(error.code, error.message, {
        ...(error.issues ? { issues: error.issues } : {}),
        cause: error,
      });
    return undefined;
  }

  /** The contract's ErrorResponse for this refusal. */
  body(requestId?: string): ErrorResponse {
    return errorResponse(this.code, {
      message: this.message,
      ...(requestId ? { requestId } : {}),
      ...(this.issues ? { issues: this.issues } : {}),
    });
  }

  /** Only the caller's rate-limit state among the headers (what a counted call inside an answer reports). */
  get rateLimit(): Record<string, string> {
    const state: Record<string, string> = {};
    for (const name of RATE_LIMIT_HEADER_NAMES) {
      const value = this.headers[name];
      if (value !== undefined) state[name] = value;
    }
    return state;
  }
}
