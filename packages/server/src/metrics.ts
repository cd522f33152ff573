import type { EngineObserver } from '@openmates/core';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The server's Prometheus metrics (ADR 0052), on a registry of their own (never prom-client's
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
  /** One provider call debited to a key before it was sent: its billed units and estimated cost (ADR 0136). */
  debited(provider: string, billed: number, usd: number): void;
  /** A search or a group's call refused because its key's quota is spent. */
  quotaExceeded(): void;
  /** Whether the shared Redis answers (`openmates_redis_up`); stays 0 while none is configured. */
  setRedisUp(up: boolean): void;
  /** The text exposition, and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** Buckets of provider call durations, in seconds: loopback fixtures to a slow hosted search. */
const PROVIDER_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** A count per label set, keyed by the label values joined with a space (label values hold none). */
type Counts = Map<string, { labels: Record<string, string>; count: number }>;

function bump(counts: Counts, key: string, labels: () => Record<string, string>): void {
  const entry = counts.get(key);
  if (entry) entry.count += 1;
  else counts.set(key, { labels: labels(), count: 1 });
}

/**
 * A counter whose counts live in `counts` and reach prom-client when it collects: prom-client's
 * label handling costs microseconds per update, paid on every request otherwise, and these label
 * sets are small and closed.
 */
function countedOnCollect(registry: Registry, name: string, help: string, labelNames: string[], counts: Counts) {
  return new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, count } of counts.values()) this.inc(labels, count);
    },
  });
}

/**
 * Creates the metrics of one server. Process metrics (resident memory, heap, event-loop lag) come
 * with them, for the soak's readings.
 */
export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests: Counts = new Map();
  const groups: Counts = new Map();
  const cache: Counts = new Map();
  const rateLimited: Counts = new Map();
  const calls: Counts = new Map();
  const quotaExceeded: Counts = new Map();
  const billed = new Map<string, number>();
  const cost = new Map<string, number>();
  countedOnCollect(
    registry,
    'openmates_http_requests_total',
    'HTTP requests answered, by route template (`other` for any path outside the API) and status.',
    ['route', 'status'],
    requests,
  );
  countedOnCollect(
    registry,
    'openmates_search_groups_total',
    'Result groups finished, by outcome: `ok` or the group error code.',
    ['code'],
    groups,
  );
  countedOnCollect(
    registry,
    'openmates_cache_total',
    'Response cache lookups, by result (`hit` or `miss`).',
    ['result'],
    cache,
  );
  countedOnCollect(
    registry,
    'openmates_rate_limited_total',
    'Searches refused by the per-key rate limit.',
    [],
    rateLimited,
  );
  rateLimited.set('', { labels: {}, count: 0 });
  countedOnCollect(
    registry,
    'openmates_provider_calls_total',
    'Provider calls ended, by provider and outcome (`ok`, a group error code, or `aborted`).',
    ['provider', 'outcome'],
    calls,
  );
  countedOnCollect(
    registry,
    'openmates_quota_exceeded_total',
    'Searches and calls refused because their key’s quota was spent.',
    [],
    quotaExceeded,
  );
  quotaExceeded.set('', { labels: {}, count: 0 });
  const amounts = (name: string, help: string, values: Map<string, number>) =>
    new Counter({
      name,
      help,
      labelNames: ['provider'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [provider, amount] of values) this.inc({ provider }, amount);
      },
    });
  amounts(
    'openmates_provider_billed_units_total',
    'Billed units debited to keys before their calls were sent, by provider (in its own unit).',
    billed,
  );
  amounts(
    'openmates_provider_cost_usd_total',
    'Estimated cost of the calls debited to keys, by provider, in US dollars (from the price table).',
    cost,
  );
  const providerCalls = new Histogram({
    name: 'openmates_provider_call_seconds',
    help: 'Provider call durations, by provider and outcome (`ok`, a group error code, or `aborted`).',
    labelNames: ['provider', 'outcome'] as const,
    buckets: PROVIDER_BUCKETS,
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
      providerCall: (provider, outcome, seconds) => {
        providerCalls.observe({ provider, outcome }, seconds);
        bump(calls, `${provider} ${outcome}`, () => ({ provider, outcome }));
      },
      cache: (result) => bump(cache, result, () => ({ result })),
      group: (code) => bump(groups, code, () => ({ code })),
    },
    request: (route, status) => bump(requests, `${route} ${status}`, () => ({ route, status: String(status) })),
    rateLimited: () => bump(rateLimited, '', () => ({})),
    debited(provider, units, usd) {
      billed.set(provider, (billed.get(provider) ?? 0) + units);
      cost.set(provider, (cost.get(provider) ?? 0) + usd);
    },
    quotaExceeded: () => bump(quotaExceeded, '', () => ({})),
    setRedisUp: (up) => redisUp.set(up ? 1 : 0),
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
