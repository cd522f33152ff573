import { type NormalizedRequestItem, parseFreshness } from '@openmates/contract';
import {
  type AnswerPage,
  type Capabilities,
  type HttpTranslator,
  type PageRequest,
  ProviderNotConfiguredError,
  type ProviderQuery,
  type RawCandidate,
  type SearchProvider,
} from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';
import { lazyHttpClient, queryUrls } from '../shared/http-client.ts';
import { withSiteOperators } from '../shared/site-operators.ts';
import { doctorChecks } from './doctor.ts';
import { SEARXNG_REFUSALS } from './refusals.ts';

/** SearXNG pages fetched per query at most; each page is one provider call of the request's budget. */
export const SEARXNG_MAX_PAGES = 3;
/**
 * Results on one SearXNG page: its engines answer about ten each and it merges them, so a page this
 * full says more may follow, and `pageno` counts pages of about this many (ADR 0103).
 */
export const SEARXNG_PAGE_SIZE = 10;
/**
 * How long every replica leaves SearXNG alone after a 429 that names no wait: its limiter
 * (`server.limiter`, searx/botdetection) blocks a client for minutes, so a retry would only be
 * refused again.
 */
export const SEARXNG_LIMITER_PAUSE_MS = 60_000;

/**
 * SearXNG's `title` and `content` are plain text: its engines extract text from the pages they
 * scrape, and its own HTML output escapes both before display (`searx/webapp.py`:
 * `highlight_content(escape(result['content']))`), so a `<b>` in them is a literal `<b>`. The
 * engine must clean them as text, never parse them as HTML (ADR 0017).
 */
export const SEARXNG_TEXT_FORMAT = 'text' as const;

// Country is sent only as the region of a `language` locale; `US` (the default) and `ALL` add none.
const NO_REGION = new Set(['US', 'ALL']);
const SAFESEARCH = { off: '0', moderate: '1', strict: '2' } as const;

export interface SearxngProviderConfig {
  /** The instance's URL, sub-path kept (e.g. `https://search.example/searxng`), without credentials. Required. */
  baseUrl: string;
  /** Basic-auth user of a proxy in front of the instance (default: none). */
  username?: string;
  /** Basic-auth password; a secret, sent only in the Authorization header (default: none). */
  password?: string;
  /** Sent as `User-Agent` (default `openmates-web-search`); SearXNG's limiter blocks an empty one. */
  userAgent?: string;
}

/** The `Authorization` value for basic-auth credentials (RFC 7617, UTF-8). */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** SearXNG's `language` parameter: `xx-CC` with a language and a non-default country, else `xx` or `all`. */
export function searxngLanguage(item: Pick<NormalizedRequestItem, 'search_lang' | 'country'>): string {
  if (item.search_lang === undefined) return 'all';
  return NO_REGION.has(item.country) ? item.search_lang : `${item.search_lang}-${item.country}`;
}

/** SearXNG's `time_range` for a normalized `freshness`: a named period, or `undefined` (none, or a date range). */
export function searxngTimeRange(freshness: string | undefined): string | undefined {
  const parsed = freshness === undefined ? undefined : parseFreshness(freshness);
  return parsed !== undefined && 'period' in parsed ? parsed.period : undefined;
}

/** The search parameters of one page. */
function params(query: ProviderQuery, page: PageRequest): URLSearchParams {
  const out = new URLSearchParams({
    q: withSiteOperators(query),
    format: 'json',
    language: searxngLanguage(query),
    safesearch: SAFESEARCH[query.safesearch],
    pageno: String(page.page + 1),
  });
  // Its news engines: the instance's `news` category (searx/settings.yml `categories_as_tabs`).
  if (query.topic === 'news') out.set('categories', 'news');
  const timeRange = searxngTimeRange(query.freshness);
  if (timeRange !== undefined) out.set('time_range', timeRange);
  return out;
}

/**
 * One page of SearXNG's JSON answer (`searx/webutils.py` get_json_response), or undefined when it
 * is not one. Zero results with `unresponsive_engines` is the engines' failure, never an empty
 * success; the engines' own reason text is never read.
 */
function parseAnswer(json: unknown, _query: ProviderQuery, page: PageRequest): AnswerPage | undefined {
  if (!isRecord(json) || !Array.isArray(json.results) || !json.results.every(isRecord)) return undefined;
  const list = (value: unknown) => (Array.isArray(value) ? value : []);
  const unresponsive = list(json.unresponsive_engines).length;
  return {
    candidates: json.results.map(toCandidate),
    // Corrections are what SearXNG proposes, not what it searched for: suggestions, never an altered query.
    ...(page.first ? { suggestions: [...list(json.corrections), ...list(json.suggestions)] } : {}),
    more: json.results.length >= SEARXNG_PAGE_SIZE,
    ...(unresponsive > 0
      ? {
          emptyBecause: `SearXNG found nothing because ${unresponsive} of its engines did not respond; try again later or check the instance's engines.`,
        }
      : {}),
  };
}

