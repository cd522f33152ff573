import { randomUUID } from 'node:crypto';
import { type ErrorCode, httpStatus, PATHS, searchStatus } from '@openmates/contract';
import { type Engine, EngineError, errorResponse, type Logger } from '@openmates/core';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { createAuthenticator } from './auth.ts';
import { clientAddress } from './client-address.ts';
import type { ServerConfig } from './env.ts';
import { createServerMetrics, type ServerMetrics } from './metrics.ts';

/**
 * A request as the API's core sees it, free of any HTTP library: the fetch handler and the
 * node:http fast path each build one from what they hold.
 */
export interface PlainRequest {
  method: string;
  /** The `Authorization` header, `null` when absent. */
  authorization: string | null;
  /** The rate-limit identity when no API keys are configured. */
  remoteAddress?: string;
  /** `X-Forwarded-For`, read only when the connection comes from a trusted proxy. */
  forwardedFor?: string | null;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  /** Reads and parses the JSON body under the body limit; rejects with EngineError 415, 413 or 400. */
  readBody(): Promise<unknown>;
}

/** A response as plain data; `body` is the exact text to send (`null`: none). */
export interface PlainResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** What the fetch handler and the node:http fast path share: one source of the API's behaviour. */
export interface ApiCore {
  engine: Engine;
  log: Logger;
  /** The server's Prometheus metrics; the engine's observer when the engine was built with it. */
  metrics: ServerMetrics;
  /** True from `drain()` on: searches are refused (503, `Connection: close`) and readiness fails. */
  readonly draining: boolean;
  /** Stops taking new work: what SIGTERM does first. */
  drain(): void;
  /** The 503 a draining server answers in place of new work. */
  shuttingDown(requestId: string): PlainResponse;
  /** The caller's key (`null` when no keys are configured); throws EngineError 401 without a valid one. */
  requireKey(authorization: string | null): string | null;
  /** Auth then rate limit; throws EngineError 401 or 429 (with the seconds to wait). */
  admit(authorization: string | null, remoteAddress: string | undefined, forwardedFor?: string | null): Promise<void>;
  /** The headers an error answer carries (`WWW-Authenticate`, `Retry-After`). */
  errorHeaders(error: EngineError): Record<string, string>;
  /** The JSON answer for a thrown error: the contract's body for an EngineError, 499 or 500 otherwise. */
  failure(error: unknown, requestId: string, aborted: boolean): PlainResponse;
  /** One log line per request: never the raw path, query text or keys. */
  logRequest(requestId: string, method: string, pathname: string, status: number, started: number): void;
  /** `POST` on the search path, whole: request id, auth, rate limit, body, engine, errors, log line. */
  handleSearch(request: PlainRequest): Promise<PlainResponse>;
}

/** The methods each API path answers, for 405 and `Allow` (HEAD is answered wherever GET is). */
export const ROUTES: Record<string, readonly string[]> = {
  [PATHS.search]: ['GET', 'HEAD', 'POST'],
  [PATHS.openapi]: ['GET', 'HEAD'],
  [PATHS.health]: ['GET', 'HEAD'],
  [PATHS.ready]: ['GET', 'HEAD'],
  [PATHS.metrics]: ['GET', 'HEAD'],
};

/** What a draining server answers in place of new work (503 `not_configured`). */
export const SHUTTING_DOWN = 'This server is shutting down: send the request again (it reaches a server that is up).';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } as const;

/** A JSON answer with the API's usual headers. */
export function plainJson(status: number, text: string, headers: Record<string, string> = {}): PlainResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: text };
}

/** The error body for a route-level refusal (404, 405, 500). */
export function routeError(code: ErrorCode, requestId: string, headers: Record<string, string> = {}): PlainResponse {
  return plainJson(httpStatus(code), JSON.stringify(errorResponse(code, { requestId })), headers);
}

/**
 * Builds the shared core over an engine and the server's settings. `metrics` should be the ones
 * the engine reports to (`createEngine({ observer: metrics.engine })`); fresh ones otherwise.
 */
