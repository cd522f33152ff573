import {
  ASSERTION_IDS,
  CONTRACT_FINGERPRINT,
  DEFAULT_COUNT,
  type GroupErrorCode,
  type Issue,
  MAX_BATCH_ITEMS,
  MAX_BODY_BYTES,
  MAX_COUNT,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_QUERY_LENGTH,
  MAX_RESULTS_PER_GROUP,
  MIN_BATCH_ITEMS,
  MIN_COUNT,
  type NormalizedRequestItem,
  normalizeRequest,
  type ResultGroup,
  type SkillInfo,
  type WebSearchResponse,
} from '@openmates/contract';
import { BudgetSession } from './budget.ts';
import { buildResults, mergeSuggestions } from './build-results.ts';
import { configSecrets, type EngineConfig } from './config.ts';
import { describeIssues, EngineError } from './engine-error.ts';
import { fitResponseJson, ResponseTooLargeError } from './fit-response.ts';
import { createRedactor, truncate } from './hygiene/index.ts';
import { createLogger, type Logger } from './logger.ts';
import { type ProviderContext, ProviderError, ProviderNotConfiguredError, type SearchProvider } from './provider.ts';
import { providerIdentity } from './providers/registry.ts';
import { newRequestId } from './request-id.ts';
import { type CachedCall, createMemoryResultCache, createRedisResultCache, type ResultCache } from './result-cache.ts';
import { appliesFreshness, candidateInScope, scopeOf } from './scope-filter.ts';
import type { RedisLink } from './shared/redis-link.ts';
import {
  createMemoryUpstreamGate,
  createRedisUpstreamGate,
  rateLimitedError,
  type UpstreamGate,
} from './upstream-gate.ts';

export interface EngineOptions {
  config: EngineConfig;
  /**
   * The provider that answers, or the chain in order (`createConfiguredProviders`): each group goes
   * to the first, and to the next one only when a call fails as the provider's fault.
   */
  provider: SearchProvider | readonly SearchProvider[];
  /** Structured logger; default JSON lines on stderr at `config.logLevel`. */
  logger?: Logger;
  /** Secrets beyond the configuration's (for example the server's API keys), redacted everywhere. */
  extraSecrets?: readonly string[];
  /** Told about provider calls, cache lookups and finished groups (the server's metrics). */
  observer?: EngineObserver;
  /** Injectable clock and sleep for tests; default `performance.now` and a real timer. */
  now?: () => number;
  sleep?: ProviderContext['sleep'];
  /** Wall time in ms since the epoch, for time ranges ("the last 7 days"); default `Date.now`. */
  wallClock?: () => number;
  /**
   * The shared Redis (`connectRedis(config.redis, …)`), when replicas share state; the engine then
   * keeps its cache, the provider's rate and its 429 pause there. Default: all in process.
   */
  redis?: RedisLink;
}

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

export interface SearchOptions {
  /** Aborts every call of the batch; the search rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Correlates log lines and the response; default a new UUID. */
  requestId?: string;
  /**
   * Called once per item as its group finishes, in completion order, with the group as admitted
   * (sanitized and bounded; provisional: fitting may still cut results from the final response).
   */
  onGroup?: (group: ResultGroup, index: number) => void;
}

export interface Engine {
  readonly config: EngineConfig;
  /** The first provider of the chain: requests are validated against it, skill info describes it. */
  readonly provider: SearchProvider;
  /** The whole chain, in order (one provider: `[provider]`). */
  readonly providers: readonly SearchProvider[];
  readonly logger: Logger;
  /**
   * The engine's one entry point. Runs a batch: validates (contract and provider rules) before any
   * call, fans the queries out concurrently, and resolves to the WebSearchResponse (failed groups
   * carry errors) with its `JSON.stringify` as fitting measured it, so a caller that sends it on
   * (the REST server) does not serialize it a second time. Rejects with an EngineError for an
   * invalid request (400), an unusable provider (503) or a bug (500).
   */
  search(input: unknown, options?: SearchOptions): Promise<SearchJson>;
  /** The shared Redis, when configured (its state is `/healthz`'s `redis`). */
  readonly redis: RedisLink | undefined;
  /** Replaces every configured secret in `text`. */
  redact(text: string): string;
  /** Skill info for `GET /v1/apps/web/skills/search`. */
  skillInfo(version: string): SkillInfo;
  close(): Promise<void>;
}

