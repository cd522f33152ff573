import type {
  GroupErrorCode,
  Issue,
  NormalizedRequestItem,
  ProviderId,
  RequestOption,
  SkillInfo,
} from '@openmates/contract';

/**
 * What a provider returns for one result, before any hygiene. Every field is untrusted: the
 * engine turns it into a WebSearchResult (HTML to text, URL rules, bounds) or drops it.
 */
export interface RawCandidate {
  title?: unknown;
  url?: unknown;
  description?: unknown;
  age?: unknown;
  language?: unknown;
  family_friendly?: unknown;
  favicon?: unknown;
  /**
   * A note the provider generated about this result (e.g. the sentence of a hosted model's answer
   * that cited it). Model synthesis, never a page excerpt: it is kept apart from `description`,
   * which only ever carries text taken from the page or the index.
   */
  note?: unknown;
}

/** A provider's answer to one query. An empty `candidates` list means "answered, found nothing". */
export interface ProviderAnswer {
  candidates: RawCandidate[];
  /** Queries the provider itself suggested or ran (altered query, related searches); untrusted. */
  suggestions?: unknown[];
}

/** One query as the engine hands it to a provider. */
export interface ProviderQuery extends NormalizedRequestItem {
  /**
   * How many results to ask the provider for: at least `count`, more when tabloids will be
   * filtered out afterwards so that `count` can still be met.
   */
  fetchCount: number;
}

export interface ProviderContext {
  /** Aborted on the per-call timeout or when the caller gives up. */
  signal: AbortSignal;
  /** Milliseconds since an arbitrary origin; injectable so tests never depend on wall time. */
  now: () => number;
  /** Waits `ms` (or until `signal` aborts); injectable for tests of retry delays. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * A provider failed for one query. `code` is the group error code; `message` must already be safe
 * to show (never upstream text). `detail` is for logs only and is redacted before it is written.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly code: GroupErrorCode;
  readonly status: number | undefined;
  constructor(code: GroupErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
  }
}

/**
 * The selected provider cannot serve at all (missing key, unreadable index). Surfaces answer 503
 * (`not_configured`) for the whole request.
 */
export class ProviderNotConfiguredError extends Error {
  override readonly name = 'ProviderNotConfiguredError';
}

/** One line of `openmates doctor`. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** What was found; never a secret. */
  detail: string;
  /** What to do when `ok` is false. */
  fix?: string;
}

/**
 * A search provider. Adding a provider is one file implementing this interface and one line in
 * the provider registry.
 */
export interface SearchProvider {
  readonly id: ProviderId;
  /** Human-readable name for `provider` in responses, e.g. `Brave Search`. */
  readonly name: string;
  /** Where queries go, for disclosure: a host, or `this machine`. */
  readonly recipient: string;
  /** Request options this provider honours. */
  readonly honoured: readonly RequestOption[];
  /** Option values refused at validation, with the rule, for skill info. */
  readonly unsupported: SkillInfo['options']['unsupported'];
  /** The `search_lang` codes it supports, when not every ISO 639-1 code. */
  readonly languages?: readonly string[];
  /** Most words per query, when the provider limits it. */
  readonly maxQueryWords?: number;
  /** Provider-specific request rules; issues name the field and the provider. Runs before any call. */
  validate(item: NormalizedRequestItem, index: number): Issue[];
  /** Runs one query. Throws ProviderError (or ProviderNotConfiguredError); never returns raw errors. */
  search(query: ProviderQuery, context: ProviderContext): Promise<ProviderAnswer>;
  /** Extra `openmates doctor` checks (reachability, index size). */
  doctor?(context: ProviderContext): Promise<DoctorCheck[]>;
  /**
   * Gets ready to serve without any paid or remote call (the local index opens and builds its demo
   * corpus); a server's readiness waits for it. Throws ProviderNotConfiguredError when it cannot.
   */
  ready?(): Promise<void>;
  /** Releases resources (database handles, sockets). */
  close?(): Promise<void> | void;
}
