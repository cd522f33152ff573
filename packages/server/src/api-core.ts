import {
  DEFAULT_FREE_CHAIN_RATE_LIMIT_PER_MIN,
  RATE_LIMIT_POLICY,
  type RateLimitState,
  rateLimitHeaders,
} from '@openmates/contract';
import type { Engine, Logger } from '@openmates/core';
import { LRUCache } from 'lru-cache';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { clientAddress } from './client-address.ts';
import type { ServerConfig } from './env.ts';
import { type KeyIdentity, KeyRing } from './keys-file.ts';
import { createServerMetrics, type ServerMetrics } from './metrics.ts';
import { createQuotas, type Quotas } from './quotas.ts';
import { Refusal } from './refusal.ts';

/**
 * What every step of the request path and every operation share: the engine, the key check, the
 * rate limiter, the refusal of a draining server, the log line. The request path
 * (`pipeline.ts`) decides which of them a request meets, from its route's entry.
 */
export interface ApiCore {
  engine: Engine;
  log: Logger;
  /** The server's Prometheus metrics; the engine's observer when the engine was built with it. */
  metrics: ServerMetrics;
  /** True from `drain()` on: metered routes are refused (503, `Connection: close`) and readiness fails. */
  readonly draining: boolean;
  /** Stops taking new work: what SIGTERM does first. */
  drain(): void;
  /** The 503 a draining server answers in place of new work. */
  shuttingDown(): Refusal;
  /** False when the rate limit is off (`OPENMATES_RATE_LIMIT_PER_MIN=0`): nothing is counted or peeked. */
  readonly limited: boolean;
  /** The caller's key (`null` when no keys are configured); throws the 401 refusal without a valid one. */
  requireKey(authorization: string | null): KeyIdentity | null;
  /** The keys' quotas and usage (ADR 0136). */
  quotas: Quotas;
  /** The rate limiter's identity of a caller: its key, else its address. */
  identity(key: string | null, remoteAddress: string | undefined, forwardedFor: string | null): string;
  /**
   * Counts one request for `identity`: resolves to the `RateLimit` and `RateLimit-Policy` headers of
   * the caller's state after it (none when the limit is off), or throws the 429 refusal carrying
   * `Retry-After` and that state.
   */
  count(identity: string, caller?: KeyIdentity | null): Promise<Record<string, string>>;
  /** The caller's state under the limit without counting anything; `undefined` when the limit is off. */
  peek(identity: string, caller?: KeyIdentity | null): Promise<RateLimitState | undefined>;
  /** Logs an error that is no refusal (a fault: answered 500 without detail), by its name only. */
  fault(error: unknown, requestId: string): void;
  /** One log line per request: the route's template, never the raw path, query text or keys. */
  logRequest(requestId: string, method: string, route: string, status: number, started: number): void;
}

/** What a draining server answers in place of new work (503 `not_configured`). */
export const SHUTTING_DOWN = 'This server is shutting down: send the request again (it reaches a server that is up).';

/** The headers of every JSON answer. */
export const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } as const;

