import type { NormalizedRequestItem, ProviderId, WebSearchResult } from '@openmates/contract';
import { LRUCache } from 'lru-cache';

/** A cached successful call: sanitized results (bounded to count) and the provider's suggestions. */
export interface CachedCall {
  results: WebSearchResult[];
  suggestions: unknown[];
}

export interface ResultCache {
  key(provider: ProviderId, item: NormalizedRequestItem): string;
  get(key: string): CachedCall | undefined;
  set(key: string, value: CachedCall): void;
  clear(): void;
}

/** Most calls kept; each holds at most 20 bounded results, so this stays within a few tens of MB. */
const MAX_ENTRIES = 1000;

/**
 * The response cache: an LRU with a TTL (lru-cache), keyed by provider and every option that
 * changes what the provider returns (never the caller's id). Only successes are stored; the
 * values are already sanitized. Entries are frozen copies so no caller can change them.
 */
export function createResultCache(ttlSeconds: number): ResultCache {
  const lru = new LRUCache<string, CachedCall>({ max: MAX_ENTRIES, ttl: ttlSeconds * 1000 });
  return {
    key: (provider, item) =>
      JSON.stringify([
        provider,
        item.query,
        item.count,
        item.country,
        item.search_lang ?? null,
        item.safesearch,
        item.filter_tabloids,
      ]),
    get(key) {
      const hit = lru.get(key);
      return hit && { results: structuredClone(hit.results), suggestions: [...hit.suggestions] };
    },
    set(key, value) {
      lru.set(key, structuredClone(value));
    },
    clear: () => lru.clear(),
  };
}
