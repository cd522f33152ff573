import type { GroupErrorCode, NormalizedRequestItem, RequestOption, SkillInfo } from '@openmates/contract';
import type { HttpAnswer, HttpClient } from './providers/shared/http-client.ts';
import type { OwnRefusals } from './providers/shared/status-errors.ts';

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
   * The provider's own display parts of the URL (Brave's `meta_url`: its shorter `netloc`, its
   * breadcrumb `path`), written per `format`; kept part by part where clean, else derived from the
   * URL (`metaUrlOf`).
   */
  meta_url?: unknown;
  /**
   * A note the provider generated about this result (e.g. the sentence of a hosted model's answer
   * that cited it). Model synthesis, never a page excerpt: it is kept apart from `description`,
   * which only ever carries text taken from the page or the index.
   */
  note?: unknown;
  /**
   * Further excerpts of the page beyond `description` (Brave's `extra_snippets`, the local index's
   * passages around the query's terms), written per `format`. Page text, never model synthesis; read
   * only when the item asked for them.
   */
  extra_snippets?: unknown;
}

/** A provider's answer to one query. An empty `candidates` list means "answered, found nothing". */
/**
 * What a provider's answer says it bills, beyond the call itself (docs/usage-and-quotas.md): each
 * field absent when the answer says nothing of it.
 */
export interface AnswerUsage {
  /** Billed units for this answer, in the provider's unit (default 1: the call): a hosted model's searches, credits. */
  readonly billed?: number;
  /** The cost in US dollars the provider itself reported (Exa's `costDollars`); wins over the price table. */
  readonly costUsd?: number;
  /** Model tokens a hosted provider reported. */
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

export interface ProviderAnswer {
  candidates: RawCandidate[];
  /** What the answer bills (default: one unit for the call). */
  usage?: AnswerUsage;
  /** Queries the provider itself suggested (related searches, spelling corrections); untrusted. */
  suggestions?: unknown[];
  /** True when the provider said more results exist past this page (default false). */
  more?: boolean;
  /**
   * What the provider searched for instead of the query as sent (Brave's `query.altered`), as it
   * wrote it, operators it was sent included; untrusted. Absent when it searched for the query.
   */
  altered?: unknown;
}

/** One query as the engine hands it to a provider. */
export interface ProviderQuery extends NormalizedRequestItem {
  /**
   * The size of the provider window the query's pages are drawn from: at least `count`, twice it
   * when tabloids will be filtered out afterwards so that `count` can still be met. Page sizes and
   * the window's last page follow from it; paging stops earlier once `count` candidates pass
   * admission (ADR 0100). A provider answering in one exchange reads it as how many to return.
   */
  fetchCount: number;
}

/**
 * What a provider can do, as data: the call pipeline, validation, skill info, the GUI's controls and
 * failover all read it, so a provider states each capability once (ADR 0075).
 */
export interface Capabilities {
  /** Request options the provider applies itself. */
  readonly honoured: readonly RequestOption[];
  /** Options applied only in some cases (not in `honoured`), with when, for skill info. */
  readonly conditional?: NonNullable<SkillInfo['options']['conditional']>;
  /**
   * What it cannot apply: each refusal is checked before any call (a 400 naming the field and the
   * provider), listed in skill info when it has a `rule`, and makes failover skip this provider.
   */
  readonly refuses?: readonly Refusal[];
  /** The `search_lang` codes it supports, when not every ISO 639-1 code (others are refused). */
  readonly languages?: readonly string[];
  /** Limits on the query as sent (its domain operators included), when the provider has them. */
  readonly query?: QueryLimits;
  /**
   * Paging: most calls one query may make (each a call of the request's budget), and the results
   * one call can hold (the provider window spans `fetchCount` in steps of it). Default: one call.
   * `reach`: the last provider page (0-based) it serves, when it stops somewhere (Brave's `offset`
   * at most 9); a result page whose window starts past it is refused before any call (ADR 0103).
   */
  readonly paging?: {
    readonly maxPages: number;
    readonly perPage?: number;
    readonly scopePages?: number;
    readonly reach?: number;
  };
  /** The retry rule's numbers for this provider (ADR 0075). */
  readonly retry: RetryPolicy;
  /** Largest answer body read, in bytes. */
  readonly maxBodyBytes?: number;
  /**
   * True when it answers in this process (the local index): no origin, no plan and no 429, so no
   * shared rate or upstream pause applies to it.
   */
  readonly inProcess?: boolean;
}

/** An option value the provider cannot apply. */
export interface Refusal {
  readonly option: RequestOption;
  /** True when `item` asks for it. */
  readonly applies: (item: NormalizedRequestItem) => boolean;
  /** Why, as the issue says it ("its hosted search has no date filter"). */
  readonly reason: string;
  /** The option as the issue names it, when more than the field (`safesearch "strict"`). */
  readonly label?: string;
  /** Skill info's rule; without one the refusal is not listed as unsupported (a conditional option). */
  readonly rule?: string;
}

/** Limits on the query a provider is sent. */
export interface QueryLimits {
  readonly maxWords: number;
  readonly maxLength: number;
  /** The query as sent, domain operators included. */
  readonly sent: (item: {
    readonly query: string;
    readonly include_domains?: readonly string[] | undefined;
    readonly exclude_domains?: readonly string[] | undefined;
  }) => string;
}

/**
 * When a call is tried again: a 429 or 503 whose wait (`Retry-After`, or what the answer names)
 * fits the call's remaining time is waited and retried, at most `maxRetries` times, unless another
 * provider of the chain stands behind. A 429 that names no wait takes `unnamed`. Nothing else is
 * retried.
 */
export interface RetryPolicy {
  readonly maxRetries: number;
  /** Longest wait worth retrying after (a longer one fails at once). */
  readonly maxWaitMs: number;
  /** A 429 naming no wait: whether to retry (after `waitMs`), and how long every replica pauses. */
  readonly unnamed: { readonly retry: boolean; readonly waitMs: number; readonly pauseMs: number };
}

/** One page a provider is asked for. */
export interface PageRequest {
  /** The provider page, 0 for the provider's first (result page N starts later: ADR 0103). */
  readonly page: number;
  /** True for the first page of the result page's window (suggestions and the altered query are read from it). */
  readonly first: boolean;
  /** True when the query has a domain or time scope (pages are then full ones: filtering removes part of each). */
  readonly scoped: boolean;
  /** Wall time in ms since the epoch: what "today" is for a date range's open end. */
  readonly wallClock: number;
}

/**
 * One HTTP request, as a translator describes it; the call pipeline sends it through the one HTTP
 * client (ADR 0113).
 */
export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body: sent as JSON or form-encoded, with that Content-Type unless `headers` names one
   * (default: none).
   */
  readonly body?: { readonly json: unknown } | { readonly form: Readonly<Record<string, string>> };
}