/** A search's response, the JSON that fitting measured, and the wait to advise when only rate limits failed it. */
export interface SearchJson {
  response: WebSearchResponse;
  json: string;
  /** Seconds before a retry can succeed, when every group failed as `provider_rate_limited`. */
  retryAfterS?: number;
}

/**
 * The group error codes after which a group goes to the next provider of the chain: the provider's
 * own failures. A validation error never reaches a provider, and a caller that aborted gets nothing.
 */
const FAILOVER_CODES: ReadonlySet<GroupErrorCode> = new Set([
  'provider_rate_limited',
  'provider_unavailable',
  'provider_timeout',
  'provider_error',
  'provider_auth',
]);

/** A provider of the chain with what the engine keeps for it alone: its timeout, cache and shared rate. */
interface Member {
  readonly provider: SearchProvider;
  readonly timeoutMs: number;
  readonly cache: ResultCache | undefined;
  readonly gate: UpstreamGate | undefined;
  /** Whether it applies `freshness` itself (so undated results are kept). */
  readonly keepUndated: boolean;
}

/** A group error, with the wait a rate limit asked for. */
type CallFailure = { error: { code: GroupErrorCode; message: string }; retryAfterMs?: number };

/** A provider call ran past the engine's timeout (distinguished from the caller aborting). */
class CallTimeout extends Error {
  override readonly name = 'CallTimeout';
}

const defaultSleep: ProviderContext['sleep'] = (ms, signal) =>
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
 * Asks the provider for twice `count` when tabloids will be filtered out afterwards, so that
 * `count` is still met when up to half the hits are tabloids (providers page past 20 as needed).
 */
export function fetchCountFor(item: NormalizedRequestItem): number {
  return item.filter_tabloids ? item.count * 2 : item.count;
}

function formatId(id: string | number): string {
  return typeof id === 'number' ? String(id) : JSON.stringify(id);
}

/** The response-level error: which groups failed, and the first failure's message. */
function summarizeFailures(groups: readonly ResultGroup[]): { error: string; code: GroupErrorCode } | undefined {
  const failed = groups.filter((g) => g.error !== undefined);
  const first = failed[0]?.error;
  if (!first) return undefined;
  const scope = failed.length === groups.length ? 'every query' : `${failed.length} of ${groups.length} queries`;
  const ids = failed.map((g) => formatId(g.id)).join(', ');
  const error = truncate(
    `The search failed for ${scope} (id${failed.length === 1 ? '' : 's'} ${ids}): ${first.message}`,
    MAX_ERROR_MESSAGE_LENGTH,
  );
  return { error, code: first.code };
}

