import type { EngineObserver } from '@openmates/core';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The server's Prometheus metrics (SPEC §8.6), on a registry of their own (never prom-client's
 * global one, so two servers in one process never share counts). Every label value comes from a
 * closed set: a route template or `other`, an HTTP status, an error code, a provider id, `hit`/`miss`.
 * None ever holds query text, a key or an address.
 */
export interface ServerMetrics {
  readonly registry: Registry;
  /** What the engine reports (provider calls, cache lookups, finished groups), counted here. */
  readonly engine: EngineObserver;
  /** One answered HTTP request; `route` must already be a template from the fixed list or `other`. */
  request(route: string, status: number): void;
  /** A search refused by the per-key rate limit (429). */
  rateLimited(): void;
  /** Whether the shared Redis answers (`openmates_redis_up`); stays 0 while none is configured. */
  setRedisUp(up: boolean): void;
  /** The text exposition, and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** Buckets of provider call durations, in seconds: loopback fixtures to a slow hosted search. */
const PROVIDER_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * Creates the metrics of one server. Process metrics (resident memory, heap, event-loop lag) come
 * with them, for the soak's readings.
 */
export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'openmates_http_requests_total',
    help: 'HTTP requests answered, by route template (`other` for any path outside the API) and status.',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  });
  const groups = new Counter({
    name: 'openmates_search_groups_total',
    help: 'Result groups finished, by outcome: `ok` or the group error code.',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  const providerCalls = new Histogram({
    name: 'openmates_provider_call_seconds',
    help: 'Provider call durations, by provider and outcome (`ok`, a group error code, or `aborted`).',
    labelNames: ['provider', 'outcome'] as const,
    buckets: PROVIDER_BUCKETS,
    registers: [registry],
  });
  const cache = new Counter({
    name: 'openmates_cache_total',
    help: 'Response cache lookups, by result (`hit` or `miss`).',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'openmates_rate_limited_total',
    help: 'Searches refused by the per-key rate limit.',
    registers: [registry],
  });
  const redisUp = new Gauge({
    name: 'openmates_redis_up',
    help: '1 while the shared Redis answers, 0 when it does not or none is configured.',
    registers: [registry],
  });
  redisUp.set(0);

  return {
    registry,
    engine: {
      providerCall: (provider, outcome, seconds) => providerCalls.observe({ provider, outcome }, seconds),
      cache: (result) => cache.inc({ result }),
      group: (code) => groups.inc({ code }),
    },
    request: (route, status) => requests.inc({ route, status: String(status) }),
    rateLimited: () => rateLimited.inc(),
    setRedisUp: (up) => redisUp.set(up ? 1 : 0),
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