/** One parsed answer page. */
export interface AnswerPage {
  readonly candidates: readonly RawCandidate[];
  /** What this page bills (default: one unit for its call). */
  readonly usage?: AnswerUsage;
  /** Suggestions it carries (read from the first page only). */
  readonly suggestions?: readonly unknown[];
  /** What the provider searched for instead of the query sent, as it wrote it (read from the first page only). */
  readonly altered?: unknown;
  /** True when a further page may hold more. */
  readonly more: boolean;
  /**
   * Why finding nothing at all is the provider's failure, not an answer (SearXNG: engines that did
   * not respond): the group then fails as `provider_unavailable` with this message.
   */
  readonly emptyBecause?: string;
  /**
   * What the provider itself reports this call cost, in US dollars (Exa's `costDollars.total`), for
   * usage accounting; never shown in a response. Absent when it reports none.
   */
  readonly costDollars?: number;
}

/** What the provider's answer says about its rate limits. */
export interface RateLimitHints {
  /** The wait it names (`Retry-After`, or an exhausted window's reset), in ms. */
  readonly waitMs?: number;
  /** Requests left in its current quota window. */
  readonly remaining?: number;
}

/**
 * A provider whose query is one HTTP exchange per page: the pipeline sends what `buildRequest`
 * describes through the one HTTP client and hands the answer to the translator; timeouts, retries,
 * rate limits, paging, the status table and the bounded read are the pipeline's.
 */
interface HttpTranslatorBase {
  readonly kind: 'http';
  /** The keep-alive client for the provider's origin (made on first use). */
  client(): HttpClient;
  buildRequest(query: ProviderQuery, page: PageRequest): HttpRequest;
  /** What an answer's headers say about rate limits (default: `Retry-After` only). */
  rateLimit?(answer: Pick<HttpAnswer, 'header'>): RateLimitHints;
  /** What the provider's own refusals mean, as data (default: the status table's wording alone). */
  readonly refusals?: OwnRefusals;
}

/** A provider answering JSON: the pipeline reads it bounded, and `parseAnswer` reads the page off it. */
export interface JsonTranslator extends HttpTranslatorBase {
  /** The page a 2xx JSON answer holds, or undefined when it is not of the expected shape. */
  parseAnswer(json: unknown, query: ProviderQuery, page: PageRequest): AnswerPage | undefined;
  /** Said when a 2xx answer is not JSON (default: "… answered with something other than JSON."). */
  readonly notJson?: string;
  readStream?: never;
}

/**
 * A provider that streams its answer (OpenAI's Responses events): `readStream` reads a 2xx answer's
 * body as it arrives, under the call's signal, and throws ProviderError (never upstream text) or the
 * signal's reason.
 */
export interface StreamTranslator extends HttpTranslatorBase {
  readStream(answer: HttpAnswer, query: ProviderQuery, signal: AbortSignal): Promise<AnswerPage>;
  parseAnswer?: never;
}

export type HttpTranslator = JsonTranslator | StreamTranslator;

/** What a `run` hook gets from the pipeline: the call's signal (timeout and caller) and the wall clock. */
export interface RunCall {
  readonly signal: AbortSignal;
  readonly wallClock: number;
}

/** A provider that is not an HTTP exchange (the local index). */
export interface RunHook {
  readonly kind: 'run';
  run(query: ProviderQuery, call: RunCall): Promise<ProviderAnswer>;
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
 * A search provider: who it is, what it can do (its capability table) and how a query is
 * translated for it. It imports nothing from the engine and gets no callbacks from it.
 */
export interface SearchProvider {
  /** Its id: its key in the registry it was built from (ADR 0114). */
  readonly id: string;
  /** Human-readable name for `provider` in responses, e.g. `Brave Search`. */
  readonly name: string;
  /** Where queries go, for disclosure: a host, or `this machine`. */
  readonly recipient: string;
  readonly capabilities: Capabilities;
  readonly translator: HttpTranslator | RunHook;
  /** Extra `openmates doctor` checks (reachability, index size). */
  doctor?(signal: AbortSignal): Promise<DoctorCheck[]>;
  /**
   * Gets ready to serve without any paid or remote call (the local index opens and builds its demo
   * corpus); a server's readiness waits for it. Throws ProviderNotConfiguredError when it cannot.
   */
  ready?(): Promise<void>;
  /** Releases resources (database handles, sockets). */
  close?(): Promise<void> | void;
}
