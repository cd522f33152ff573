import type {
  GroupErrorCode,
  Issue,
  NormalizedRequestItem,
  ProviderId,
  RequestOption,
  SkillInfo,
} from '@openmates/contract';

/**
 * How a provider writes its text fields, taken from the provider's own documentation:
 * - `html`: markup (Brave's snippets, with `<strong>` highlights and entities). It is parsed, never
 *   regex-stripped: tags and attributes removed, `script`/`style` contents dropped, entities decoded once.
 * - `text`: plain text (the local index, OpenAI's citation titles). It is never parsed as HTML, so
 *   `<div>`, `Vec<T>`, `a < b > c` and `&amp;` reach the caller as written.
 * Both get the same invisible-character cleaning, whitespace collapsing and bounds. When a provider's
 * documentation does not say, choose `html`: markup left in text is only ugly, while text taken for
 * markup loses words.
 */
export type TextFormat = 'html' | 'text';

/**
 * What a provider returns for one result, before any hygiene. Every field is untrusted: the
 * engine turns it into a WebSearchResult (text per `format`, URL rules, bounds) or drops it.
 */
export interface RawCandidate {
  /**
   * How `title`, `description`, `note`, `age` and `language` are written (see TextFormat). Required,
   * so every provider decides from its documentation; record the decision in an ADR (docs/adr/, ADR 0017 for the providers so far).
   */
  format: TextFormat;
  title?: unknown;
  url?: unknown;
  description?: unknown;
  age?: unknown;
  /**
   * The page's publication date in a machine-readable form (ISO 8601: Brave's `page_age`, SearXNG's
   * `publishedDate`, the local index's `published`), which the engine holds against `freshness`;
   * distinct from `age`, the text shown to the caller.
   */
  published?: unknown;
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
  /**
   * Asks for one more provider call for the same query (a further page): the engine debits the
   * request's call budget and resolves to that call's own signal, aborted by its own per-call
   * timeout or when the caller gives up (then `signal` aborts too). So every page counts as a call,
   * and a page that times out can end paging while earlier pages are kept. Undefined when the
   * budget is spent: the provider then stops and answers with what it has. The first call is
   * debited before `search` runs and uses `signal`. Absent outside the engine (doctor, unit tests):
   * use `signal` for every call.
   */
  nextCall?: () => Promise<AbortSignal | undefined>;
  /**
   * With a domain or time scope: true for a candidate the engine will keep (its host and date in
   * scope), so a provider that pages counts only these toward `fetchCount` and asks for a further
   * page (through `nextCall`) while too few are in scope. Undefined without a scope.
   */
  inScope?: (candidate: RawCandidate) => boolean;
  /** Milliseconds since the epoch (wall time, UTC): what "today" is for a date range's open end. Default `Date.now`. */
  wallClock?: () => number;
  /** When this call must be over, on the `now()` clock; a wait that would end later is not worth starting. */
  deadline?: number;
  /**
   * Waits for the provider's shared rate before a further request of this call (a retry, a page);
   * the engine took the first turn. Throws ProviderError `provider_rate_limited` past the deadline.
   */
  acquire?: () => Promise<void>;
  /** Reports a provider 429 asking to wait `ms` (undefined: it named no time), so every replica pauses. */
  pause?: (ms: number | undefined) => Promise<void>;
  /**
   * True when another provider of the chain stands behind this one for this query: a failure a
   * short wait might cure (a 429) fails at once instead of being retried, and the query goes on
   * to the next provider.
   */
  failover?: boolean;
}

/**
 * A provider failed for one query. `code` is the group error code; `message` must already be safe
 * to show (never upstream text). `detail` is for logs only and is redacted before it is written.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly code: GroupErrorCode;
  readonly status: number | undefined;
  /** For `provider_rate_limited`: how long the provider (or the shared rate) asks to wait. */
  readonly retryAfterMs: number | undefined;
  constructor(
    code: GroupErrorCode,
    message: string,
    options: { status?: number; cause?: unknown; retryAfterMs?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
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
  /** Options honoured only in some cases (not in `honoured`), with when, for skill info. */
  readonly conditional?: NonNullable<SkillInfo['options']['conditional']>;
  /**
   * Most provider calls one query may make (SearXNG: one per page); the request's call budget is
   * this times the batch limit. Default 1.
   */
  readonly maxCallsPerQuery?: number;
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
