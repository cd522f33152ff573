import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.ts';
import {
  parseRateLimitHeaders,
  RATE_LIMIT_HEADERS,
  rateLimitHeader,
  rateLimitHeaders,
  rateLimitPolicyHeader,
} from './rate-limit.ts';
import { isMetered, REFUSED_BEFORE_COUNTING, ROUTES, type RouteAnswer } from './routes.ts';

/** Written out again here, so that the document is checked against the list rather than against itself. */
const refusedBeforeCounting = (answer: RouteAnswer | undefined): boolean =>
  answer !== undefined && 'error' in answer && (REFUSED_BEFORE_COUNTING as readonly string[]).includes(answer.error);

describe('rate-limit headers', () => {
  it('writes the IETF fields and reads them back', () => {
    expect(rateLimitPolicyHeader(60, 60)).toBe('"per-key";q=60;w=60');
    expect(rateLimitHeader(59, 42)).toBe('"per-key";r=59;t=42');
    const state = { limit: 5, remaining: 0, reset_seconds: 17, policy: 'per-key' };
    const headers = rateLimitHeaders(state, 30);
    expect(parseRateLimitHeaders(headers['ratelimit-policy'], headers.ratelimit)).toEqual(state);
    expect(parseRateLimitHeaders(null, headers.ratelimit)).toBeUndefined();
    expect(parseRateLimitHeaders('"per-key";w=30', headers.ratelimit)).toBeUndefined();
  });

  it('are described on every answer of a counted route but its 401, and on no other route', () => {
    const document = buildOpenApiDocument() as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    };
    for (const route of ROUTES) {
      if (route.variant) continue;
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, route.operation).toBeDefined();
      for (const [status, answer] of Object.entries(operation?.responses ?? {})) {
        const described = Object.keys(answer.headers ?? {}).filter(
          (name) => name === RATE_LIMIT_HEADERS.state || name === RATE_LIMIT_HEADERS.policy,
        );
        expect(described, `${route.operation} ${status}`).toEqual(
          isMetered(route) && !refusedBeforeCounting(route.responses[Number(status)])
            ? [RATE_LIMIT_HEADERS.policy, RATE_LIMIT_HEADERS.state]
            : [],
        );
      }
    }
  });
});
