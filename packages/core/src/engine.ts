import type { NormalizedRequestItem, ProviderId, ResultGroup, SkillInfo } from '@openmates/contract';
import { LRUCache } from 'lru-cache';
import type { CallMeter } from './call-meter.ts';
import { type AnyEngineConfig, configSecrets } from './config.ts';
import { EngineError, parseJsonBody } from './engine-error.ts';
import { createRedactor } from './hygiene/index.ts';
import { createLogger, type Logger } from './logger.ts';
import type { EngineObserver, SearchRun } from './pipeline/call.ts';
import { settleGroup } from './pipeline/chain.ts';
import { type Clock, createMembers, type Member, monotonicNow, realSleep } from './pipeline/members.ts';
import type { SearchProvider } from './provider.ts';
import { newRequestId } from './request-id.ts';
import { frozenCopy } from './result-cache.ts';
import { admit, emptyAdmission } from './search/admit.ts';
import { fit, type SearchJson } from './search/fit.ts';
import { plan } from './search/plan.ts';
import { skillInfo } from './search/skill-info.ts';
import { validate } from './search/validate.ts';
import type { RedisLink } from './shared/redis-link.ts';

export type { EngineObserver } from './pipeline/call.ts';
export type { SearchJson } from './search/fit.ts';

export interface EngineOptions {
  config: AnyEngineConfig;
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
  /** Injectable clock and sleep for tests; default `monotonicNow` and a real timer. */
  now?: Clock['now'];
  sleep?: Clock['sleep'];
  /** Wall time in ms since the epoch, for time ranges ("the last 7 days"); default `Date.now`. */
  wallClock?: Clock['wallClock'];
  /**
   * The shared Redis (`connectRedis(config.redis, …)`), when replicas share state; the engine then
   * keeps its cache, the provider's rate and its 429 pause there. Default: all in process.
   */
  redis?: RedisLink;
}

/**
 * A provider of the chain with its id as the API states it (health, readiness, skill info): one of
 * the contract's `PROVIDER_IDS` for every provider of `PROVIDER_MODULES`. Only a test's registry
 * adds a provider outside that list (ADR 0114); what the API says of it is outside the contract.
 */
export type ApiProvider = SearchProvider & { readonly id: ProviderId };

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
  /** Debits each provider call before it is sent (the caller's quotas); none: calls are not metered. */
  meter?: CallMeter;
}

export interface Engine {
  readonly config: AnyEngineConfig;
  /** The first provider of the chain: requests are validated against it, skill info describes it. */
  readonly provider: ApiProvider;
  /** The whole chain, in order (one provider: `[provider]`). */
  readonly providers: readonly ApiProvider[];
  readonly logger: Logger;
  /**
   * The engine's one entry point (ADR 0074): validate → plan → run each group through the call
   * pipeline → admit in completion order → fit. Resolves to the WebSearchResponse (failed groups
   * carry errors) with its JSON as fitting measured it, so a server sends it without serializing it
   * again. Rejects with an EngineError for an invalid request (400), an unusable provider (503) or
   * a bug (500).
   */
  search(input: unknown, options?: SearchOptions): Promise<SearchJson>;
  /**
   * `search` of a request body's JSON text, rejecting as `parseJsonBody` does when it is not JSON.
   * The same text always validates to the same items, so a body seen lately (a repeated request,
   * which is what a cache hit answers) skips parsing and validation (ADR 0105).
   */
  searchText(text: string, options?: SearchOptions): Promise<SearchJson>;
  /**
   * The first step of `searchText` on its own: parses and validates a request body's JSON text,
   * rejecting as `searchText` would for a body that is not JSON or not a valid request, and
   * resolves to the search of that request, not started. What a caller that must answer a refusal
   * differently from a failed search (the event stream: JSON before a stream opens) awaits first.
   */
  validateText(text: string, options?: Pick<SearchOptions, 'requestId'>): Promise<ValidatedSearch>;
  /** The shared Redis, when configured (its state is `/healthz`'s `redis`). */
  readonly redis: RedisLink | undefined;
  /** Replaces every configured secret in `text`. */
  redact(text: string): string;
  /** Skill info for `GET /v1/apps/web/skills/search`. */
  skillInfo(version: string): SkillInfo;
  close(): Promise<void>;
}

/** A request that passed validation; `run` searches it once (the request id is the one it was validated under). */
export interface ValidatedSearch {
  run(options?: Omit<SearchOptions, 'requestId'>): Promise<SearchJson>;
}

/** What every search of one engine shares. */
interface Shared {
  readonly config: AnyEngineConfig;
  readonly chain: readonly SearchProvider[];
  readonly members: readonly Member[];
  readonly clock: Clock;
  readonly logger: Logger;
  readonly redact: (text: string) => string;
  readonly observer: EngineObserver | undefined;
  /** The items of request bodies validated lately, by their text, frozen: validation is a pure function of it. */
  readonly validated: LRUCache<string, readonly NormalizedRequestItem[]>;
}

/** How many bodies validated lately keep their items, each of at most `MEMO_MAX_TEXT` UTF-16 units (about 4 MB of text in all). */
const MEMO_ENTRIES = 500;
const MEMO_MAX_TEXT = 4096;

