import type { GroupErrorCode, NormalizedRequestItem } from '@openmates/contract';
import { alteredQueryOf } from '../altered-query.ts';
import type { BudgetSession } from '../budget.ts';
import { type AdmissionRules, buildResults } from '../build-results.ts';
import type { CallMeter } from '../call-meter.ts';
import { EngineError } from '../engine-error.ts';
import type { Logger } from '../logger.ts';
import { newestFirst } from '../news-order.ts';
import type { ProviderAnswer, ProviderQuery } from '../provider.ts';
import { ProviderError, ProviderNotConfiguredError } from '../provider.ts';
import { CALL_TIMEOUT } from '../providers/shared/status-errors.ts';
import type { CachedCall } from '../result-cache.ts';
import { scopeOf } from '../scope-filter.ts';
import type { Clock, Member } from './members.ts';
import { type Meter, meterAnswer } from './meter.ts';
import { fetchPages, type PagingRun } from './pages.ts';
import { CallTimeout, timed } from './timed.ts';
import { fetchCountFor } from './window.ts';

/**
 * What the engine reports as it works, for metrics. Every argument is from a closed set (a provider
 * id, `ok`, a group error code, `aborted`, `hit`, `miss`) or a duration: never query text.
 */
export interface EngineObserver {
  /** A provider call ended: `outcome` is `ok`, the group error code, or `aborted` (the caller left). */
  providerCall(provider: string, outcome: string, seconds: number): void;
  /** A response cache lookup (only while the cache is on). */
  cache(result: 'hit' | 'miss'): void;
  /** A result group was settled: `ok` or its error code. */
  group(code: string): void;
}

/** One search as its calls see it: the caller's signal, its log and budget, the clocks. */
export interface SearchRun {
  readonly signal: AbortSignal;
  readonly log: Logger;
  readonly budget: BudgetSession;
  readonly clock: Clock;
  readonly redact: (text: string) => string;
  readonly observer: EngineObserver | undefined;
  /** How many providers the chain has (log lines name the provider only when several may answer). */
  readonly chainLength: number;
  /** Debits each provider call before it is sent (ADR 0136); undefined: calls are not metered. */
  readonly meter: CallMeter | undefined;
}

/** A group error, with the wait a rate limit asked for. */
export type CallFailure = { error: { code: GroupErrorCode; message: string }; retryAfterMs?: number };
export type CallOutcome = CachedCall | CallFailure;

/** Which provider a line is about, when several may answer. */
const who = (run: SearchRun, member: Member) => (run.chainLength > 1 ? { provider: member.provider.id } : {});

/** `member`'s cache entry for `item`, counted and logged (undefined: a miss, or no cache). */
export async function lookup(
  run: SearchRun,
  member: Member,
  item: NormalizedRequestItem,
  index: number,
): Promise<CachedCall | undefined> {
  const { cache } = member;
  const cached = await cache?.get(item);
  if (cache) run.observer?.cache(cached ? 'hit' : 'miss');
  if (cached)
    run.log.info(
      { event: 'provider_call', group: index, ...who(run, member), cache: 'hit', results: cached.results.length },
      'cache hit',
    );
  return cached;
}

/** The provider's answer: its run hook under the call's timeout (one call), or its pages; `meter` counts them. */
export async function providerAnswer(
  run: PagingRun,
  member: Member,
  query: ProviderQuery,
  options: { rules: AdmissionRules; failover: boolean; calls: { count: number }; meter?: Meter },
): Promise<ProviderAnswer> {
  const { translator } = member.provider;
  if (translator.kind === 'http') return fetchPages(run, member, query, options);
  const wallClock = run.clock.wallClock();
  const { meter } = options;
  if (meter) meter.calls += 1;
  const answer = await timed(member.timeoutMs, run.signal, (signal) => translator.run(query, { signal, wallClock }));
  if (meter) meterAnswer(meter, answer.usage);
  return answer;
}

/**
 * One call of `member` for `item` (the first page already debited): its cache, its shared rate
 * (a turn is worth waiting for only while a quarter of the timeout is left), its answer, the
 * results built and cached. Resolves to the results or a group error; `failover`: another provider
 * stands behind this one, so a rate limit fails at once instead of being waited out. `looked`: the
 * cache was already asked. `meter` counts the calls made and what they bill.
 */
