import { RATE_LIMIT_HEADER, RATE_LIMIT_POLICY_HEADER } from './generated/policy.ts';

/**
 * The caller's state under the server's per-key rate limit, read from the answer's `RateLimit` and
 * `RateLimit-Policy` headers (the IETF RateLimit fields). Undefined where the server's limit is
 * off, or the answer was not counted (skill info carries the state in its body instead).
 */
export interface RateLimit {
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** The policy's name (`per-key`). */
  policy: string;
}

function parameter(value: string, name: string): number | undefined {
  const found = new RegExp(`;\\s*${name}=(\\d+)`).exec(value);
  return found ? Number(found[1]) : undefined;
}

/** Reads the state from an answer's headers; undefined when they are missing or malformed. */
export function parseRateLimit(headers: Headers): RateLimit | undefined {
  const policyValue = headers.get(RATE_LIMIT_POLICY_HEADER);
  const stateValue = headers.get(RATE_LIMIT_HEADER);
  if (!policyValue || !stateValue) return undefined;
  const limit = parameter(policyValue, 'q');
  const remaining = parameter(stateValue, 'r');
  const resetSeconds = parameter(stateValue, 't');
  const policy = /^\s*"([^"]*)"/.exec(stateValue)?.[1];
  if (limit === undefined || remaining === undefined || resetSeconds === undefined || policy === undefined)
    return undefined;
  return { limit, remaining, resetSeconds, policy };
}
