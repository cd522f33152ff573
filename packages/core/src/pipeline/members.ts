import { appliesFreshness } from '../capabilities.ts';
import type { AnyEngineConfig } from '../config.ts';
import { unitPriceUsd } from '../prices.ts';
import type { SearchProvider } from '../provider.ts';
import { providerIdentity } from '../providers/registry.ts';
import { createMemoryResultCache, createRedisResultCache, type ResultCache } from '../result-cache.ts';
import type { RedisLink } from '../shared/redis-link.ts';
import { createMemoryUpstreamGate, createRedisUpstreamGate, type UpstreamGate } from '../upstream-gate.ts';
import type { CallOutcome } from './call.ts';
import type { Flights } from './flights.ts';

/** The clocks a search runs on; injectable so tests never depend on wall time or real waits. */
export interface Clock {
  /** Milliseconds since an arbitrary origin (default `monotonicNow`). */
  readonly now: () => number;
  /** Waits `ms`, or rejects with the signal's reason when it aborts first (default a real timer). */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Wall time in ms since the epoch, for time ranges (default `Date.now`). */
  readonly wallClock: () => number;
}

/** A provider of the chain with what the pipeline keeps for it alone: its timeout, cache and shared rate. */
export interface Member {
  readonly provider: SearchProvider;
  readonly timeoutMs: number;
  readonly cache: ResultCache | undefined;
  /** Its shared rate and 429 pauses (none for a provider that answers in process: no plan to respect). */
  readonly gate: UpstreamGate | undefined;
  /** Whether it applies `freshness` itself (so undated results are kept). */
  readonly keepUndated: boolean;
  /** Its calls in flight in this process, which an identical search waits for instead of calling (ADR 0134). */
  readonly flights: Flights<CallOutcome>;
  /** US dollars per billed unit (docs/usage-and-quotas.md); undefined when not priced. */
  readonly unitUsd: number | undefined;
}

/**
 * Milliseconds on the process's monotonic clock, as `performance.now` counts them but from another
 * origin: reading the `performance` global makes Node load perf_hooks (nine modules, at every
 * CLI cold start), where `process.hrtime` is at hand.
 */
export const monotonicNow = (): number => Number(process.hrtime.bigint()) / 1e6;

export const realSleep: Clock['sleep'] = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * The chain's members: each provider has its own timeout, cache entries and shared rate, since one
 * provider's plan or answers say nothing of another's. A chain of one reads the single-provider
 * settings.
 */
export function createMembers(
  config: AnyEngineConfig,
  chain: readonly SearchProvider[],
  clock: Clock,
  redis: RedisLink | undefined,
): Member[] {
  return chain.map((provider) => {
    const identity = providerIdentity(config, provider);
    const alone = chain.length === 1;
    const timeoutMs = alone
      ? config.providerTimeoutMs
      : (config.providerTimeoutsMs?.[provider.id] ?? config.providerTimeoutMs);
    const ratePerS = alone ? config.providerRatePerS : config.providerRatesPerS?.[provider.id];
    let cache: ResultCache | undefined;
    if (config.cacheTtlS > 0)
      cache = redis
        ? createRedisResultCache(config.cacheTtlS, identity, redis)
        : createMemoryResultCache(config.cacheTtlS, identity);
    let gate: UpstreamGate | undefined;
    if (!provider.capabilities.inProcess)
      gate = redis
        ? createRedisUpstreamGate(ratePerS, identity, redis, clock.now, clock.sleep)
        : createMemoryUpstreamGate(ratePerS, clock.now, clock.sleep);
    return {
      provider,
      timeoutMs,
      cache,
      gate,
      keepUndated: appliesFreshness(provider),
      flights: new Map(),
      unitUsd: unitPriceUsd(config, provider.id),
    };
  });
}