/** A JSON answer with the API's usual headers, and `headers` (the request's) after them. */
export function plainJson(status: number, body: string | Uint8Array, headers: Record<string, string> = {}): Response {
  return new Response(body as BodyInit, { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** The contract's JSON answer for a refusal, with its headers and the request's. */
export function refusalJson(refusal: Refusal, requestId: string, headers: Record<string, string> = {}): Response {
  return plainJson(refusal.status, JSON.stringify(refusal.body(requestId)), { ...refusal.headers, ...headers });
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
  const keyRing = new KeyRing({
    keys: config.apiKeys,
    ...(config.apiKeysFile ? { path: config.apiKeysFile } : {}),
    onError: (message) =>
      log.error({ event: 'keys_file', reason: message }, 'keys file not read: the last good one stays'),
  });
  const quotas = createQuotas(engine, metrics);
  const rateLimit = rateLimitOf(engine, config);
  const limiter = createLimiter(engine, rateLimit, config.rateLimitWindowS);
  // A key of the keys file may carry its own per-minute limit: one limiter per distinct limit.
  const limiters = new Map<number, RateLimiterAbstract | undefined>([[rateLimit, limiter]]);
  const limiterOf = (caller: KeyIdentity | null | undefined) => {
    const points = caller?.entry?.rate_limit_per_min ?? rateLimit;
    if (!limiters.has(points)) limiters.set(points, createLimiter(engine, points, config.rateLimitWindowS, points));
    return { points, limiter: limiters.get(points) };
  };
  // Without API keys the limit counts per client address: the message names the client, not a key.
  const whose = keyRing.required ? 'for this API key' : 'from this client';
  const stateHeaders = (state: RateLimitState) => rateLimitHeaders(state, config.rateLimitWindowS);
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

  function requireKey(authorization: string | null): KeyIdentity | null {
    if (!keyRing.required) return null;
    const key = keyRing.authenticate(authorization);
    if (key === undefined)
      throw new Refusal('unauthorized', 'A valid API key is required: send Authorization: Bearer <key>.');
    return key;
  }

  function identity(key: string | null, remoteAddress: string | undefined, forwardedFor: string | null): string {
    return limitKey(key ?? clientAddress(remoteAddress, forwardedFor, config.trustProxy) ?? 'anonymous');
  }

  /** A limiter answer as the caller's state. */
  function stateOf(res: RateLimiterRes, limit: number): RateLimitState {
    return {
      limit,
      remaining: Math.max(0, res.remainingPoints),
      reset_seconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
      policy: RATE_LIMIT_POLICY,
    };
  }

  async function count(identity: string, caller?: KeyIdentity | null): Promise<Record<string, string>> {
    const { points, limiter } = limiterOf(caller);
    if (!limiter) return {};
    try {
      return stateHeaders(stateOf(await limiter.consume(identity), points));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      metrics.rateLimited();
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new Refusal('rate_limited', `Too many requests ${whose}; retry in ${seconds} s.`, {
        headers: {
          'retry-after': String(seconds),
          ...stateHeaders({ ...stateOf(rejection, points), reset_seconds: seconds }),
        },
      });
    }
  }

  async function peek(identity: string, caller?: KeyIdentity | null): Promise<RateLimitState | undefined> {
    const { points, limiter } = limiterOf(caller);
    if (!limiter) return undefined;
    const res = await limiter.get(identity);
    // Nothing counted in the current window: the whole limit is left and there is nothing to reset.
    if (res === null) return { limit: points, remaining: points, reset_seconds: 0, policy: RATE_LIMIT_POLICY };
    return stateOf(res, points);
  }

  function fault(error: unknown, requestId: string): void {
    log.error(
      { event: 'http', request_id: requestId, error_name: error instanceof Error ? error.name : typeof error },
      'internal error',
    );
  }

  function logRequest(requestId: string, method: string, route: string, status: number, started: number): void {
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
    limited: limiter !== undefined,
    shuttingDown: () =>
      new Refusal('not_configured', SHUTTING_DOWN, { headers: { connection: 'close', 'retry-after': '1' } }),
    requireKey,
    quotas,
    identity,
    count,
    peek,
    fault,
    logRequest,
  };
}

/**
 * The per-key limiter (rate-limiter-flexible): in process, or in the shared Redis with an in-process
 * limiter standing in while Redis is unreachable (`insuranceLimiter`), so a Redis fault never
 * lifts the limit, it only makes it per replica for that time.
 */
/**
 * The per-minute limit: as configured, except that an unset limit without API keys on a chain whose
 * every provider costs nothing (each module's price says so) is the free chain's default (ADR 0115).
 */
function rateLimitOf(engine: Engine, config: ServerConfig): number {
  if (!config.rateLimitDefaulted || config.apiKeys.length > 0 || config.apiKeysFile) return config.rateLimit;
  const { registry, providers } = engine.config;
  const free = providers.every((id) => registry[id]?.price.costs === 'nothing');
  return free ? DEFAULT_FREE_CHAIN_RATE_LIMIT_PER_MIN : config.rateLimit;
}

function createLimiter(engine: Engine, points: number, windowS: number, own?: number): RateLimiterAbstract | undefined {
  if (points <= 0) return undefined;
  const memory = new RateLimiterMemory({ points, duration: windowS });
  if (!engine.redis) return memory;
  return new RateLimiterRedis({
    storeClient: engine.redis.client,
    // A key's own limit counts apart from the server's (its points differ).
    keyPrefix: `${engine.redis.prefix}limit${own === undefined ? '' : `:${own}`}`,
    points,
    duration: windowS,
    insuranceLimiter: memory,
    rejectIfRedisNotReady: true,
  });
}
