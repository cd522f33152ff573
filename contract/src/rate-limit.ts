import type { RouteHeader } from './routes.ts';
import { z } from './zod.ts';

/**
 * The per-key rate limit as clients read it, in the IETF RateLimit header fields: every answer
 * counted against the limit carries the policy (`q` requests per `w` seconds) and the caller's
 * state (`r` remaining, `t` seconds until the window resets). Nothing is sent when the limit is off.
 */

/** The name of the one policy: the limit per API key (per client address without keys). */
export const RATE_LIMIT_POLICY = 'per-key';

/** The header names, as sent and as the OpenAPI document lists them. */
export const RATE_LIMIT_HEADERS = {
  policy: 'RateLimit-Policy',
  state: 'RateLimit',
} as const;

export const RateLimitStateSchema = z
  .strictObject({
    limit: z.int().min(1).openapi({ description: 'Requests allowed per window.' }),
    remaining: z.int().min(0).openapi({ description: 'Requests left in the current window.' }),
    reset_seconds: z
      .int()
      .min(0)
      .openapi({ description: 'Seconds until the window resets (0: nothing counted in the current window).' }),
    policy: z.string().openapi({ description: `The policy's name (\`${RATE_LIMIT_POLICY}\`).` }),
  })
  .openapi('RateLimitState', {
    description: "The caller's state under the per-key rate limit, as the RateLimit headers carry it.",
  });
export type RateLimitState = z.infer<typeof RateLimitStateSchema>;

/** `RateLimit-Policy: "per-key";q=60;w=60`. */
export function rateLimitPolicyHeader(limit: number, windowS: number): string {
  return `"${RATE_LIMIT_POLICY}";q=${limit};w=${windowS}`;
}

/** `RateLimit: "per-key";r=59;t=42`. */
export function rateLimitHeader(remaining: number, resetS: number): string {
  return `"${RATE_LIMIT_POLICY}";r=${remaining};t=${resetS}`;
}

/** The headers of one state, by their wire names (lowercase, as fetch and node:http hold them). */
export function rateLimitHeaders(state: RateLimitState, windowS: number): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.policy.toLowerCase()]: rateLimitPolicyHeader(state.limit, windowS),
    [RATE_LIMIT_HEADERS.state.toLowerCase()]: rateLimitHeader(state.remaining, state.reset_seconds),
  };
}

/** The first parameter `name` of a structured-field item list such as `"per-key";r=5;t=3`. */
function parameter(value: string, name: string): number | undefined {
  const found = new RegExp(`;\\s*${name}=(\\d+)`).exec(value);
  return found ? Number(found[1]) : undefined;
}

/** The policy name of the first item (`"per-key"` → `per-key`). */
function policyName(value: string): string | undefined {
  return /^\s*"([^"]*)"/.exec(value)?.[1];
}

/**
 * Reads a state back from the two headers; `undefined` when either is missing or malformed (the
 * limit is off, or the answer was not counted).
 */
export function parseRateLimitHeaders(
  policyValue: string | null | undefined,
  stateValue: string | null | undefined,
): RateLimitState | undefined {
  if (!policyValue || !stateValue) return undefined;
  const limit = parameter(policyValue, 'q');
  const remaining = parameter(stateValue, 'r');
  const reset = parameter(stateValue, 't');
  const policy = policyName(stateValue) ?? policyName(policyValue);
  if (limit === undefined || remaining === undefined || reset === undefined || policy === undefined) return undefined;
  return { limit, remaining, reset_seconds: reset, policy };
}

/** How the OpenAPI document describes the two headers on a counted route's answers. */
export const RATE_LIMIT_ROUTE_HEADERS: Record<string, RouteHeader> = {
  [RATE_LIMIT_HEADERS.policy]: {
    description: `The per-key limit: \`"${RATE_LIMIT_POLICY}";q=<requests>;w=<window seconds>\`. Sent on every answer counted against the limit; absent when the limit is off.`,
    schema: { type: 'string' },
  },
  [RATE_LIMIT_HEADERS.state]: {
    description: `The caller's state: \`"${RATE_LIMIT_POLICY}";r=<remaining>;t=<seconds until the window resets>\`. Sent with \`${RATE_LIMIT_HEADERS.policy}\`.`,
    schema: { type: 'string' },
  },
};

/**
 * Cross-origin access (CORS) for browsers on the origins listed in `OPENMATES_ALLOWED_ORIGINS`:
 * what a preflight allows and what an answer lets the page read. Keys travel as Bearer headers,
 * never as cookies, so credentials are never allowed.
 */
export const CORS_ALLOWED_REQUEST_HEADERS = [
  'content-type',
  'authorization',
  'accept',
  'last-event-id',
  // The npm SDK names itself on every request; a preflight that did not allow it would block the
  // SDK in every browser (apps/web/e2e/cors.e2e.ts).
  'x-openmates-sdk',
] as const;
export const CORS_EXPOSED_HEADERS = [
  RATE_LIMIT_HEADERS.state,
  RATE_LIMIT_HEADERS.policy,
  'Retry-After',
  'X-Request-Id',
] as const;
/** How long a browser may cache a preflight's answer. */
export const CORS_MAX_AGE_S = 600;
