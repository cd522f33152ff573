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
  type WebSearchResult,
} from '@openmates/contract';
import { BudgetSession } from './budget.ts';
import { buildResults, mergeSuggestions } from './build-results.ts';
import { configSecrets, type EngineConfig } from './config.ts';
import { describeIssues, EngineError } from './engine-error.ts';
import { fitResponseJson, ResponseTooLargeError } from './fit-response.ts';
import { createRedactor, truncate } from './hygiene/index.ts';
import { createLogger, type Logger } from './logger.ts';
import { type ProviderContext, ProviderError, ProviderNotConfiguredError, type SearchProvider } from './provider.ts';
import { createResultCache, type ResultCache } from './result-cache.ts';

export interface EngineOptions {
  config: EngineConfig;
  /** The provider that answers. */
  provider: SearchProvider;
  /** Structured logger; default JSON lines on stderr at `config.logLevel`. */
  logger?: Logger;
  /** Secrets beyond the configuration's (for example the server's API keys), redacted everywhere. */
  extraSecrets?: readonly string[];
  /** Told about provider calls, cache lookups and finished groups (the server's metrics). */
  observer?: EngineObserver;
  /** Injectable clock and sleep for tests; default `performance.now` and a real timer. */
  now?: () => number;
  sleep?: ProviderContext['sleep'];
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
}