/** Creates the engine every surface calls. */
export function createEngine(options: EngineOptions): Engine {
  const { config } = options;
  const chain: readonly SearchProvider[] = Array.isArray(options.provider)
    ? [...(options.provider as readonly SearchProvider[])]
    : [options.provider as SearchProvider];
  if (chain.length === 0) throw new TypeError('createEngine needs at least one provider');
  const provider = chain[0] as SearchProvider;
  const redact = createRedactor([...configSecrets(config), ...(options.extraSecrets ?? [])]);
  const logger = options.logger ?? createLogger({ level: config.logLevel, redact });
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? defaultSleep;
  const wallClock = options.wallClock ?? (() => Date.now());
  const observer = options.observer;
  const { redis } = options;
  // Each provider has its own timeout, cache entries and shared rate: one provider's plan or answers
  // say nothing of another's. A chain of one reads the single-provider settings as before.
  const members: Member[] = chain.map((member) => {
    const identity = providerIdentity(config, member);
    const timeoutMs =
      chain.length === 1
        ? config.providerTimeoutMs
        : (config.providerTimeoutsMs?.[member.id] ?? config.providerTimeoutMs);
    const ratePerS =
      chain.length === 1 ? config.providerRatePerS : (config.providerRatesPerS?.[member.id] ?? undefined);
    let memberCache: ResultCache | undefined;
    if (config.cacheTtlS > 0)
      memberCache = redis
        ? createRedisResultCache(config.cacheTtlS, identity, redis)
        : createMemoryResultCache(config.cacheTtlS, identity);
    // The local index has no plan to respect: only third parties are gated.
    const gate: UpstreamGate | undefined =
      member.id === 'local'
        ? undefined
        : redis
          ? createRedisUpstreamGate(ratePerS, identity, redis, now, sleep)
          : createMemoryUpstreamGate(ratePerS, now, sleep);
    return { provider: member, timeoutMs, cache: memberCache, gate, keepUndated: appliesFreshness(member) };
  });
  function validate(input: unknown): NormalizedRequestItem[] {
    const normalized = normalizeRequest(input);
    if (!normalized.ok)
      throw new EngineError('invalid_request', describeIssues(normalized.issues), { issues: normalized.issues });
    const items = normalized.request.requests;
    const issues: Issue[] = items.flatMap((item, index) => provider.validate(item, index));
    if (issues.length > 0) throw new EngineError('invalid_request', describeIssues(issues), { issues });
    return items;
  }

  /** `member`'s cache entry for `item`, counted and logged (undefined: a miss, or no cache). */
  async function lookup(
    member: Member,
    item: NormalizedRequestItem,
    index: number,
    log: Logger,
  ): Promise<CachedCall | undefined> {
    const { cache } = member;
    const cached = await cache?.get(item);
    if (cache) observer?.cache(cached ? 'hit' : 'miss');
    if (cached) {
      const who = members.length > 1 ? { provider: member.provider.id } : {};
      log.info(
        { event: 'provider_call', group: index, ...who, cache: 'hit', results: cached.results.length },
        'cache hit',
      );
    }
    return cached;
  }

  /**
   * One call of `member` under its per-call timeout (`looked`: its cache was already asked). Resolves to results or a group error.
   * `failover`: another provider stands behind this one for the group, so the provider skips its
   * own short retries and fails at once.
   */
  async function call(
    member: Member,
    item: NormalizedRequestItem,
    index: number,
    signal: AbortSignal,
    log: Logger,
    budget: BudgetSession,
    failover: boolean,
    looked?: { cached: CachedCall | undefined },
  ): Promise<CachedCall | CallFailure> {
    const { provider, cache, gate, timeoutMs } = member;
    // Which provider a line is about, when several may answer.
    const who = members.length > 1 ? { provider: provider.id } : {};
    const cached = looked ? looked.cached : await lookup(member, item, index, log);
    if (cached) return cached;
    // The caller may have left while the cache was asked (or an earlier provider failed): no call then.
    signal.throwIfAborted();
    const started = now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new CallTimeout()), timeoutMs);
    let calls = 1;
    let pageTimer: ReturnType<typeof setTimeout> | undefined;
    // A further page is a call of its own: debited from the budget, under its own per-call timeout
    // (which fails that page only; the first call's timer stops, its call is over).
    const nextCall = async () => {
      if (controller.signal.aborted || !budget.debitCall()) return undefined;
      // A page waits for the provider's shared rate like any call; past its turn, paging ends and
      // the pages already read are kept.
      try {
        await context.acquire?.();
      } catch (error) {
        if (error instanceof ProviderError) return undefined;
        throw error;
      }
      calls += 1;
      clearTimeout(timer);
      clearTimeout(pageTimer);
      const page = new AbortController();
      pageTimer = setTimeout(() => page.abort(new CallTimeout()), timeoutMs);
      return AbortSignal.any([controller.signal, page.signal]);
    };
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const deadline = started + timeoutMs;
    const context: ProviderContext = { signal: controller.signal, now, sleep, deadline, nextCall, wallClock };
    if (failover) context.failover = true;
    // The scope is enforced below on whatever comes back; the provider gets it to page with.
    const scope = scopeOf(item, wallClock(), member.keepUndated);
    if (scope) context.inScope = candidateInScope(scope);
    if (gate) {
      // A turn is worth waiting for only if a quarter of the timeout is still left for the call.
      const lastStart = deadline - timeoutMs / 4;
      context.acquire = () => gate.acquire(lastStart - now(), controller.signal);
      context.pause = (ms) => gate.pause(ms);
    }
    try {
      await context.acquire?.();
      const answer = await provider.search({ ...item, fetchCount: fetchCountFor(item) }, context);
      // Only the first `count` results can be admitted (the budget session's cap): no more are built.
      const { results, stats } = buildResults(Array.isArray(answer.candidates) ? answer.candidates : [], {
        filterTabloids: item.filter_tabloids,
        redact,
        limit: item.count,
        ...(scope ? { scope } : {}),
      });
      const value = {
        results,
        suggestions: Array.isArray(answer.suggestions) ? answer.suggestions : [],
      };
      await cache?.set(item, value);
      observer?.providerCall(provider.id, 'ok', (now() - started) / 1000);
      log.info(
        {
          event: 'provider_call',
          group: index,
          ...who,
          cache: cache ? 'miss' : 'off',
          calls,
          elapsed_ms: Math.round(now() - started),
          ...stats,
          results: value.results.length,
        },
        'provider answered',
      );
      return value;
    } catch (error) {
      const elapsed_ms = Math.round(now() - started);
      const outcome = signal.aborted
        ? 'aborted'
        : controller.signal.reason instanceof CallTimeout
          ? 'provider_timeout'
          : error instanceof ProviderError
            ? error.code
            : undefined;
      if (outcome !== undefined) observer?.providerCall(provider.id, outcome, (now() - started) / 1000);
      if (signal.aborted) throw signal.reason;
      if (controller.signal.reason instanceof CallTimeout || error instanceof CallTimeout) {
        log.warn(
          { event: 'provider_call', group: index, ...who, code: 'provider_timeout', elapsed_ms },
          'provider timed out',
        );
        return { error: { code: 'provider_timeout', message: 'The search provider did not answer in time.' } };
      }
      if (error instanceof ProviderError) {
        log.warn(
          { event: 'provider_call', group: index, ...who, code: error.code, status: error.status, elapsed_ms },
          'provider failed',
        );
        const failed = { error: { code: error.code, message: redact(error.message) } };
        return error.retryAfterMs === undefined ? failed : { ...failed, retryAfterMs: error.retryAfterMs };
      }
      if (error instanceof ProviderNotConfiguredError) {
        // The reason (an index path, say) is for the operator's log; the caller gets the provider's public message.
        const reason = error.cause instanceof Error ? error.cause.message : error.message;
        log.error(
          { event: 'provider_call', group: index, ...who, code: 'not_configured', reason: redact(reason) },
          'provider not configured',
        );
        // In a chain, a provider that cannot serve is unavailable to this group (the next one, if
        // any, takes it); a provider on its own cannot serve the request at all (ADR 0073).
        if (members.length > 1) return { error: { code: 'provider_unavailable', message: redact(error.message) } };
        throw new EngineError('not_configured', redact(error.message), { cause: error });
      }
      throw error;
    } finally {
      clearTimeout(timer);
      clearTimeout(pageTimer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * One group through the chain: the first provider, then the next one while a call fails as the
   * provider's fault (FAILOVER_CODES) and the request's deadline has not passed. A later provider
   * whose own rules refuse the item (an option it cannot apply) is skipped, and so is one paused by
   * a shared 429 while another stands behind it: no call, nothing debited. Every call made debits
   * the budget. Resolves to the last outcome and the member it came from (undefined: none was tried).
   */
  async function settle(
    item: NormalizedRequestItem,
    index: number,
    signal: AbortSignal,
    log: Logger,
    budget: BudgetSession,
    started: number,
  ): Promise<{ outcome: CachedCall | CallFailure; member: number | undefined }> {
    let last: { outcome: CachedCall | CallFailure; member: number | undefined } | undefined;
    for (let m = 0; m < members.length; m += 1) {
      const member = members[m] as Member;
      const id = member.provider.id;
      const hasNext = m < members.length - 1;
      if (m > 0) {
        // A caller that left gets nothing more started (a running call ends on the abort itself).
        signal.throwIfAborted();
        if (now() - started >= config.requestDeadlineMs) {
          log.info({ event: 'failover', group: index, provider: id, skipped: 'deadline' }, 'request deadline passed');
          break;
        }
        if (member.provider.validate(item, index).length > 0) {
          log.info(
            { event: 'failover', group: index, provider: id, skipped: 'options' },
            'provider cannot apply the options',
          );
          continue;
        }
      }
      // A pause only keeps calls away: a cached answer is still served (asked first, then no more).
      let looked: { cached: CachedCall | undefined } | undefined;
      if (hasNext && member.gate) {
        looked = { cached: await lookup(member, item, index, log) };
        const pausedMs = looked.cached ? 0 : await member.gate.pausedFor();
        if (pausedMs > 0) {
          log.info({ event: 'failover', group: index, provider: id, skipped: 'paused' }, 'provider paused');
          const refused = rateLimitedError(pausedMs);
          last = {
            outcome: { error: { code: refused.code, message: refused.message }, retryAfterMs: pausedMs },
            member: m,
          };
          continue;
        }
      }
      if (!budget.debitCall()) {
        if (last === undefined)
          last = {
            outcome: { error: { code: 'provider_error', message: 'The call budget of this request is spent.' } },
            member: m,
          };
        else log.info({ event: 'failover', group: index, provider: id, skipped: 'budget' }, 'call budget spent');
        break;
      }
      const outcome = await call(member, item, index, signal, log, budget, hasNext, looked);
      last = { outcome, member: m };
      if (!('error' in outcome) || !hasNext || !FAILOVER_CODES.has(outcome.error.code)) break;
      if (outcome.error.code === 'provider_auth')
        log.warn(
          { event: 'failover', group: index, provider: id, code: outcome.error.code },
          'provider refused its credentials; the group goes to the next provider',
        );
    }
    return (
      last ?? {
        outcome: { error: { code: 'provider_error', message: 'No listed provider could take this query.' } },
        member: undefined,
      }
    );
  }

  /** A search's request id, its log, and when it began. */
  function begin(searchOptions: SearchOptions): { requestId: string; log: Logger; started: number } {
    const requestId = searchOptions.requestId ?? newRequestId();
    const binding = members.length > 1 ? { providers: chain.map((p) => p.id).join(',') } : { provider: provider.id };
    return { requestId, log: logger.child({ request_id: requestId, ...binding }), started: now() };
  }

  /** `validate`, with the refusal logged. */
  function validateLogged(input: unknown, log: Logger): NormalizedRequestItem[] {
    try {
      return validate(input);
    } catch (error) {
      if (error instanceof EngineError)
        log.info({ event: 'search', code: error.code, issues: error.issues?.length ?? 0 }, 'request refused');
      throw error;
    }
  }

  async function search(input: unknown, searchOptions: SearchOptions = {}): Promise<SearchJson> {
    const begun = begin(searchOptions);
    return answer(validateLogged(input, begun.log), begun, searchOptions);
  }

  /** Answers validated items: the calls (or cache hits), admission, fitting and the log line. */
  async function answer(
    items: readonly NormalizedRequestItem[],
    { requestId, log, started }: { requestId: string; log: Logger; started: number },
    searchOptions: SearchOptions,
  ): Promise<SearchJson> {
    const signal = searchOptions.signal ?? new AbortController().signal;
    signal.throwIfAborted();
    // The ceiling counts every provider of the chain: a group may call each of them.
    const budget = new BudgetSession({
      maxCalls: MAX_BATCH_ITEMS * members.reduce((sum, m) => sum + (m.provider.maxCallsPerQuery ?? 1), 0),
      maxSources: config.maxSources,
    });
    const answeredBy: (number | undefined)[] = items.map(() => undefined);
    const groups: ResultGroup[] = items.map((item) => ({ id: item.id, results: [] }));
    const retryAfterMs: (number | undefined)[] = items.map(() => undefined);
    const suggestions: { query: string; suggestions: unknown[] }[] = items.map((item) => ({
      query: item.query,
      suggestions: [],
    }));
    try {
      await Promise.all(
        items.map(async (item, index) => {
          const group = groups[index] as ResultGroup;
          const { outcome, member } = await settle(item, index, signal, log, budget, started);
          answeredBy[index] = member;
          // Who answered (the last one tried, for a failed group): only said when several may answer.
          if (members.length > 1) group.provider = redact((members[member ?? 0] as Member).provider.name);
          // Admission runs synchronously when the call completes: completion order, never overbooked.
          if ('error' in outcome) {
            group.error = outcome.error;
            retryAfterMs[index] = outcome.retryAfterMs;
          } else {
            const { admitted, cut } = budget.admit(outcome.results, item.count);
            group.results = admitted;
            if (cut > 0) group.sources_cut = cut;
            (suggestions[index] as { suggestions: unknown[] }).suggestions = outcome.suggestions;
          }
          searchOptions.onGroup?.({ ...group, results: [...group.results] }, index);
        }),
      );
    } catch (error) {
      if (error instanceof EngineError || signal.aborted) throw error;
      log.error(
        { event: 'search', code: 'internal_error', error_name: error instanceof Error ? error.name : typeof error },
        'internal error',
      );
      throw new EngineError('internal_error', undefined, { cause: error });
    }
    if (observer) for (const group of groups) observer.group(group.error?.code ?? 'ok');
    const response: WebSearchResponse = { results: groups, provider: redact(answeredNames(groups, answeredBy)) };
    const merged = mergeSuggestions(suggestions, redact);
    if (merged.length > 0) response.suggestions_follow_up_requests = merged;
    const failure = summarizeFailures(groups);
    if (failure) {
      response.error = redact(failure.error);
      response.code = failure.code;
    }
    response.request_id = requestId;
    response.budget = {
      calls_used: budget.callsUsed,
      max_sources: budget.maxSources,
      sources_admitted: budget.sourcesAdmitted,
      sources_cut: budget.sourcesCut,
      notes_fitted_out: 0,
      suggestions_fitted_out: 0,
      results_fitted_out: 0,
    };
    let fitted: WebSearchResponse;
    let json: string;
    try {
      ({ response: fitted, json } = fitResponseJson(response, config.maxResponseBytes));
    } catch (error) {
      if (!(error instanceof ResponseTooLargeError)) throw error;
      log.error(
        { event: 'search', code: 'internal_error', size: error.size, max_bytes: error.maxBytes },
        'response does not fit even without results',
      );
      throw new EngineError('internal_error', undefined, { cause: error });
    }
    const finished = {
      event: 'search',
      groups: groups.length,
      failed: groups.filter((g) => g.error).length,
      code: failure?.code,
      results: fitted.results.reduce((n, g) => n + g.results.length, 0),
      sources_admitted: budget.sourcesAdmitted,
      sources_cut: budget.sourcesCut,
      results_fitted_out: fitted.budget?.results_fitted_out,
    };
    log.info({ ...finished, elapsed_ms: Math.round(now() - started) }, 'search finished');
    const rateLimitedOnly = groups.every((g) => g.error?.code === 'provider_rate_limited');
    const wait = Math.max(...retryAfterMs.map((ms) => ms ?? 0));
    return rateLimitedOnly
      ? { response: fitted, json, retryAfterS: Math.max(1, Math.ceil(wait / 1000)) }
      : { response: fitted, json };
  }

  /**
   * The response's `provider`: the names of the providers that answered a group, in request order,
   * each once, joined with ", "; the first provider's name when none answered.
   */
  function answeredNames(groups: readonly ResultGroup[], answeredBy: readonly (number | undefined)[]): string {
    if (members.length === 1) return provider.name;
    const names: string[] = [];
    groups.forEach((group, index) => {
      const member = answeredBy[index];
      if (group.error !== undefined || member === undefined) return;
      const name = (members[member] as Member).provider.name;
      if (!names.includes(name)) names.push(name);
    });
    return names.length > 0 ? names.join(', ') : provider.name;
  }

  function skillInfo(version: string): SkillInfo {
    const info: SkillInfo = {
      app: 'web',
      skill: 'search',
      description: 'Search the public web and get sanitized, attributable result groups.',
      version,
      fingerprint: CONTRACT_FINGERPRINT,
      provider: { id: provider.id, name: provider.name, recipient: provider.recipient },
      providers: chain.map((p) => ({ id: p.id, name: p.name, recipient: p.recipient })),
      limits: {
        min_batch_items: MIN_BATCH_ITEMS,
        max_batch_items: MAX_BATCH_ITEMS,
        max_query_length: MAX_QUERY_LENGTH,
        min_count: MIN_COUNT,
        max_count: MAX_COUNT,
        default_count: DEFAULT_COUNT,
        max_results_per_group: MAX_RESULTS_PER_GROUP,
        max_body_bytes: MAX_BODY_BYTES,
        max_response_bytes: config.maxResponseBytes,
        max_sources: config.maxSources,
      },
      options: {
        honoured: [...provider.honoured],
        unsupported: [...provider.unsupported],
        ...(provider.conditional ? { conditional: [...provider.conditional] } : {}),
      },
      assertions: [...ASSERTION_IDS],
    };
    if (provider.maxQueryWords !== undefined) info.limits.max_query_words = provider.maxQueryWords;
    if (provider.languages) info.languages = [...provider.languages];
    return info;
  }

  return {
    config,
    provider,
    providers: chain,
    logger,
    redis,
    search,
    redact,
    skillInfo,
    async close() {
      for (const member of members) member.cache?.clear();
      for (const member of chain) await member.close?.();
      await redis?.close();
    },
  };
}
