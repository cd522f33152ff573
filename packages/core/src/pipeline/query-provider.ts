import { BudgetSession } from '../budget.ts';
import { appliesFreshness, maxCallsPerQuery } from '../capabilities.ts';
import type { ProviderAnswer, ProviderQuery, SearchProvider } from '../provider.ts';
import { scopeOf } from '../scope-filter.ts';
import type { UpstreamGate } from '../upstream-gate.ts';
import { providerAnswer } from './call.ts';
import { type Clock, type Member, monotonicNow, realSleep } from './members.ts';

/** How `queryProvider` runs a query; every option has the engine's default. */
export interface QueryOptions {
  /** Aborts the call (default: never). */
  signal?: AbortSignal;
  /** Per call (default 10 s). */
  timeoutMs?: number;
  /** Default the real clocks. */
  clock?: Partial<Clock>;
  /** The provider's shared rate and 429 pauses (default none). */
  gate?: UpstreamGate;
  /** Another provider would stand behind this one (default false). */
  failover?: boolean;
  /** The calls the query may make, its first page included (default the provider's pages). */
  maxCalls?: number;
}

/**
 * One query through the call pipeline on one provider, without a cache or a chain: what a tool
 * (the search-quality benchmark) or a provider's own tests need of a provider's answer, with the
 * same timeouts, retries, paging and bounded read as a search. Its budget is the provider's pages.
 * Rejects with the ProviderError (or CallTimeout) the pipeline raised.
 */
export async function queryProvider(
  provider: SearchProvider,
  query: ProviderQuery,
  options: QueryOptions = {},
): Promise<ProviderAnswer> {
  const clock: Clock = {
    now: options.clock?.now ?? monotonicNow,
    sleep: options.clock?.sleep ?? realSleep,
    wallClock: options.clock?.wallClock ?? (() => Date.now()),
  };
  const member: Member = {
    provider,
    timeoutMs: options.timeoutMs ?? 10_000,
    cache: undefined,
    gate: options.gate,
    keepUndated: appliesFreshness(provider),
    flights: new Map(),
    unitUsd: undefined,
  };
  const budget = new BudgetSession({
    maxCalls: options.maxCalls ?? maxCallsPerQuery(provider),
    maxSources: Number.POSITIVE_INFINITY,
  });
  budget.debitCall();
  const run = { signal: options.signal ?? new AbortController().signal, budget, clock };
  const scope = scopeOf(query, clock.wallClock(), member.keepUndated);
  // Paging counts candidates by the engine's admission rules; nothing is redacted here.
  const rules = { filterTabloids: query.filter_tabloids, redact: (text: string) => text, scope };
  return providerAnswer(run, member, query, { rules, failover: options.failover ?? false, calls: { count: 1 } });
}