export interface Engine {
  readonly config: EngineConfig;
  readonly provider: SearchProvider;
  readonly logger: Logger;
  /**
   * Runs a batch: validates (contract and provider rules) before any call, fans the queries out
   * concurrently, and resolves to a WebSearchResponse whose failed groups carry errors. Rejects
   * with an EngineError for an invalid request (400), an unusable provider (503) or a bug (500).
   */
  search(input: unknown, options?: SearchOptions): Promise<WebSearchResponse>;
  /**
   * `search`, with the response's `JSON.stringify` as output fitting measured it, for a caller
   * that sends it on (the REST server) without serializing it a second time.
   */
  searchJson(input: unknown, options?: SearchOptions): Promise<{ response: WebSearchResponse; json: string }>;
  /** Replaces every configured secret in `text`. */
  redact(text: string): string;
  /** Skill info for `GET /v1/apps/web/skills/search`. */
  skillInfo(version: string): SkillInfo;
  close(): Promise<void>;
}

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
  const { config, provider } = options;
  const redact = createRedactor([...configSecrets(config), ...(options.extraSecrets ?? [])]);
  const logger = options.logger ?? createLogger({ level: config.logLevel, redact });
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? defaultSleep;
  const observer = options.observer;
  const cache: ResultCache | undefined = config.cacheTtlS > 0 ? createResultCache(config.cacheTtlS) : undefined;

  function validate(input: unknown): NormalizedRequestItem[] {
    const normalized = normalizeRequest(input);
    if (!normalized.ok)
      throw new EngineError('invalid_request', describeIssues(normalized.issues), { issues: normalized.issues });
    const items = normalized.request.requests;
    const issues: Issue[] = items.flatMap((item, index) => provider.validate(item, index));
    if (issues.length > 0) throw new EngineError('invalid_request', describeIssues(issues), { issues });
    return items;
  }

  /** One provider call under the per-call timeout. Resolves to results or a group error. */
  async function call(
    item: NormalizedRequestItem,
    index: number,
    signal: AbortSignal,
    log: Logger,
  ): Promise<
    { results: WebSearchResult[]; suggestions: unknown[] } | { error: { code: GroupErrorCode; message: string } }
  > {
    const key = cache?.key(provider.id, item);
    const cached = key === undefined ? undefined : cache?.get(key);
    if (key !== undefined) observer?.cache(cached ? 'hit' : 'miss');
    if (cached) {
      log.info({ event: 'provider_call', group: index, cache: 'hit', results: cached.results.length }, 'cache hit');
      return cached;
    }
    const started = now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new CallTimeout()), config.providerTimeoutMs);
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await provider.search(
        { ...item, fetchCount: fetchCountFor(item) },
        { signal: controller.signal, now, sleep },
      );
      const { results, stats } = buildResults(Array.isArray(answer.candidates) ? answer.candidates : [], {
        filterTabloids: item.filter_tabloids,
        redact,
      });
      // Not yet bounded to `count`: the budget session applies that cap at admission.
      const value = {
        results,
        suggestions: Array.isArray(answer.suggestions) ? answer.suggestions : [],
      };
      if (key !== undefined) cache?.set(key, value);
      observer?.providerCall(provider.id, 'ok', (now() - started) / 1000);
      log.info(
        {
          event: 'provider_call',
          group: index,
          cache: cache ? 'miss' : 'off',
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
      if (controller.signal.reason instanceof CallTimeout) {
        log.warn({ event: 'provider_call', group: index, code: 'provider_timeout', elapsed_ms }, 'provider timed out');
        return { error: { code: 'provider_timeout', message: 'The search provider did not answer in time.' } };
      }
      if (error instanceof ProviderError) {
        log.warn(
          { event: 'provider_call', group: index, code: error.code, status: error.status, elapsed_ms },
          'provider failed',
        );
        return { error: { code: error.code, message: redact(error.message) } };
      }
      if (error instanceof ProviderNotConfiguredError)
        throw new EngineError('not_configured', redact(error.message), { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  async function searchJson(
    input: unknown,
    searchOptions: SearchOptions = {},
  ): Promise<{ response: WebSearchResponse; json: string }> {
    const requestId = searchOptions.requestId ?? crypto.randomUUID(); // Web Crypto's global: no node:crypto import on a cold CLI start
    const log = logger.child({ request_id: requestId, provider: provider.id });
    const started = now();
    let items: NormalizedRequestItem[];
    try {
      items = validate(input);
    } catch (error) {
      if (error instanceof EngineError)
        log.info({ event: 'search', code: error.code, issues: error.issues?.length ?? 0 }, 'request refused');
      throw error;
    }
    const signal = searchOptions.signal ?? new AbortController().signal;
    signal.throwIfAborted();
    const budget = new BudgetSession({ maxCalls: MAX_BATCH_ITEMS, maxSources: config.maxSources });
    const groups: ResultGroup[] = items.map((item) => ({ id: item.id, results: [] }));
    const suggestions: { query: string; suggestions: unknown[] }[] = items.map((item) => ({
      query: item.query,
      suggestions: [],
    }));
    try {
      await Promise.all(
        items.map(async (item, index) => {
          const group = groups[index] as ResultGroup;
          if (!budget.debitCall()) {
            group.error = { code: 'provider_error', message: 'The call budget of this request is spent.' };
            return;
          }
          const outcome = await call(item, index, signal, log);
          // Admission runs synchronously when the call completes: completion order, never overbooked.
          if ('error' in outcome) group.error = outcome.error;
          else {
            const { admitted, cut } = budget.admit(outcome.results, item.count);
            group.results = admitted;
            if (cut > 0) group.sources_cut = cut;
            (suggestions[index] as { suggestions: unknown[] }).suggestions = outcome.suggestions;
          }
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
    const response: WebSearchResponse = { results: groups, provider: redact(provider.name) };
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
    log.info(
      {
        event: 'search',
        groups: groups.length,
        failed: groups.filter((g) => g.error).length,
        code: failure?.code,
        results: fitted.results.reduce((n, g) => n + g.results.length, 0),
        sources_admitted: budget.sourcesAdmitted,
        sources_cut: budget.sourcesCut,
        results_fitted_out: fitted.budget?.results_fitted_out,
        elapsed_ms: Math.round(now() - started),
      },
      'search finished',
    );
    return { response: fitted, json };
  }

  async function search(input: unknown, searchOptions?: SearchOptions): Promise<WebSearchResponse> {
    return (await searchJson(input, searchOptions)).response;
  }

  function skillInfo(version: string): SkillInfo {
    const info: SkillInfo = {
      app: 'web',
      skill: 'search',
      description: 'Search the public web and get sanitized, attributable result groups.',
      version,
      fingerprint: CONTRACT_FINGERPRINT,
      provider: { id: provider.id, name: provider.name, recipient: provider.recipient },
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
      options: { honoured: [...provider.honoured], unsupported: [...provider.unsupported] },
      assertions: [...ASSERTION_IDS],
    };
    if (provider.maxQueryWords !== undefined) info.limits.max_query_words = provider.maxQueryWords;
    if (provider.languages) info.languages = [...provider.languages];
    return info;
  }

  return {
    config,
    provider,
    logger,
    search,
    searchJson,
    redact,
    skillInfo,
    async close() {
      cache?.clear();
      await provider.close?.();
    },
  };
}
