import { randomUUID } from 'node:crypto';
import {
  CORS_ALLOWED_REQUEST_HEADERS,
  CORS_EXPOSED_HEADERS,
  CORS_MAX_AGE_S,
  type ErrorCode,
  EVENT_STREAM_MEDIA_TYPE,
  httpStatus,
  PATHS,
  RATE_LIMIT_POLICY,
  type RateLimitState,
  rateLimitHeaders,
  routeTemplate,
  type SearchStreamEvent,
  searchStatus,
} from '@openmates/contract';
import { type Engine, EngineError, errorResponse, type Logger, parseJsonBody } from '@openmates/core';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
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
  /** The `Accept` header, `null` when absent: `text/event-stream` preferred explicitly gets the event stream. */
  accept?: string | null;
  /** The rate-limit identity when no API keys are configured. */
  remoteAddress?: string;
  /** `X-Forwarded-For`, read only when the connection comes from a trusted proxy. */
  forwardedFor?: string | null;
  /** The `Origin` header, `null` when absent: an allowed one gets the CORS headers. */
  origin?: string | null;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  /** Reads the JSON body's text under the body limit; rejects with EngineError 415 or 413. */
  readBody(): Promise<string>;
}

/**
 * A response as plain data; `body` is the exact text to send (`null`: none), or the bytes of an
 * event stream, written as they come (cancelling the stream aborts the search behind it).
 */
export interface PlainResponse {
  status: number;
  headers: Record<string, string>;
  body: string | ReadableStream<Uint8Array> | null;
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
  /**
   * Auth then rate limit; throws EngineError 401 or 429 (with the seconds to wait and the limit's
   * headers). Resolves to the `RateLimit` and `RateLimit-Policy` headers of the counted request
   * (none when the limit is off).
   */
  admit(
    authorization: string | null,
    remoteAddress: string | undefined,
    forwardedFor?: string | null,
  ): Promise<Record<string, string>>;
  /**
   * The caller's state under the limit without counting anything (skill info); `undefined` when the
   * limit is off. Throws EngineError 401 without a valid key.
   */
  peek(
    authorization: string | null,
    remoteAddress: string | undefined,
    forwardedFor?: string | null,
  ): Promise<RateLimitState | undefined>;
  /**
   * The CORS headers of an actual answer for this `Origin`: none unless it is one of
   * `OPENMATES_ALLOWED_ORIGINS`; `Vary: Origin` whenever that list is set, since answers differ by origin.
   */
  cors(origin: string | null | undefined): Record<string, string>;
  /** The answer to a preflight from an allowed origin (204), `undefined` for any other origin. */
  preflight(origin: string | null | undefined, allow: readonly string[]): PlainResponse | undefined;
  /** The headers an error answer carries (`WWW-Authenticate`, `Retry-After`, the rate limit's). */
  errorHeaders(error: EngineError): Record<string, string>;
  /** The JSON answer for a thrown error: the contract's body for an EngineError, 499 or 500 otherwise. */
  failure(error: unknown, requestId: string, aborted: boolean): PlainResponse;
  /** One log line per request: never the raw path, query text or keys. */
  logRequest(requestId: string, method: string, pathname: string, status: number, started: number): void;
  /**
   * `POST` on the search path, whole: request id, auth, rate limit, body, engine, errors, log line;
   * as JSON, or as the event stream (ADR 0059) when `accept` asks for it.
   */
  handleSearch(request: PlainRequest): Promise<PlainResponse>;
}

const JSON_MEDIA_TYPE = 'application/json';

/**
 * True when `Accept` prefers `text/event-stream` and names it: `*\/*` and `text/*` alone get JSON,
 * so a client that never heard of the stream is never handed one.
 */
export function wantsEventStream(accept: string | null | undefined): boolean {
  if (!accept?.toLowerCase().includes(EVENT_STREAM_MEDIA_TYPE)) return false;
  const preferred = new Negotiator({ headers: { accept } }).mediaType([JSON_MEDIA_TYPE, EVENT_STREAM_MEDIA_TYPE]);
  return preferred === EVENT_STREAM_MEDIA_TYPE;
}

const STREAM_HEADERS = {
  'content-type': `${EVENT_STREAM_MEDIA_TYPE}; charset=utf-8`,
  'cache-control': 'no-store',
  // nginx (and proxies that honour it) pass each event on instead of buffering the answer.
  'x-accel-buffering': 'no',
} as const;

