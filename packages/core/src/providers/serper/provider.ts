import { closedRange, type NormalizedRequestItem, parseFreshness } from '@openmates/contract';
import {
  type AnswerPage,
  type Capabilities,
  type HttpRequest,
  type JsonTranslator,
  type PageRequest,
  ProviderNotConfiguredError,
  type ProviderQuery,
  type RawCandidate,
  type SearchProvider,
} from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';
import { lazyHttpClient } from '../shared/http-client.ts';
import { withSiteOperators } from '../shared/site-operators.ts';
import type { OwnRefusals } from '../shared/status-errors.ts';

/** Serper's API origin when `SERPER_BASE_URL` is not set. */
export const SERPER_DEFAULT_BASE_URL = 'https://google.serper.dev';
/**
 * Results asked for one call: Google's page of ten. Serper bills a call of up to ten results as one
 * credit, so a larger `count` takes more pages rather than a larger, dearer one (ADR 0128).
 */
export const SERPER_PAGE_SIZE = 10;
/** Serper pages fetched per query at most; each page is one provider call of the request's budget. */
export const SERPER_MAX_PAGES = 4;

// Google's `qdr:` periods (past day, week, month, year).
const SERPER_PERIODS = { day: 'd', week: 'w', month: 'm', year: 'y' } as const;
// Google's `gl` codes differ from ISO 3166-1 for the United Kingdom.
const GL_EXCEPTIONS: Readonly<Record<string, string>> = { GB: 'uk' };

/** Google's `tbs` for a normalized `freshness`: `qdr:d`…`qdr:y`, or `cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY`. */
export function serperTbs(freshness: string, now: number): string | undefined {
  const parsed = parseFreshness(freshness);
  if (parsed === undefined) return undefined;
  if ('period' in parsed) return `qdr:${SERPER_PERIODS[parsed.period]}`;
  const { from, to } = closedRange(parsed, now);
  return `cdr:1,cd_min:${usDate(from)},cd_max:${usDate(to)}`;
}

/** `2025-03-09` as Google's custom date range writes it: `3/9/2025`. */
function usDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${Number(month)}/${Number(day)}/${year}`;
}

/** Google's `gl` for a country: lowercase, `uk` for GB; none for ALL. */
export function serperCountry(country: string): string | undefined {
  if (country === 'ALL') return undefined;
  return GL_EXCEPTIONS[country] ?? country.toLowerCase();
}

/** The `q` Serper gets: the query and its domain scope as Google's `site:` operators. */
export function serperQuery(item: Parameters<typeof withSiteOperators>[0]): string {
  return withSiteOperators(item);
}

/** Results asked for a page: with a scope every page is a full one (filtering removes part of each). */
function perPage(item: ProviderQuery, page: PageRequest): number {
  return page.scoped ? SERPER_PAGE_SIZE : Math.min(Math.max(item.fetchCount, 1), SERPER_PAGE_SIZE);
}

/** The JSON body of one page's search (`POST /search` or `/news`). */
export function serperBody(item: ProviderQuery, page: PageRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { q: serperQuery(item), num: perPage(item, page) };
  // `page` counts pages of `num`, from 1 (ADR 0103).
  if (page.page > 0) body.page = page.page + 1;
  const gl = serperCountry(item.country);
  if (gl !== undefined) body.gl = gl;
  if (item.search_lang !== undefined) body.hl = item.search_lang;
  const tbs = item.freshness === undefined ? undefined : serperTbs(item.freshness, page.wallClock);
  if (tbs !== undefined) body.tbs = tbs;
  return body;
}

/** What Serper can do (ADR 0128): every option but extra snippets and a strict safe search. */
export const SERPER_CAPABILITIES: Capabilities = {
  honoured: [
    'count',
    'topic',
    'page',
    'country',
    'search_lang',
    'freshness',
    'filter_tabloids',
    'include_domains',
    'exclude_domains',
  ],
  refuses: [
    {
      option: 'safesearch',
      label: 'safesearch "strict"',
      applies: (item: NormalizedRequestItem) => item.safesearch === 'strict',
      reason: 'its API has no safe-search parameter',
      rule: 'safesearch "strict" is refused: Serper documents no safe-search parameter (Google applies its default filtering for "off" and "moderate" alike).',
    },
    {
      option: 'extra_snippets',
      applies: (item: NormalizedRequestItem) => item.extra_snippets === true,
      reason: 'its answers carry one snippet a result, no further passages of the page',
      rule: 'extra_snippets is refused: Serper answers with one snippet a result; omit it.',
    },
  ],
  paging: { maxPages: SERPER_MAX_PAGES, perPage: SERPER_PAGE_SIZE, scopePages: 1 },
  retry: { maxRetries: 2, maxWaitMs: 5_000, unnamed: { retry: true, waitMs: 1_000, pauseMs: 1_000 } },
};

/** Serper's own refusals: a 400 is its answer to a key without credits left, as well as to a bad request. */
const SERPER_REFUSALS: OwnRefusals = {
  statuses: {
    400: {
      code: 'provider_error',
      message: 'Serper refused the request (HTTP 400): the account may be out of credits.',
    },
  },
};

/**
 * One of Serper's answer pages, or undefined when it is not one: an object whose `organic` (web) or
 * `news` (news) is an array of objects, with an optional `relatedSearches` array. Serper never says
 * whether more results exist: a full page means more may.
 */
function parseAnswer(json: unknown, query: ProviderQuery, page: PageRequest): AnswerPage | undefined {
  if (!isRecord(json)) return undefined;
  const results = json[query.topic === 'news' ? 'news' : 'organic'];
  const list = results === undefined ? [] : results;
  if (!Array.isArray(list) || !list.every(isRecord)) return undefined;
  const related = Array.isArray(json.relatedSearches) ? json.relatedSearches : [];
  return {
    candidates: list.map(toCandidate),
    ...(page.first ? { suggestions: related.map((entry) => (isRecord(entry) ? entry.query : undefined)) } : {}),
    more: list.length >= perPage(query, page),
  };
}

function toCandidate(result: Record<string, unknown>): RawCandidate {
  return {
    // Serper's documentation does not say how `title` and `snippet` are written: read as markup,
    // which at worst leaves text as it was (ADR 0128).
    format: 'html',
    title: result.title,
    url: result.link,
    description: result.snippet,
    // Google's own wording of the date (`Jan 29, 2023`, `3 days ago`): shown, never compared.
    age: result.date,
  };
}

export interface SerperProviderConfig {
  /** The Serper API key, sent as `X-API-KEY`. Required. */
  apiKey: string;
  /** Serper's API origin (default `https://google.serper.dev`). */
  baseUrl?: string;
}

