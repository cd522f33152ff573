import { closedRange, parseFreshness, REQUEST_OPTIONS } from '@openmates/contract';
import {
  type AnswerPage,
  type Capabilities,
  type DoctorCheck,
  type HttpRequest,
  type HttpTranslator,
  type PageRequest,
  ProviderError,
  ProviderNotConfiguredError,
  type ProviderQuery,
  type RateLimitHints,
  type RawCandidate,
  type SearchProvider,
} from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';
import type { HttpAnswer, HttpClient } from '../shared/http-client.ts';
import { lazyHttpClient, queryUrls } from '../shared/http-client.ts';
import { exchangeJson, retryAfterMs } from '../shared/json-answer.ts';
import { type ScopedQuery, withSiteOperators } from '../shared/site-operators.ts';
import { type OwnRefusals, statusError } from '../shared/status-errors.ts';
import { BRAVE_ISO_LANGUAGES, toBraveSearchLang } from './languages.ts';
import {
  BRAVE_DEFAULT_RETRY_DELAY_MS,
  BRAVE_MAX_COUNT_PER_CALL,
  BRAVE_MAX_OFFSET,
  BRAVE_MAX_PAGES,
  BRAVE_MAX_QUERY_LENGTH,
  BRAVE_MAX_QUERY_WORDS,
  BRAVE_MAX_RETRIES,
  BRAVE_MAX_RETRY_AFTER_MS,
  BRAVE_MAX_SCOPE_PAGES,
} from './limits.ts';

/** Brave's Web Search API root when `BRAVE_SEARCH_BASE_URL` is not set. */
export const BRAVE_DEFAULT_BASE_URL = 'https://api.search.brave.com/res/v1';

// `openmates doctor`'s probe: one small search.
const DOCTOR_PROBE = new URLSearchParams({ q: 'openmates', count: '1', result_filter: 'web' });
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

/** What Brave can do: every option, its languages, its query limits, pages and retries (ADR 0075). */
export const BRAVE_CAPABILITIES: Capabilities = {
  honoured: [...REQUEST_OPTIONS],
  languages: BRAVE_ISO_LANGUAGES,
  query: { maxWords: BRAVE_MAX_QUERY_WORDS, maxLength: BRAVE_MAX_QUERY_LENGTH, sent: braveQuery },
  paging: {
    maxPages: BRAVE_MAX_PAGES,
    perPage: BRAVE_MAX_COUNT_PER_CALL,
    scopePages: BRAVE_MAX_SCOPE_PAGES,
    reach: BRAVE_MAX_OFFSET,
  },
  retry: {
    maxRetries: BRAVE_MAX_RETRIES,
    maxWaitMs: BRAVE_MAX_RETRY_AFTER_MS,
    unnamed: { retry: true, waitMs: BRAVE_DEFAULT_RETRY_DELAY_MS, pauseMs: BRAVE_DEFAULT_RETRY_DELAY_MS },
  },
};

export interface BraveProviderConfig {
  /** The Brave Search subscription token, sent as `X-Subscription-Token`. Required. */
  apiKey: string;
  /** Brave's API root (default `https://api.search.brave.com/res/v1`). */
  baseUrl?: string;
}

/** Results asked for a page: with a scope every page is a full one (filtering removes part of each). */
function perPage(item: ProviderQuery, page: PageRequest): number {
  return page.scoped ? BRAVE_MAX_COUNT_PER_CALL : Math.min(Math.max(item.fetchCount, 1), BRAVE_MAX_COUNT_PER_CALL);
}

/**
 * Brave's query parameters for one page, on the web or the news endpoint (which takes the same
 * ones, but neither `text_decorations` nor `result_filter`).
 */
