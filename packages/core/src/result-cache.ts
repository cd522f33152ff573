import { cacheIdentity, type NormalizedRequestItem, type WebSearchResult } from '@openmates/contract';
import { LRUCache } from 'lru-cache';
import type { RedisLink } from './shared/redis-link.ts';

/**
 * A cached successful call: sanitized results (bounded to count), the provider's suggestions, and
 * the group's `more` and `altered_query` (already clean). What a cache hands out is read, never
 * changed (the in-process cache hands out its frozen entry).
 */
export interface CachedCall {
  results: readonly WebSearchResult[];
  suggestions: readonly unknown[];
  more: boolean;
  altered_query?: string;
}

/**
 * The response cache, keyed by the provider's identity (its id and configuration) and every option
 * that changes what the provider returns, never the caller's id. Only successes are stored, already
 * sanitized. A cache that cannot answer (Redis down) misses: it never fails a search.
 */
export interface ResultCache {
  get(item: NormalizedRequestItem): Promise<CachedCall | undefined>;
  set(item: NormalizedRequestItem, value: CachedCall): Promise<void>;
  clear(): void;
}

/** Most calls kept; each holds at most 20 bounded results, so this stays within a few tens of MB. */
const MAX_ENTRIES = 1000;

/**
 * A deep copy of JSON data (strings, numbers, booleans, null, arrays, plain objects; a property
 * holding `undefined` is kept), frozen all the way down: `structuredClone` serializes and
 * deserializes, and was the largest item in a profile of cache hits.
 */
export function frozenCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  const out: Record<string, unknown> = {};
  for (const key in value) out[key] = frozenCopy((value as Record<string, unknown>)[key]);
  return Object.freeze(out) as T;
}

/**
 * The in-process cache: an LRU with a TTL (lru-cache). An entry is a frozen copy of what was
 * stored, made once: a hit hands out the entry itself, and no caller can change it through what it
 * was handed. `providerIdentity` tells providers (and their configurations) apart.
 */
export function createMemoryResultCache(ttlSeconds: number, providerIdentity: string): ResultCache {
  const lru = new LRUCache<string, CachedCall>({ max: MAX_ENTRIES, ttl: ttlSeconds * 1000 });
  // A frozen item (the engine's, for a body validated before) keeps its key: it cannot change.
  const keys = new WeakMap<NormalizedRequestItem, string>();
  const key = (item: NormalizedRequestItem) => {
    let known = keys.get(item);
    if (known !== undefined) return known;
    known = `${providerIdentity}\u0000${cacheIdentity(item)}`;
    if (Object.isFrozen(item)) keys.set(item, known);
    return known;
  };
  return {
    async get(item) {
      return lru.get(key(item));
    },
    async set(item, value) {
      lru.set(key(item), frozenCopy(value));
    },
    clear: () => lru.clear(),
  };
}

/**
 * The cache every replica shares (ADR 0012, docs/deploy.md): `{prefix}cache:{HMAC(provider identity, item)}` with
 * the TTL, holding `{ results, suggestions, more, altered_query }` as JSON. The key is an HMAC under the deployment's
 * secret, so Redis never holds query text, keys or caller ids; a value holds only what a provider
 * answered, sanitized. While Redis is down the cache misses and writes are dropped.
 */
export function createRedisResultCache(ttlSeconds: number, providerIdentity: string, link: RedisLink): ResultCache {
  const key = (item: NormalizedRequestItem) =>
    `${link.prefix}cache:${link.hmac(providerIdentity, cacheIdentity(item))}`;
  return {
    async get(item) {
      const text = await link.attempt((redis) => redis.get(key(item)), null);
      if (text === null) return undefined;
      try {
        const value = JSON.parse(text) as CachedCall;
        // An entry without a boolean `more` was written by an older version: a miss, so the group says it.
        return Array.isArray(value.results) && Array.isArray(value.suggestions) && typeof value.more === 'boolean'
          ? value
          : undefined;
      } catch {
        return undefined;
      }
    },
    async set(item, value) {
      const { results, suggestions, more, altered_query } = value;
      const text = JSON.stringify({
        results,
        suggestions,
        more,
        ...(altered_query === undefined ? {} : { altered_query }),
      });
      await link.attempt((redis) => redis.set(key(item), text, 'EX', ttlSeconds), null);
    },
    clear: () => {},
  };
}
