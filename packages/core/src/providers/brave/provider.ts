import {
  BRAVE_MAX_QUERY_LENGTH,
  BRAVE_MAX_QUERY_WORDS,
  BRAVE_MAX_RETRIES,
  BRAVE_MAX_RETRY_AFTER_MS,
  BRAVE_MAX_SCOPE_PAGES,
  closedRange,
  type Issue,
  issueMessage,
  type NormalizedRequestItem,
  parseFreshness,
  REQUEST_OPTIONS,
} from '@openmates/contract';
import {
  type DoctorCheck,
  type ProviderAnswer,
  type ProviderContext,
  ProviderError,
  ProviderNotConfiguredError,
  type ProviderQuery,
  type RawCandidate,
  type SearchProvider,
} from '../../provider.ts';
import {
  type BodyFailure,
  type HttpAnswer,
  type HttpGetClient,
  type HttpGetClientFactory,
  lazyHttpGetClient,
} from '../shared/http-get.ts';
import { type ScopedQuery, withSiteOperators } from '../shared/site-operators.ts';
import { BRAVE_ISO_LANGUAGES, toBraveSearchLang } from './languages.ts';

/** Brave's Web Search API root when `BRAVE_SEARCH_BASE_URL` is not set. */
export const BRAVE_DEFAULT_BASE_URL = 'https://api.search.brave.com/res/v1';

/**
 * Wait before retrying a 429 that carries neither `Retry-After` nor an exhausted `X-RateLimit-*`
 * window (Brave's per-second window resets within a second).
 */
export const BRAVE_DEFAULT_RETRY_DELAY_MS = 1_000;

// Brave's own wire limits for one call, not rules of our API: at most 20 results per call and
// `offset` counts pages of `count`, at most 9.
const BRAVE_MAX_COUNT_PER_CALL = 20;
const BRAVE_MAX_OFFSET = 9;
// A Brave answer of 20 results is well under 200 KB; anything far larger is not a search answer.
const MAX_BODY_BYTES = 4 * 1024 * 1024;
// Brave error codes that mean the key (or its subscription) is the problem.
const AUTH_CODE = /TOKEN|SUBSCRIPTION|AUTH|FORBIDDEN|NOT_ALLOWED/;
const DOCTOR_QUERY = 'openmates';
// Brave's `freshness` values for the named periods (past day, week, month, year).
const BRAVE_PERIODS = { day: 'pd', week: 'pw', month: 'pm', year: 'py' } as const;

/**
 * Brave's `freshness` for a normalized one: `pd`…`py`, or `FROMtoTO` with both ends (an open start
 * is 1970-01-01, an open end today in UTC at wall time `now`).
 */
export function braveFreshness(freshness: string, now: number): string | undefined {
  const parsed = parseFreshness(freshness);
  if (parsed === undefined) return undefined;
  if ('period' in parsed) return BRAVE_PERIODS[parsed.period];
  const { from, to } = closedRange(parsed, now);
  return `${from}to${to}`;
}