/** The request of one page, as it is sent: `POST {origin}/search` (`/news` for news) with `X-API-KEY`. */
function serperRequest(
  origin: string,
  apiKey: string,
  query: ProviderQuery,
  page: PageRequest,
): HttpRequest & { body: { json: Record<string, unknown> } } {
  const path = query.topic === 'news' ? '/news' : '/search';
  return {
    method: 'POST',
    url: new URL(`${origin}${path}`),
    headers: { Accept: 'application/json', 'X-API-KEY': apiKey },
    body: { json: serperBody(query, page) },
  };
}

/** Serper's origin as configured, without a trailing slash. */
function serperOrigin(baseUrl: string | undefined): string {
  return (baseUrl ?? SERPER_DEFAULT_BASE_URL).replace(/\/+$/, '');
}

/**
 * The Serper provider (Google results, ADR 0128): `POST {baseUrl}/search` (`/news` for `topic:
 * news`) with `X-API-KEY` and a JSON body `{q, num, page, gl, hl, tbs}`. Pages of ten while a page is
 * full; the domains as `site:` operators in `q`, `freshness` as Google's `tbs`. Timeouts, 429
 * retries, paging and the bounded read are the call pipeline's.
 */
export function createSerperProvider(config: SerperProviderConfig): SearchProvider {
  if (config.apiKey.trim() === '') throw new ProviderNotConfiguredError('SERPER_API_KEY is not set.');
  const origin = serperOrigin(config.baseUrl);
  const endpoint = new URL(`${origin}/search`);
  const http = lazyHttpClient(endpoint);
  const translator: JsonTranslator = {
    kind: 'http',
    client: http.get,
    buildRequest: (query, page) => serperRequest(origin, config.apiKey, query, page),
    parseAnswer,
    refusals: SERPER_REFUSALS,
  };
  return {
    id: 'serper',
    name: 'Serper',
    recipient: endpoint.host,
    capabilities: SERPER_CAPABILITIES,
    translator,
    close: http.close,
  };
}