function params(item: ProviderQuery, page: PageRequest): URLSearchParams {
  const out = new URLSearchParams({ q: braveQuery(item), count: String(perPage(item, page)) });
  // `offset` counts pages of `count` (ADR 0103).
  if (page.page > 0) out.set('offset', String(page.page));
  const freshness = item.freshness === undefined ? undefined : braveFreshness(item.freshness, page.wallClock);
  if (freshness !== undefined) out.set('freshness', freshness);
  out.set('country', item.country);
  const lang = item.search_lang === undefined ? undefined : toBraveSearchLang(item.search_lang);
  if (lang !== undefined) out.set('search_lang', lang);
  out.set('safesearch', item.safesearch);
  if (item.topic !== 'news') {
    out.set('text_decorations', 'false');
    out.set('result_filter', 'web');
  }
  if (item.extra_snippets === true) out.set('extra_snippets', 'true');
  return out;
}

/** The results of a Brave answer, or undefined when it is not of the endpoint's shape. */
function resultsOf(json: Record<string, unknown>, news: boolean): Record<string, unknown>[] | undefined {
  const list = (value: unknown) => Array.isArray(value) && value.every(isRecord);
  if (news) return json.type === 'news' && list(json.results) ? (json.results as Record<string, unknown>[]) : undefined;
  if (json.type !== 'search') return undefined;
  const web = json.web;
  if (web === undefined) return [];
  return isRecord(web) && list(web.results) ? (web.results as Record<string, unknown>[]) : undefined;
}

/**
 * One of Brave's answer pages, or undefined when it is not one: a `WebSearchApiResponse` (`type:
 * "search"`, an optional object `web` whose `results` is an array of objects) or a news answer
 * (`type: "news"`, `results` an array of objects), each with an optional object `query`. More
 * results exist when `query.more_results_available` says so and the page is full; the news
 * endpoint does not say, so there a full page means more. A plain check, not a schema library: it
 * runs on every answer.
 */
function parseAnswer(json: unknown, query: ProviderQuery, page: PageRequest): AnswerPage | undefined {
  if (!isRecord(json)) return undefined;
  const head = json.query;
  if (head !== undefined && !isRecord(head)) return undefined;
  const results = resultsOf(json, query.topic === 'news');
  if (results === undefined) return undefined;
  const full = results.length >= perPage(query, page);
  const said = head?.more_results_available;
  const altered = head?.altered;
  return {
    candidates: results.map(toCandidate),
    ...(page.first && typeof altered === 'string' && differs(altered, braveQuery(query)) ? { altered } : {}),
    more: full && (typeof said === 'boolean' ? said : query.topic === 'news'),
  };
}

/**
 * Brave's own refusals: a 422 whose error code (`error.code`, an identifier kept for logs) names the
 * key or its subscription is the key's fault.
 */
const BRAVE_REFUSALS: OwnRefusals = {
  errorCodeAt: ['error', 'code'],
  statuses: {
    422: {
      code: 'provider_auth',
      message: 'Brave Search rejected the API key (HTTP {status}).',
      errorCode: /TOKEN|SUBSCRIPTION|AUTH|FORBIDDEN|NOT_ALLOWED/,
    },
  },
};

/**
 * The wait Brave names after a 429: `Retry-After` (seconds or a date), else the reset of the
 * exhausted `X-RateLimit-*` window; and the requests left in its last window.
 */
function rateLimit(answer: Pick<HttpAnswer, 'header'>): RateLimitHints {
  const waitMs = retryAfterMs(answer) ?? exhaustedWindowResetMs(answer);
  const remaining = lastNumber(answer.header('x-ratelimit-remaining'));
  return { ...(waitMs === undefined ? {} : { waitMs }), ...(remaining === undefined ? {} : { remaining }) };
}

/**
 * The Brave Search provider (ADR 0017, ADR 0075, ADR 0102, ADR 0103): `GET {baseUrl}/web/search`
 * (`{baseUrl}/news/search` for `topic: news`) with `X-Subscription-Token`. Pages of up to 20
 * (`offset` 1, 2, …, at most 9) in the result page's window while Brave says more results are
 * available; `freshness` as Brave's `freshness`, the domains as `site:` operators in `q`. Its text
 * is HTML. Timeouts, 429 retries and pauses, paging and the bounded read are the call pipeline's.
 */