export function createApiCore(
  engine: Engine,
  config: ServerConfig,
  metrics: ServerMetrics = createServerMetrics(),
): ApiCore {
  const log: Logger = engine.logger.child({ component: 'server' });
  let draining = false;
  const authenticate = createAuthenticator(config.apiKeys);
  const limiter = createLimiter(engine, config.rateLimitPerMin);
  // openmates_redis_up follows the engine's Redis link (0 without one).
  if (engine.redis) {
    metrics.setRedisUp(engine.redis.state === 'ok');
    engine.redis.onStateChange((state) => metrics.setRedisUp(state === 'ok'));
  }

  function requireKey(authorization: string | null): string | null {
    const key = authenticate(authorization);
    if (key === undefined)
      throw new EngineError('unauthorized', 'A valid API key is required: send Authorization: Bearer <key>.');
    return key;
  }

  async function admit(
    authorization: string | null,
    remoteAddress: string | undefined,
    forwardedFor?: string | null,
  ): Promise<void> {
    const key = requireKey(authorization);
    if (!limiter) return;
    const identity = key ?? clientAddress(remoteAddress, forwardedFor, config.trustProxy) ?? 'anonymous';
    try {
      // In Redis an identity is an HMAC: neither keys nor addresses are stored.
      await limiter.consume(engine.redis ? engine.redis.hmac('limit', identity) : identity);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      metrics.rateLimited();
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw Object.assign(
        new EngineError('rate_limited', `Too many requests for this API key; retry in ${seconds} s.`),
        { retryAfter: seconds },
      );
    }
  }

  function errorHeaders(error: EngineError): Record<string, string> {
    const headers: Record<string, string> = {};
    if (error.code === 'unauthorized') headers['www-authenticate'] = 'Bearer realm="openmates", charset="UTF-8"';
    const retryAfter = (error as EngineError & { retryAfter?: number }).retryAfter;
    if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
    return headers;
  }

  function failure(error: unknown, requestId: string, aborted: boolean): PlainResponse {
    if (error instanceof EngineError) {
      const body = errorResponse(error.code, {
        message: error.message,
        requestId,
        ...(error.issues ? { issues: error.issues } : {}),
      });
      return plainJson(error.status, JSON.stringify(body), errorHeaders(error));
    }
    if (aborted) return { status: 499, headers: {}, body: null };
    log.error(
      { event: 'http', request_id: requestId, error_name: error instanceof Error ? error.name : typeof error },
      'internal error',
    );
    return routeError('internal_error', requestId);
  }

  function shuttingDown(requestId: string): PlainResponse {
    const body = errorResponse('not_configured', { message: SHUTTING_DOWN, requestId });
    return plainJson(503, JSON.stringify(body), { connection: 'close', 'retry-after': '1' });
  }

  function logRequest(requestId: string, method: string, pathname: string, status: number, started: number): void {
    const route = routeName(pathname);
    metrics.request(route, status);
    log.info(
      {
        event: 'http',
        request_id: requestId,
        method,
        route,
        status,
        elapsed_ms: Math.round(performance.now() - started),
      },
      'request',
    );
  }

  async function handleSearch(request: PlainRequest): Promise<PlainResponse> {
    const requestId = randomUUID();
    const started = performance.now();
    let response: PlainResponse;
    try {
      if (draining) throw new Draining();
      await admit(request.authorization, request.remoteAddress, request.forwardedFor);
      const body = await request.readBody();
      // The engine hands over the JSON it measured when fitting the response: serialized once.
      const {
        response: answer,
        json,
        retryAfterS,
      } = await engine.searchJson(body, {
        requestId,
        signal: request.signal,
      });
      response = plainJson(
        searchStatus(answer.results),
        json,
        retryAfterS === undefined ? {} : { 'retry-after': String(retryAfterS) },
      );
    } catch (error) {
      response =
        error instanceof Draining ? shuttingDown(requestId) : failure(error, requestId, request.signal.aborted);
    }
    response.headers['x-request-id'] = requestId;
    logRequest(requestId, request.method, PATHS.search, response.status, started);
    return response;
  }

  return {
    engine,
    log,
    metrics,
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
    shuttingDown,
    requireKey,
    admit,
    errorHeaders,
    failure,
    logRequest,
    handleSearch,
  };
}

/**
 * The per-key limiter (rate-limiter-flexible): in process, or in the shared Redis with an in-process
 * limiter standing in while Redis is unreachable (`insuranceLimiter`), so a Redis fault never
 * lifts the limit, it only makes it per replica for that time.
 */
function createLimiter(engine: Engine, perMinute: number): RateLimiterAbstract | undefined {
  if (perMinute <= 0) return undefined;
  const memory = new RateLimiterMemory({ points: perMinute, duration: 60 });
  if (!engine.redis) return memory;
  return new RateLimiterRedis({
    storeClient: engine.redis.client,
    keyPrefix: `${engine.redis.prefix}limit`,
    points: perMinute,
    duration: 60,
    insuranceLimiter: memory,
    rejectIfRedisNotReady: true,
  });
}

/** A search that arrived after `drain()`. */
class Draining extends Error {
  override readonly name = 'Draining';
}

/**
 * The route template for logs and metrics, from a fixed list (`other` for the rest): never the raw
 * path, which could carry text a caller typed, and a 404 scan cannot grow the metrics' label set.
 */
export function routeName(pathname: string): string {
  if (Object.hasOwn(ROUTES, pathname)) return pathname;
  if (pathname === PATHS.trpc || pathname.startsWith(`${PATHS.trpc}/`)) return `${PATHS.trpc}/*`;
  if (pathname === PATHS.mcp) return PATHS.mcp;
  if (pathname.startsWith(PATHS.docs)) return PATHS.docs;
  return 'other';
}