export async function callMember(
  run: SearchRun,
  member: Member,
  item: NormalizedRequestItem,
  index: number,
  options: { failover: boolean; looked?: { cached: CachedCall | undefined }; meter?: Meter },
): Promise<CallOutcome> {
  const cached = options.looked ? options.looked.cached : await lookup(run, member, item, index);
  if (cached) return cached;
  // The caller may have left while the cache was asked (or an earlier provider failed): no call then.
  run.signal.throwIfAborted();
  const { clock } = run;
  const started = clock.now();
  const scope = scopeOf(item, clock.wallClock(), member.keepUndated);
  // The rules result building admits by: paging counts what passes them (ADR 0100).
  const rules: AdmissionRules = { filterTabloids: item.filter_tabloids, redact: run.redact, scope };
  const calls = { count: 1 };
  // The send step: the caller's quota is debited now, before anything is sent (ADR 0136).
  const refused = await run.meter?.debit(member.provider.id);
  if (refused) {
    run.log.info({ event: 'provider_call', group: index, ...who(run, member), code: 'quota_exceeded' }, 'quota spent');
    return { error: { code: 'quota_exceeded', message: refused.message }, retryAfterMs: refused.retryAfterMs };
  }
  try {
    await member.gate?.acquire(started + (member.timeoutMs * 3) / 4 - clock.now(), run.signal);
    const query = { ...item, fetchCount: fetchCountFor(item) };
    const answer = await providerAnswer(run, member, query, {
      rules,
      failover: options.failover,
      calls,
      ...(options.meter ? { meter: options.meter } : {}),
    });
    return await answered(run, member, item, index, { answer, rules, started, calls: calls.count });
  } catch (error) {
    return failed(run, member, index, error, started);
  }
}

/** Builds, caches, counts and logs a provider's answer. */
async function answered(
  run: SearchRun,
  member: Member,
  item: NormalizedRequestItem,
  index: number,
  call: { answer: ProviderAnswer; rules: AdmissionRules; started: number; calls: number },
): Promise<CachedCall> {
  const { answer, rules, started } = call;
  // Only the first `count` results can be admitted (the budget session's cap): no more are built.
  const candidates = Array.isArray(answer.candidates) ? answer.candidates : [];
  const { results, stats } = buildResults(item.topic === 'news' ? newestFirst(candidates) : candidates, {
    ...rules,
    extraSnippets: item.extra_snippets === true,
    limit: item.count,
  });
  const altered = alteredQueryOf(answer.altered, item, run.redact);
  const value: CachedCall = {
    results,
    suggestions: Array.isArray(answer.suggestions) ? answer.suggestions : [],
    more: answer.more === true,
    ...(altered === undefined ? {} : { altered_query: altered }),
  };
  await member.cache?.set(item, value);
  const elapsed = run.clock.now() - started;
  run.observer?.providerCall(member.provider.id, 'ok', elapsed / 1000);
  run.log.info(
    {
      event: 'provider_call',
      group: index,
      ...who(run, member),
      cache: member.cache ? 'miss' : 'off',
      calls: call.calls,
      elapsed_ms: Math.round(elapsed),
      ...stats,
      results: value.results.length,
    },
    'provider answered',
  );
  return value;
}

/** A failed call as its group error, counted and logged; rethrows what is not the provider's failure. */
function failed(run: SearchRun, member: Member, index: number, error: unknown, started: number): CallFailure {
  const elapsed_ms = Math.round(run.clock.now() - started);
  const line = { event: 'provider_call', group: index, ...who(run, member) };
  const outcome = run.signal.aborted
    ? 'aborted'
    : error instanceof CallTimeout
      ? 'provider_timeout'
      : error instanceof ProviderError
        ? error.code
        : undefined;
  if (outcome !== undefined) run.observer?.providerCall(member.provider.id, outcome, elapsed_ms / 1000);
  if (run.signal.aborted) throw run.signal.reason;
  if (error instanceof CallTimeout) {
    run.log.warn({ ...line, code: 'provider_timeout', elapsed_ms }, 'provider timed out');
    return { error: { ...CALL_TIMEOUT } };
  }
  if (error instanceof ProviderError) {
    run.log.warn({ ...line, code: error.code, status: error.status, elapsed_ms }, 'provider failed');
    const failure = { error: { code: error.code, message: run.redact(error.message) } };
    return error.retryAfterMs === undefined ? failure : { ...failure, retryAfterMs: error.retryAfterMs };
  }
  if (error instanceof ProviderNotConfiguredError) {
    // The reason (an index path, say) is for the operator's log; the caller gets the provider's public message.
    const reason = error.cause instanceof Error ? error.cause.message : error.message;
    run.log.error({ ...line, code: 'not_configured', reason: run.redact(reason) }, 'provider not configured');
    // In a chain, a provider that cannot serve is unavailable to this group (the next one, if any,
    // takes it); a provider on its own cannot serve the request at all (ADR 0073).
    if (run.chainLength > 1) return { error: { code: 'provider_unavailable', message: run.redact(error.message) } };
    throw new EngineError('not_configured', run.redact(error.message), { cause: error });
  }
  throw error;
}
