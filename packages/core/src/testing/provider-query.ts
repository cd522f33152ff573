// What the providers' tests call a provider with.
import type { QueryOptions } from '../pipeline/query-provider.ts';
import type { ProviderQuery } from '../provider.ts';

/** A query as the engine hands it to a provider: the contract's defaults, ten results, then `extra`. */
export function testQuery(text: string, extra: Partial<ProviderQuery> = {}): ProviderQuery {
  return {
    id: 1,
    query: text,
    count: 10,
    country: 'US',
    safesearch: 'moderate',
    filter_tabloids: true,
    fetchCount: 10,
    ...extra,
  };
}

/** How a provider's tests run a query through the pipeline: a clock at 0 and a sleep that returns at once. */
export function testContext(
  signal: AbortSignal = new AbortController().signal,
): QueryOptions & { signal: AbortSignal } {
  return { signal, clock: { now: () => 0, sleep: async () => {} } };
}