/** What SearXNG can do (ADR 0075): its options, pages, and no retry of its limiter's 429. */
export const SEARXNG_CAPABILITIES: Capabilities = {
  honoured: [
    'count',
    'topic',
    'page',
    'search_lang',
    'safesearch',
    'filter_tabloids',
    'include_domains',
    'exclude_domains',
  ],
  conditional: [
    {
      option: 'country',
      rule: 'Honoured only with search_lang: SearXNG gets the locale language=xx-CC (e.g. de-AT); without search_lang, or with US or ALL, no region is sent.',
    },
    {
      option: 'freshness',
      rule: 'Honoured for day, week, month and year (SearXNG’s time_range); a date range is refused: SearXNG has no date-range filter.',
    },
  ],
  refuses: [
    {
      option: 'extra_snippets',
      applies: (item) => item.extra_snippets === true,
      reason: 'its answers carry one excerpt a result, no further passages of the page',
      rule: 'extra_snippets is refused: SearXNG answers with one content excerpt a result; omit it.',
    },
    {
      option: 'freshness',
      applies: (item) => item.freshness !== undefined && searxngTimeRange(item.freshness) === undefined,
      reason: 'its time_range takes only day, week, month or year, not a date range',
    },
  ],
  paging: { maxPages: SEARXNG_MAX_PAGES, perPage: SEARXNG_PAGE_SIZE, scopePages: 1 },
  retry: {
    maxRetries: 2,
    maxWaitMs: 5_000,
    unnamed: { retry: false, waitMs: 0, pauseMs: SEARXNG_LIMITER_PAUSE_MS },
  },
};

/**
 * The SearXNG provider (ADR 0075): `GET {baseUrl}/search?q=&format=json&language=&safesearch=&pageno=`.
 * `freshness` goes as `time_range` (a date range is refused at validation), the domains as `site:` /
 * `-site:` operators in `q`; pages until `count` results pass admission (ADR 0100), at most
 * SEARXNG_MAX_PAGES. Its refusals name the instance setting to change (`search.formats`, the
 * limiter). Timeouts, retries and pauses, paging and the bounded read are the call pipeline's.
 */
export function createSearxngProvider(config: SearxngProviderConfig): SearchProvider {
  if (config.baseUrl.trim() === '' || !URL.canParse(config.baseUrl))
    throw new ProviderNotConfiguredError('SEARXNG_BASE_URL is not set.');
  const base = new URL(config.baseUrl);
  base.username = '';
  base.password = '';
  const root = base.href.replace(/\/+$/, '');
  const endpoint = new URL(`${root}/search`);
  const recipient = endpoint.host;
  const headers: Record<string, string> = {
    // The limiter's header checks (searx/botdetection) refuse clients that do not look like one.
    Accept: 'application/json, text/html;q=0.1',
    'Accept-Encoding': 'gzip, deflate',
    'Accept-Language': 'en',
    'User-Agent': config.userAgent ?? 'openmates-web-search',
  };
  if (config.username !== undefined || config.password !== undefined)
    headers.Authorization = basicAuthorization(config.username ?? '', config.password ?? '');
  const client = lazyHttpClient(endpoint);
  const at = queryUrls(endpoint);
  return {
    id: 'searxng',
    name: 'SearXNG',
    recipient,
    capabilities: SEARXNG_CAPABILITIES,
    translator: {
      kind: 'http',
      client: client.get,
      buildRequest: (query, page) => ({ method: 'GET', url: at(params(query, page)), headers }),
      parseAnswer,
      refusals: SEARXNG_REFUSALS,
      notJson: 'SearXNG answered with a web page instead of JSON (a login page or proxy in front of it?).',
    } satisfies HttpTranslator,
    close: client.close,
    doctor: (signal) => doctorChecks(client.get(), { root, recipient, headers }, signal),
  };
}

function toCandidate(result: Record<string, unknown>): RawCandidate {
  const candidate: RawCandidate = {
    format: SEARXNG_TEXT_FORMAT,
    title: result.title,
    url: result.url,
    description: result.content,
  };
  // SearXNG serializes publishedDate as ISO 8601 (or null); shown as the result's age, a date.
  if (typeof result.publishedDate === 'string' && !Number.isNaN(Date.parse(result.publishedDate))) {
    candidate.age = result.publishedDate.slice(0, 10);
    candidate.published = result.publishedDate;
  }
  return candidate;
}