/** Runs the groups of validated items concurrently, each admitted as it completes. */
async function runGroups(
  shared: Shared,
  run: SearchRun,
  items: Parameters<typeof emptyAdmission>[0],
  onGroup: SearchOptions['onGroup'],
  started: number,
) {
  const admitted = emptyAdmission(items);
  const deadline = started + shared.config.requestDeadlineMs;
  try {
    await Promise.all(
      items.map(async (item, index) => {
        const settled = await settleGroup(run, shared.members, item, index, deadline);
        const group = admit(run, shared.members, admitted, item, index, settled);
        onGroup?.({ ...group, results: [...group.results] }, index);
      }),
    );
  } catch (error) {
    if (error instanceof EngineError || run.signal.aborted) throw error;
    run.log.error(
      { event: 'search', code: 'internal_error', error_name: error instanceof Error ? error.name : typeof error },
      'internal error',
    );
    throw new EngineError('internal_error', undefined, { cause: error });
  }
  if (shared.observer) for (const { group } of admitted) shared.observer.group(group.error?.code ?? 'ok');
  return admitted;
}

/** What a search starts from: the parsed input, or a body's text (its items when validated lately). */
type Input =
  | { input: unknown }
  | { text: string; known: readonly NormalizedRequestItem[] | undefined; parsed: unknown };

function inputOfText(shared: Shared, text: string): Input {
  const known = shared.validated.get(text);
  // Not JSON: refused before the search begins, as `parseJsonBody` refuses it.
  return { text, known, parsed: known ? undefined : parseJsonBody(text) };
}

/** The request's items: validated now, or as validated before for the same text. */
function itemsOf(shared: Shared, from: Input, log: Logger): readonly NormalizedRequestItem[] {
  const provider = shared.chain[0] as SearchProvider;
  if ('input' in from) return validate(from.input, provider, log);
  if (from.known) return from.known;
  const items = frozenCopy(validate(from.parsed, provider, log));
  if (from.text.length <= MEMO_MAX_TEXT) shared.validated.set(from.text, items);
  return items;
}

/** A search begun: its request id, its log and its validated items. */
interface Begun {
  readonly requestId: string;
  readonly log: Logger;
  readonly started: number;
  readonly items: readonly NormalizedRequestItem[];
}

/** The steps before any call: the request id, the log's bindings, validation (throws the 400). */
function begin(shared: Shared, from: Input, requestId: string = newRequestId()): Begun {
  const { chain, clock } = shared;
  const binding = chain.length > 1 ? { providers: chain.map((p) => p.id).join(',') } : { provider: chain[0]?.id };
  const log = shared.logger.child({ request_id: requestId, ...binding });
  const started = clock.now();
  return { requestId, log, started, items: itemsOf(shared, from, log) };
}

/** The rest of one search, step by step: plan, run each group, admit, fit. */
async function run(shared: Shared, begun: Begun, options: Omit<SearchOptions, 'requestId'>): Promise<SearchJson> {
  const { chain, clock } = shared;
  const { requestId, log, started, items } = begun;
  const signal = options.signal ?? new AbortController().signal;
  signal.throwIfAborted();
  const searchRun: SearchRun = {
    signal,
    log,
    budget: plan(shared.config, shared.members),
    clock,
    redact: shared.redact,
    observer: shared.observer,
    chainLength: chain.length,
    meter: options.meter,
  };
  const admitted = await runGroups(shared, searchRun, items, options.onGroup, started);
  return fit(searchRun, shared.members, admitted, {
    requestId,
    maxResponseBytes: shared.config.maxResponseBytes,
    started,
  });
}

/** One search, step by step. */
async function search(shared: Shared, from: Input, options: SearchOptions): Promise<SearchJson> {
  return run(shared, begin(shared, from, options.requestId), options);
}

/** Creates the engine every surface calls. */
export function createEngine(options: EngineOptions): Engine {
  const { config, redis } = options;
  const chain: readonly SearchProvider[] = Array.isArray(options.provider)
    ? [...(options.provider as readonly SearchProvider[])]
    : [options.provider as SearchProvider];
  if (chain.length === 0) throw new TypeError('createEngine needs at least one provider');
  const redact = createRedactor([...configSecrets(config), ...(options.extraSecrets ?? [])]);
  const clock: Clock = {
    now: options.now ?? monotonicNow,
    sleep: options.sleep ?? realSleep,
    wallClock: options.wallClock ?? (() => Date.now()),
  };
  const logger = options.logger ?? createLogger({ level: config.logLevel, redact });
  const members = createMembers(config, chain, clock, redis);
  const validated = new LRUCache<string, readonly NormalizedRequestItem[]>({ max: MEMO_ENTRIES });
  const shared: Shared = { config, chain, members, clock, logger, redact, observer: options.observer, validated };
  return {
    config,
    provider: chain[0] as ApiProvider,
    providers: chain as readonly ApiProvider[],
    logger,
    redis,
    search: (input, searchOptions = {}) => search(shared, { input }, searchOptions),
    searchText: async (text, searchOptions = {}) => search(shared, inputOfText(shared, text), searchOptions),
    async validateText(text, validateOptions = {}) {
      const begun = begin(shared, inputOfText(shared, text), validateOptions.requestId);
      return { run: (runOptions = {}) => run(shared, begun, runOptions) };
    },
    redact,
    skillInfo: (version) => skillInfo(config, chain, version),
    async close() {
      for (const member of members) member.cache?.clear();
      for (const provider of chain) await provider.close?.();
      await redis?.close();
    },
  };
}