export function createBraveProvider(config: BraveProviderConfig): SearchProvider {
  if (config.apiKey.trim() === '') throw new ProviderNotConfiguredError('BRAVE_SEARCH_API_KEY is not set.');
  const baseUrl = (config.baseUrl ?? BRAVE_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const endpoint = new URL(`${baseUrl}/web/search`);
  const headers = { Accept: 'application/json', 'X-Subscription-Token': config.apiKey };
  const http = lazyHttpClient(endpoint);
  const at = queryUrls(endpoint);
  // The news endpoint shares the web endpoint's origin, key and client.
  const atNews = queryUrls(new URL(`${baseUrl}/news/search`));
  const translator: HttpTranslator = {
    kind: 'http',
    client: http.get,
    buildRequest: (query, page) => ({
      method: 'GET',
      url: (query.topic === 'news' ? atNews : at)(params(query, page)),
      headers,
    }),
    parseAnswer,
    rateLimit,
    refusals: BRAVE_REFUSALS,
  };
  return {
    id: 'brave',
    name: 'Brave Search',
    recipient: endpoint.host,
    capabilities: BRAVE_CAPABILITIES,
    translator,
    close: http.close,
    doctor: (signal) => keyCheck(http.get(), { method: 'GET', url: at(DOCTOR_PROBE), headers }, endpoint.host, signal),
  };
}

const FIX: Record<ProviderError['code'], string> = {
  quota_exceeded: "An API key's quota on this server is spent; it is no fault of Brave's.",
  provider_auth: 'Set BRAVE_SEARCH_API_KEY to a key from the Brave Search API dashboard.',
  provider_rate_limited: "Wait for Brave's rate limit or monthly quota to reset, or raise the plan's limits.",
  provider_unavailable: 'Check network access to the Brave Search API and BRAVE_SEARCH_BASE_URL.',
  provider_timeout: 'Check network access to the Brave Search API.',
  provider_error: 'Check BRAVE_SEARCH_BASE_URL points at the Brave Search API.',
};

/** `openmates doctor`'s key check: one small search, and the quota its answer reports. */
async function keyCheck(
  client: HttpClient,
  probe: HttpRequest,
  recipient: string,
  signal: AbortSignal,
): Promise<DoctorCheck[]> {
  const name = 'Brave Search API key';
  try {
    const answer = await exchangeJson(client, probe, signal, { name: 'Brave Search' });
    if (answer.status < 200 || answer.status > 299)
      throw statusError('Brave Search', answer.status, { own: BRAVE_REFUSALS, body: answer.body });
    const left = rateLimit(answer).remaining;
    const quota = left === undefined ? '' : ` (${left} requests left in the current quota window)`;
    return [{ name, ok: true, detail: `accepted by ${recipient}${quota}` }];
  } catch (error) {
    if (!(error instanceof ProviderError))
      return [{ name, ok: false, detail: `${recipient} did not answer in time`, fix: 'Check network access.' }];
    return [{ name, ok: false, detail: error.message, fix: FIX[error.code] }];
  }
}

function toCandidate(result: Record<string, unknown>): RawCandidate {
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
    favicon: isRecord(meta) ? meta.favicon : undefined,
    // Brave's own display host and breadcrumb, kept where clean (`metaUrlOf`).
    meta_url: meta,
    // Up to five more passages of the page, HTML like the description; sent only when asked.
    extra_snippets: result.extra_snippets,
  };
}

/** True when `altered` is a real change of `original`, not just case or spacing. */
function differs(altered: string, original: string): boolean {
  const fold = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  return fold(altered) !== '' && fold(altered) !== fold(original);
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