/** The `q` Brave gets: the query and its domain scope as Brave's `site:` operators. */
export function braveQuery(item: ScopedQuery): string {
  return withSiteOperators(item);
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/** True when `q` is within Brave's own limits on words and characters. */
function withinLimits(q: string): boolean {
  return wordCount(q) <= BRAVE_MAX_QUERY_WORDS && [...q].length <= BRAVE_MAX_QUERY_LENGTH;
}

export interface BraveProviderConfig {
  /** The Brave Search subscription token, sent as `X-Subscription-Token`. Required. */
  apiKey: string;
  /** Brave's API root (default `https://api.search.brave.com/res/v1`). */
  baseUrl?: string;
  /**
   * The provider's own deadline per search in ms, on top of the engine's signal; when it fires
   * the search fails with `provider_timeout` (default: none, the engine's signal decides).
   */
  timeoutMs?: number;
  /** Makes the HTTP client it calls its origin with (default `createHttpGetClient`, node:http). */
  http?: HttpGetClientFactory;
}

/** One of Brave's web results: the fields we read, each still untrusted (hygiene is the engine's). */
interface BraveResult {
  title?: unknown;
  url?: unknown;
  description?: unknown;
  age?: unknown;
  page_age?: unknown;
  language?: unknown;
  family_friendly?: unknown;
  meta_url?: unknown;
}

/** The parts of Brave's `WebSearchApiResponse` we read; extra fields are ignored. */
interface BraveSearchResponse {
  type: 'search';
  query?: { original?: unknown; altered?: unknown; more_results_available?: unknown };
  web?: { results: BraveResult[] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `json` as a search answer, or undefined when it is not one: an object with `type: "search"`, an
 * optional object `query`, and an optional object `web` whose `results` is an array of objects. A
 * plain check, not a schema library: it runs on every answer.
 */
function asSearchResponse(json: unknown): BraveSearchResponse | undefined {
  if (!isRecord(json) || json.type !== 'search') return undefined;
  if (json.query !== undefined && !isRecord(json.query)) return undefined;
  const web = json.web;
  if (web !== undefined && !(isRecord(web) && Array.isArray(web.results) && web.results.every(isRecord)))
    return undefined;
  return json as unknown as BraveSearchResponse;
}

/**
 * The Brave Search provider: `GET {baseUrl}/web/search` with `X-Subscription-Token`.
 *
 * - `fetchCount` above 20 is fetched in pages of 20 (`offset` 1, 2, …, at most Brave's 9) while
 *   Brave says more results are available; a failure on a later page keeps the earlier pages.
 * - `freshness` goes as Brave's `freshness`, the domains as `site:` operators in `q`. With a scope,
 *   pages are of 20 and only candidates `context.inScope` keeps count toward `fetchCount`: while
 *   too few are kept, up to BRAVE_MAX_SCOPE_PAGES further pages are fetched, each one call of the
 *   request's budget (`context.nextCall`).
 * - A 429 is reported to `context.pause` (every replica waits) and retried at most
 *   `BRAVE_MAX_RETRIES` times after `Retry-After` (else the reset of the exhausted `X-RateLimit-*`
 *   window, else `BRAVE_DEFAULT_RETRY_DELAY_MS`), waited through `context.sleep`, then the shared
 *   rate (`context.acquire`). A 429 asking for more than `BRAVE_MAX_RETRY_AFTER_MS`, or for a wait
 *   that ends after `context.deadline`, is not retried: a sooner retry would only be refused again,
 *   so it fails at once with `provider_rate_limited`; so does every 429 when `context.failover` is set.
 * - 401/403 and auth codes on 422 → `provider_auth`; 502/503/504 and network errors →
 *   `provider_unavailable`; other statuses, non-JSON, malformed JSON or an unexpected shape →
 *   `provider_error`. Messages are ours; upstream text never leaves this file.
 * - When the engine's signal aborts, its abort error is rethrown as is: the engine maps it.
 */
export function createBraveProvider(config: BraveProviderConfig): SearchProvider {
  if (config.apiKey.trim() === '') throw new ProviderNotConfiguredError('BRAVE_SEARCH_API_KEY is not set.');
  const baseUrl = (config.baseUrl ?? BRAVE_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const endpoint = new URL(`${baseUrl}/web/search`);
  const recipient = endpoint.host;
  const headers = { Accept: 'application/json', 'X-Subscription-Token': config.apiKey };

  const http = lazyHttpGetClient(endpoint, config.http);

  async function call(params: URLSearchParams, signal: AbortSignal, context: ProviderContext, retries: number) {
    const url = new URL(endpoint);
    url.search = params.toString();
    const client = http.get();
    for (let attempt = 0; ; attempt += 1) {
      let response: HttpAnswer;
      try {
        response = await client.get(url, headers, signal);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw new ProviderError('provider_unavailable', 'Brave Search could not be reached.', { cause: error });
      }
      if (response.status === 429) {
        client.discard(response);
        const named = namedDelayMs(response);
        const delay = named ?? BRAVE_DEFAULT_RETRY_DELAY_MS;
        await context.pause?.(named);
        const pastDeadline = context.deadline !== undefined && context.now() + delay > context.deadline;
        if (attempt >= retries || delay > BRAVE_MAX_RETRY_AFTER_MS || pastDeadline) {
          throw new ProviderError('provider_rate_limited', 'Brave Search is rate limiting this server; retry later.', {
            status: 429,
            retryAfterMs: delay,
          });
        }
        await context.sleep(delay, signal);
        if (signal.aborted) throw signal.reason;
        await context.acquire?.();
        continue;
      }
      if (response.status < 200 || response.status > 299) throw await statusError(client, response, signal);
      return { body: await parseAnswer(client, response, signal), headers: response };
    }
  }

  function params(item: NormalizedRequestItem, count: number, offset: number, now: number): URLSearchParams {
    const out = new URLSearchParams({ q: braveQuery(item), count: String(count) });
    if (offset > 0) out.set('offset', String(offset));
    const freshness = item.freshness === undefined ? undefined : braveFreshness(item.freshness, now);
    if (freshness !== undefined) out.set('freshness', freshness);
    out.set('country', item.country);
    const lang = item.search_lang === undefined ? undefined : toBraveSearchLang(item.search_lang);
    if (lang !== undefined) out.set('search_lang', lang);
    out.set('safesearch', item.safesearch);
    out.set('text_decorations', 'false');
    out.set('result_filter', 'web');
    return out;
  }

  async function run(query: ProviderQuery, signal: AbortSignal, context: ProviderContext): Promise<ProviderAnswer> {
    const inScope = context.inScope;
    // With a scope every page is a full one: filtering removes part of each.
    const perPage =
      inScope === undefined
        ? Math.min(Math.max(query.fetchCount, 1), BRAVE_MAX_COUNT_PER_CALL)
        : BRAVE_MAX_COUNT_PER_CALL;
    const planned = Math.min(Math.ceil(query.fetchCount / perPage), BRAVE_MAX_OFFSET + 1);
    const last = Math.min(planned + (inScope === undefined ? 0 : BRAVE_MAX_SCOPE_PAGES), BRAVE_MAX_OFFSET + 1);
    const now = (context.wallClock ?? Date.now)();
    const candidates: RawCandidate[] = [];
    const suggestions: string[] = [];
    let kept = 0;
    for (let page = 0; page < last; page += 1) {
      let pageSignal = signal;
      if (page >= planned) {
        // A further page only while the scope left too few, each one call of the request's budget.
        if (kept >= query.fetchCount) break;
        const next = context.nextCall === undefined ? signal : await context.nextCall();
        if (next === undefined) break; // the budget is spent
        pageSignal = next === signal ? signal : AbortSignal.any([signal, next]);
      }
      let body: BraveSearchResponse;
      try {
        // With another provider behind this one, a 429 goes there at once instead of being waited out.
        const retries = context.failover === true ? 0 : BRAVE_MAX_RETRIES;
        ({ body } = await call(params(query, perPage, page, now), pageSignal, context, retries));
      } catch (error) {
        if (page === 0 || signal.aborted) throw error;
        break;
      }
      const results = (body.web?.results ?? []).map(toCandidate);
      candidates.push(...results);
      kept += inScope === undefined ? results.length : results.filter(inScope).length;
      const altered = body.query?.altered;
      if (page === 0 && typeof altered === 'string' && differs(altered, query.query)) suggestions.push(altered);
      if (body.query?.more_results_available !== true || results.length < perPage) break;
    }
    return suggestions.length > 0 ? { candidates, suggestions } : { candidates };
  }

  return {
    id: 'brave',
    name: 'Brave Search',
    recipient,
    honoured: [...REQUEST_OPTIONS],
    unsupported: [
      {
        option: 'search_lang',
        rule: `Brave Search supports only these search_lang codes: ${BRAVE_ISO_LANGUAGES.join(', ')}`,
      },
    ],
    languages: BRAVE_ISO_LANGUAGES,
    maxQueryWords: BRAVE_MAX_QUERY_WORDS,
    maxCallsPerQuery: 1 + BRAVE_MAX_SCOPE_PAGES,

    validate(item: NormalizedRequestItem, index: number): Issue[] {
      const issues: Issue[] = [];
      const words = wordCount(item.query);
      if (words > BRAVE_MAX_QUERY_WORDS) {
        issues.push({
          path: `requests[${index}].query`,
          message: issueMessage('providerQueryWords', { provider: 'Brave Search', max: BRAVE_MAX_QUERY_WORDS, words }),
        });
      } else {
        // The limits hold for `q` as sent, operators included: the field that pushed it over is named.
        const q = braveQuery(item);
        if (!withinLimits(q)) {
          const field =
            item.include_domains === undefined || withinLimits(braveQuery({ ...item, exclude_domains: undefined }))
              ? 'exclude_domains'
              : 'include_domains';
          issues.push({
            path: `requests[${index}].${field}`,
            message: issueMessage('providerOption', {
              option: field,
              provider: 'Brave Search',
              reason: `with its site: operators the query has ${wordCount(q)} words and ${[...q].length} characters, where Brave Search takes at most ${BRAVE_MAX_QUERY_WORDS} words and ${BRAVE_MAX_QUERY_LENGTH} characters`,
            }),
          });
        }
      }
      if (item.search_lang !== undefined && toBraveSearchLang(item.search_lang) === undefined) {
        issues.push({
          path: `requests[${index}].search_lang`,
          message: issueMessage('providerLanguage', {
            provider: 'Brave Search',
            value: item.search_lang,
            supported: BRAVE_ISO_LANGUAGES.join(', '),
          }),
        });
      }
      return issues;
    },

    async search(query: ProviderQuery, context: ProviderContext): Promise<ProviderAnswer> {
      if (config.timeoutMs === undefined) return run(query, context.signal, context);
      const own = new AbortController();
      const timer = setTimeout(
        () => own.abort(new DOMException('Brave Search timed out', 'TimeoutError')),
        config.timeoutMs,
      );
      try {
        return await run(query, AbortSignal.any([context.signal, own.signal]), context);
      } catch (error) {
        if (!context.signal.aborted && own.signal.aborted) {
          throw new ProviderError('provider_timeout', 'Brave Search did not answer in time.', { cause: error });
        }
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },

    close: http.close,

    async doctor(context: ProviderContext): Promise<DoctorCheck[]> {
      const name = 'Brave Search API key';
      const probe = new URLSearchParams({ q: DOCTOR_QUERY, count: '1', result_filter: 'web' });
      try {
        const { headers: answer } = await call(probe, context.signal, context, 0);
        const left = lastNumber(answer.header('x-ratelimit-remaining'));
        const quota = left === undefined ? '' : ` (${left} requests left in the current quota window)`;
        return [{ name, ok: true, detail: `accepted by ${recipient}${quota}` }];
      } catch (error) {
        if (!(error instanceof ProviderError)) {
          return [{ name, ok: false, detail: `${recipient} did not answer in time`, fix: 'Check network access.' }];
        }
        const fix: Record<ProviderError['code'], string> = {
          provider_auth: 'Set BRAVE_SEARCH_API_KEY to a key from the Brave Search API dashboard.',
          provider_rate_limited: "Wait for Brave's rate limit or monthly quota to reset, or raise the plan's limits.",
          provider_unavailable: `Check network access to ${recipient} and BRAVE_SEARCH_BASE_URL.`,
          provider_timeout: `Check network access to ${recipient}.`,
          provider_error: 'Check BRAVE_SEARCH_BASE_URL points at the Brave Search API.',
        };
        return [{ name, ok: false, detail: error.message, fix: fix[error.code] }];
      }
    },
  };
}

function toCandidate(result: BraveResult): RawCandidate {
  const meta = result.meta_url;
  return {
    // Brave documents `title` and `description` as HTML: matches come wrapped in `<strong>`, and
    // the text carries entities.
    format: 'html',
    title: result.title,
    url: result.url,
    description: result.description,
    age: result.age ?? result.page_age,
    published: result.page_age,
    language: result.language,
    family_friendly: result.family_friendly,
    favicon: typeof meta === 'object' && meta !== null ? (meta as { favicon?: unknown }).favicon : undefined,
  };
}

/** True when `altered` is a real change of `original`, not just case or spacing. */
function differs(altered: string, original: string): boolean {
  const fold = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  return fold(altered) !== '' && fold(altered) !== fold(original);
}

/**
 * Milliseconds Brave asks us to wait after a 429: `Retry-After` (seconds or a date), else the reset
 * of the exhausted `X-RateLimit-*` window; undefined when it names no time.
 */
function namedDelayMs(headers: Pick<HttpAnswer, 'header'>): number | undefined {
  const retryAfter = headers.header('retry-after')?.trim();
  if (retryAfter !== undefined && /^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
  if (retryAfter !== undefined && !Number.isNaN(Date.parse(retryAfter)))
    return Math.max(0, Date.parse(retryAfter) - Date.now());
  return exhaustedWindowResetMs(headers);
}

/** Brave lists one entry per window (`1, 15000`); the wait is the reset of the windows at zero. */
function exhaustedWindowResetMs(headers: Pick<HttpAnswer, 'header'>): number | undefined {
  const remaining = numbers(headers.header('x-ratelimit-remaining'));
  const reset = numbers(headers.header('x-ratelimit-reset'));
  let ms: number | undefined;
  remaining.forEach((left, i) => {
    const seconds = reset[i];
    if (left === 0 && seconds !== undefined) ms = Math.max(ms ?? 0, seconds * 1000);
  });
  return ms;
}

function numbers(header: string | null): number[] {
  if (header === null) return [];
  return header.split(',').map((part) => (/^\s*\d+\s*$/.test(part) ? Number(part) : Number.NaN));
}

function lastNumber(header: string | null): number | undefined {
  const last = numbers(header).at(-1);
  return last === undefined || Number.isNaN(last) ? undefined : last;
}

async function statusError(client: HttpGetClient, response: HttpAnswer, signal: AbortSignal): Promise<ProviderError> {
  const status = response.status;
  let braveCode: string | undefined;
  try {
    const body: unknown = JSON.parse(await readBounded(client, response, signal));
    const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
    if (typeof code === 'string' && /^[A-Z_]{1,64}$/.test(code)) braveCode = code;
  } catch (error) {
    if (signal.aborted) throw error;
  }
  // Only Brave's error code (an identifier) is kept, for logs; its text never is.
  const cause = braveCode === undefined ? undefined : new Error(`Brave error code ${braveCode}`);
  const options = cause === undefined ? { status } : { status, cause };
  if (status === 401 || status === 403 || (status === 422 && braveCode !== undefined && AUTH_CODE.test(braveCode))) {
    return new ProviderError('provider_auth', `Brave Search rejected the API key (HTTP ${status}).`, options);
  }
  if (status === 502 || status === 503 || status === 504) {
    return new ProviderError('provider_unavailable', `Brave Search is unavailable (HTTP ${status}).`, options);
  }
  if (status >= 300 && status < 400) {
    return new ProviderError('provider_error', `Brave Search answered with a redirect (HTTP ${status}).`, options);
  }
  if (status >= 500) return new ProviderError('provider_error', `Brave Search failed (HTTP ${status}).`, options);
  return new ProviderError('provider_error', `Brave Search refused the request (HTTP ${status}).`, options);
}

async function parseAnswer(
  client: HttpGetClient,
  response: HttpAnswer,
  signal: AbortSignal,
): Promise<BraveSearchResponse> {
  const type = response.header('content-type') ?? '';
  if (!/\bjson\b/i.test(type)) {
    client.discard(response);
    throw new ProviderError('provider_error', 'Brave Search answered with something other than JSON.', {
      status: response.status,
    });
  }
  const text = await readBounded(client, response, signal);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProviderError('provider_error', 'Brave Search sent malformed JSON.', { status: response.status });
  }
  const answer = asSearchResponse(json);
  if (answer === undefined) {
    throw new ProviderError('provider_error', 'Brave Search sent an answer of an unexpected shape.', {
      status: response.status,
    });
  }
  return answer;
}

/** Reads a body as UTF-8, refusing more than `MAX_BODY_BYTES`. */
async function readBounded(client: HttpGetClient, response: HttpAnswer, signal: AbortSignal): Promise<string> {
  try {
    return await client.readText(response, MAX_BODY_BYTES, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    if ((error as BodyFailure) === 'too_large')
      throw new ProviderError('provider_error', 'Brave Search sent an answer too large to read.', {
        status: response.status,
      });
    throw new ProviderError('provider_unavailable', 'Brave Search closed the connection mid-answer.', {
      status: response.status,
    });
  }
}