/** One event on the wire. `data` is one line of JSON (JSON.stringify never writes a newline). */
function sseEvent(event: SearchStreamEvent['event'], json: string): string {
  return `event: ${event}\ndata: ${json}\n\n`;
}

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
  const limiter = createLimiter(engine, config.rateLimit, config.rateLimitWindowS);
  const stateHeaders = (state: RateLimitState) => rateLimitHeaders(state, config.rateLimitWindowS);
  const allowedOrigins = new Set(config.allowedOrigins.map((origin) => new URL(origin).origin));
  // In Redis an identity is an HMAC: neither keys nor addresses are stored. One costs about 20 µs
  // on a busy server and every request needs one, so the identities seen lately keep theirs.
  const limitKeys = new LRUCache<string, string>({ max: 4096 });
  const limitKey = (identity: string): string => {
    const redis = engine.redis;
    if (!redis) return identity;
    let key = limitKeys.get(identity);
    if (key === undefined) {
      key = redis.hmac('limit', identity);
      limitKeys.set(identity, key);
    }
    return key;
  };
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

  /** The limiter's key for a caller: its API key, else its address. */
  function identityOf(key: string | null, remoteAddress: string | undefined, forwardedFor?: string | null): string {
    return limitKey(key ?? clientAddress(remoteAddress, forwardedFor, config.trustProxy) ?? 'anonymous');
  }

  /** A limiter answer as the caller's state. */
  function stateOf(res: RateLimiterRes): RateLimitState {
    return {
      limit: config.rateLimit,
      remaining: Math.max(0, res.remainingPoints),
      reset_seconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
      policy: RATE_LIMIT_POLICY,
    };
  }

  async function admit(
    authorization: string | null,
    remoteAddress: string | undefined,
    forwardedFor?: string | null,
  ): Promise<Record<string, string>> {
    const key = requireKey(authorization);
    if (!limiter) return {};
    try {
      return stateHeaders(stateOf(await limiter.consume(identityOf(key, remoteAddress, forwardedFor))));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      metrics.rateLimited();
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw Object.assign(
        new EngineError('rate_limited', `Too many requests for this API key; retry in ${seconds} s.`),
        { retryAfter: seconds, rateLimit: stateHeaders({ ...stateOf(rejection), reset_seconds: seconds }) },
      );
    }
  }

  async function peek(
    authorization: string | null,
    remoteAddress: string | undefined,
    forwardedFor?: string | null,
  ): Promise<RateLimitState | undefined> {
    const key = requireKey(authorization);
    if (!limiter) return undefined;
    const res = await limiter.get(identityOf(key, remoteAddress, forwardedFor));
    // Nothing counted in the current window: the whole limit is left and there is nothing to reset.
    if (res === null)
      return { limit: config.rateLimit, remaining: config.rateLimit, reset_seconds: 0, policy: RATE_LIMIT_POLICY };
    return stateOf(res);
  }

  const exposed = CORS_EXPOSED_HEADERS.join(', ');
  function cors(origin: string | null | undefined): Record<string, string> {
    if (allowedOrigins.size === 0) return {};
    if (!origin || !allowedOrigins.has(origin)) return { vary: 'Origin' };
    return { 'access-control-allow-origin': origin, 'access-control-expose-headers': exposed, vary: 'Origin' };
  }

  function preflight(origin: string | null | undefined, allow: readonly string[]): PlainResponse | undefined {
    if (!origin || !allowedOrigins.has(origin)) return undefined;
    return {
      status: 204,
      headers: {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': allow.join(', '),
        'access-control-allow-headers': CORS_ALLOWED_REQUEST_HEADERS.join(', '),
        'access-control-max-age': String(CORS_MAX_AGE_S),
        vary: 'Origin',
      },
      body: null,
    };
  }

  function errorHeaders(error: EngineError): Record<string, string> {
    const headers: Record<string, string> = {};
    if (error.code === 'unauthorized') headers['www-authenticate'] = 'Bearer realm="openmates", charset="UTF-8"';
    const { retryAfter, rateLimit } = error as EngineError & {
      retryAfter?: number;
      rateLimit?: Record<string, string>;
    };
    if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
    return rateLimit ? { ...headers, ...rateLimit } : headers;
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
    // The route's template, never the raw path: it could carry text a caller typed.
    const route = routeTemplate(pathname);
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
    // Every answer after the count carries the caller's state, refusals of the body included.
    let counted: Record<string, string> = {};
    try {
      if (draining) throw new Draining();
      counted = await admit(request.authorization, request.remoteAddress, request.forwardedFor);
      const text = await request.readBody();
      if (wantsEventStream(request.accept)) {
        response = await streamSearch(parseJsonBody(text), requestId, request, started);
        Object.assign(response.headers, counted, cors(request.origin));
        // The stream writes its log line when it ends.
        if (response.body instanceof ReadableStream) return response;
      } else {
        // The engine hands over the JSON it measured when fitting the response: serialized once.
        const {
          response: answer,
          json,
          retryAfterS,
        } = await engine.search(parseJsonBody(text), {
          requestId,
          signal: request.signal,
        });
        response = plainJson(
          searchStatus(answer.results),
          json,
          retryAfterS === undefined ? {} : { 'retry-after': String(retryAfterS) },
        );
      }
    } catch (error) {
      response =
        error instanceof Draining ? shuttingDown(requestId) : failure(error, requestId, request.signal.aborted);
    }
    Object.assign(response.headers, counted, cors(request.origin));
    response.headers['x-request-id'] = requestId;
    logRequest(requestId, request.method, PATHS.search, response.status, started);
    return response;
  }

  /**
   * The search as an event stream: `group` as each query finishes (the engine's `onGroup`), then
   * `done` with the very JSON the non-streamed answer sends, or `error`. A request the engine
   * refuses (invalid, aborted) is refused before the stream begins, as ordinary JSON: the engine
   * validates before its first await, so such a search has already rejected when this looks.
   */
  async function streamSearch(
    body: unknown,
    requestId: string,
    request: PlainRequest,
    started: number,
  ): Promise<PlainResponse> {
    const aborter = new AbortController();
    const abort = () => aborter.abort(request.signal.reason);
    request.signal.addEventListener('abort', abort, { once: true });
    const encoder = new TextEncoder();
    // Events from before the stream exists (a cache hit answers within the same tick) wait here.
    const early: string[] = [];
    let push: (text: string) => void = (text) => early.push(text);
    const search = engine.search(body, {
      requestId,
      signal: aborter.signal,
      onGroup: (group) => push(sseEvent('group', JSON.stringify(group))),
    });
    try {
      await Promise.race([search, Promise.resolve()]);
    } catch (error) {
      request.signal.removeEventListener('abort', abort);
      throw error;
    }
    let keepAlive: ReturnType<typeof setInterval> | undefined;
    let finished = false;
    /** Ends the stream once: its last event (none when the client left), the log line, the timers. */
    let end: (status: number, last?: string) => void = () => {};
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => {
          if (!finished) controller.enqueue(encoder.encode(text));
        };
        for (const text of early.splice(0)) push(text);
        end = (status, last) => {
          if (finished) return;
          if (last !== undefined) push(last);
          finished = true;
          clearInterval(keepAlive);
          request.signal.removeEventListener('abort', abort);
          logRequest(requestId, request.method, PATHS.search, status, started);
          controller.close();
        };
        // A comment line: ignored by every SSE parser, but traffic that proxies' idle timers see.
        keepAlive = setInterval(() => push(': keep-alive\n\n'), config.streamKeepAliveMs);
        search.then(
          ({ json }) => end(200, sseEvent('done', json)),
          (error: unknown) => {
            // The client went away: nobody is left to read an event.
            if (aborter.signal.aborted) return end(499);
            const failed = failure(error, requestId, false);
            end(failed.status, sseEvent('error', failed.body as string));
          },
        );
      },
      cancel() {
        aborter.abort(new Error('The client closed the event stream.'));
        if (finished) return;
        finished = true;
        clearInterval(keepAlive);
        request.signal.removeEventListener('abort', abort);
        logRequest(requestId, request.method, PATHS.search, 499, started);
      },
    });
    return { status: 200, headers: { ...STREAM_HEADERS, 'x-request-id': requestId }, body: stream };
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
    peek,
    cors,
    preflight,
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
function createLimiter(engine: Engine, points: number, windowS: number): RateLimiterAbstract | undefined {
  if (points <= 0) return undefined;
  const memory = new RateLimiterMemory({ points, duration: windowS });
  if (!engine.redis) return memory;
  return new RateLimiterRedis({
    storeClient: engine.redis.client,
    keyPrefix: `${engine.redis.prefix}limit`,
    points,
    duration: windowS,
    insuranceLimiter: memory,
    rejectIfRedisNotReady: true,
  });
}

/** A search that arrived after `drain()`. */
class Draining extends Error {
  override readonly name = 'Draining';
}
