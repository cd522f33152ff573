import {
  type Issue,
  issueMessage,
  type NormalizedRequestItem,
  parseFreshness,
  SEARXNG_MAX_PAGES,
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
import { type BodyFailure, type HttpAnswer, type HttpGetClientFactory, lazyHttpGetClient } from '../shared/http-get.ts';
import { withSiteOperators } from '../shared/site-operators.ts';

/**
 * SearXNG's `title` and `content` are plain text: its engines extract text from the pages they
 * scrape, and its own HTML output escapes both before display (`searx/webapp.py`:
 * `highlight_content(escape(result['content']))`), so a `<b>` in them is a literal `<b>`. The
 * engine must clean them as text, never parse them as HTML (ADR 0017).
 */
export const SEARXNG_TEXT_FORMAT = 'text' as const;

// A SearXNG page is a few dozen results (well under 100 KB); anything far larger is not an answer.
const MAX_BODY_BYTES = 4 * 1024 * 1024;
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
  /** Makes the HTTP client it calls its origin with (default `createHttpGetClient`, node:http). */
  http?: HttpGetClientFactory;
}

/** The `Authorization` value for basic-auth credentials (RFC 7617, UTF-8). */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** The parts of SearXNG's JSON answer we read (`searx/webutils.py` get_json_response); all untrusted. */
interface SearxngAnswer {
  results: Record<string, unknown>[];
  suggestions: unknown[];
  corrections: unknown[];
  unresponsive_engines: unknown[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asAnswer(json: unknown): SearxngAnswer | undefined {
  if (!isRecord(json) || !Array.isArray(json.results) || !json.results.every(isRecord)) return undefined;
  const list = (value: unknown) => (Array.isArray(value) ? value : []);
  return {
    results: json.results,
    suggestions: list(json.suggestions),
    corrections: list(json.corrections),
    unresponsive_engines: list(json.unresponsive_engines),
  };
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

/** A key under which two spellings of one URL are the same result (the engine normalizes again). */
function urlKey(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  return URL.canParse(url) ? new URL(url).href : url;
}

/**
 * The SearXNG provider: `GET {baseUrl}/search?q=&format=json&language=&safesearch=&pageno=`.
 *
 * - `freshness` goes as `time_range` (day, week, month, year; a date range is refused at
 *   validation), the domains as `site:` / `-site:` operators in `q`.
 * - Pages (each one provider call through `context.nextCall`) until `fetchCount` distinct URLs are
 *   gathered (with a scope, distinct URLs `context.inScope` keeps), at most SEARXNG_MAX_PAGES,
 *   stopping at a page that adds nothing new. A later page
 *   that fails or is empty ends paging; what earlier pages gathered is kept.
 * - Zero results in total with `unresponsive_engines` → `provider_unavailable` (never an empty
 *   success); the engines' own reason text is never read.
 * - 403 → `provider_error` naming `search.formats`; 429 → `provider_rate_limited` naming the
 *   `limiter` setting (no retry: SearXNG's limiter blocks for minutes); 401 → `provider_auth`;
 *   network errors and 502/503/504 → `provider_unavailable`; redirects, other statuses, HTML,
 *   malformed JSON or an unexpected shape → `provider_error`. Messages are ours.
 * - When the engine's signal aborts, its abort error is rethrown as is: the engine maps it.
 */
export function createSearxngProvider(config: SearxngProviderConfig): SearchProvider {
  if (config.baseUrl.trim() === '' || !URL.canParse(config.baseUrl))
    throw new ProviderNotConfiguredError('SEARXNG_BASE_URL is not set.');
  const base = new URL(config.baseUrl);
  base.username = '';
  base.password = '';
  const root = base.href.replace(/\/+$/, '');
  const endpoint = new URL(`${root}/search`);
  const configUrl = new URL(`${root}/config`);
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

  const client = lazyHttpGetClient(endpoint, config.http);
  const http = client.get;

  async function get(url: URL, signal: AbortSignal): Promise<HttpAnswer> {
    try {
      return await http().get(url, headers, signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new ProviderError('provider_unavailable', `SearXNG at ${recipient} could not be reached.`, {
        cause: error,
      });
    }
  }

  async function page(query: ProviderQuery, pageno: number, signal: AbortSignal): Promise<SearxngAnswer> {
    const url = new URL(endpoint);
    const params = new URLSearchParams({
      q: withSiteOperators(query),
      format: 'json',
      language: searxngLanguage(query),
      safesearch: SAFESEARCH[query.safesearch],
      pageno: String(pageno),
    });
    const timeRange = searxngTimeRange(query.freshness);
    if (timeRange !== undefined) params.set('time_range', timeRange);
    url.search = params.toString();
    const response = await get(url, signal);
    if (response.status < 200 || response.status > 299) {
      http().discard(response);
      throw statusError(response.status);
    }
    return parseAnswer(response, signal);
  }

  async function parseAnswer(response: HttpAnswer, signal: AbortSignal): Promise<SearxngAnswer> {
    const type = response.header('content-type') ?? '';
    if (!/\bjson\b/i.test(type)) {
      http().discard(response);
      throw new ProviderError(
        'provider_error',
        'SearXNG answered with a web page instead of JSON (a login page or proxy in front of it?).',
        { status: response.status },
      );
    }
    let text: string;
    try {
      text = await http().readText(response, MAX_BODY_BYTES, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      if ((error as BodyFailure) === 'too_large')
        throw new ProviderError('provider_error', 'SearXNG sent an answer too large to read.', {
          status: response.status,
        });
      throw new ProviderError('provider_unavailable', 'SearXNG closed the connection mid-answer.', {
        status: response.status,
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProviderError('provider_error', 'SearXNG sent malformed JSON.', { status: response.status });
    }
    const answer = asAnswer(json);
    if (answer === undefined)
      throw new ProviderError('provider_error', 'SearXNG sent an answer of an unexpected shape.', {
        status: response.status,
      });
    return answer;
  }

  async function search(query: ProviderQuery, context: ProviderContext): Promise<ProviderAnswer> {
    const { signal } = context;
    const candidates: RawCandidate[] = [];
    const seen = new Set<string>();
    const suggestions: unknown[] = [];
    let unresponsive = 0;
    let kept = 0;
    for (let pageno = 1; pageno <= SEARXNG_MAX_PAGES; pageno += 1) {
      const pageSignal = pageno === 1 || !context.nextCall ? signal : await context.nextCall();
      if (pageSignal === undefined) break; // the request's call budget is spent
      let answer: SearxngAnswer;
      try {
        answer = await page(query, pageno, pageSignal);
      } catch (error) {
        if (pageno === 1 || signal.aborted) throw error;
        break; // a later page failed or timed out: keep what the earlier ones gathered
      }
      unresponsive = Math.max(unresponsive, answer.unresponsive_engines.length);
      if (pageno === 1) suggestions.push(...answer.corrections, ...answer.suggestions);
      let added = 0;
      for (const result of answer.results) {
        const key = urlKey(result.url);
        if (key === undefined || seen.has(key)) continue;
        seen.add(key);
        added += 1;
        const candidate = toCandidate(result);
        candidates.push(candidate);
        if (context.inScope === undefined || context.inScope(candidate)) kept += 1;
      }
      if (added === 0 || kept >= query.fetchCount) break;
    }
    if (candidates.length === 0 && unresponsive > 0) {
      throw new ProviderError(
        'provider_unavailable',
        `SearXNG found nothing because ${unresponsive} of its engines did not respond; try again later or check the instance's engines.`,
      );
    }
    return suggestions.length > 0 ? { candidates, suggestions } : { candidates };
  }

  return {
    id: 'searxng',
    name: 'SearXNG',
    recipient,
    honoured: ['count', 'search_lang', 'safesearch', 'filter_tabloids', 'include_domains', 'exclude_domains'],
    unsupported: [],
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
    maxCallsPerQuery: SEARXNG_MAX_PAGES,

    validate(item: NormalizedRequestItem, index: number): Issue[] {
      if (item.freshness === undefined || searxngTimeRange(item.freshness) !== undefined) return [];
      return [
        {
          path: `requests[${index}].freshness`,
          message: issueMessage('providerOption', {
            option: 'freshness',
            provider: 'SearXNG',
            reason: 'its time_range takes only day, week, month or year, not a date range',
          }),
        },
      ];
    },

    search,

    close: client.close,

    async doctor(context: ProviderContext): Promise<DoctorCheck[]> {
      return doctorChecks(context.signal);
    },
  };

  /**
   * Checks the instance without running a search: `/config` answers (reachable, credentials
   * accepted) and lists enabled engines; `/search?format=json` without a query is refused with 403
   * when `json` is not in `search.formats` (searx/webapp.py checks the format before the query) and
   * answers 400 `{"error": "No query"}` when it is, so no engine is ever asked.
   */
  async function doctorChecks(signal: AbortSignal): Promise<DoctorCheck[]> {
    const checks: DoctorCheck[] = [];
    const reach = 'SearXNG instance';
    let config: unknown;
    try {
      const response = await get(configUrl, signal);
      if (response.status !== 200) {
        http().discard(response);
        const error = statusError(response.status);
        return [{ name: reach, ok: false, detail: `${recipient}/config: ${error.message}`, fix: fixFor(error) }];
      }
      config = (await readJson(response, signal)) ?? null;
    } catch (error) {
      if (error instanceof ProviderError)
        return [{ name: reach, ok: false, detail: error.message, fix: fixFor(error) }];
      return [
        {
          name: reach,
          ok: false,
          detail: `${recipient} did not answer in time`,
          fix: 'Check that the instance is running and SEARXNG_BASE_URL points at it.',
        },
      ];
    }
    if (!isRecord(config)) {
      return [
        {
          name: reach,
          ok: false,
          detail: `${recipient}/config is not SearXNG's configuration`,
          fix: 'Point SEARXNG_BASE_URL at the instance itself, with its sub-path (the URL its search page is under).',
        },
      ];
    }
    const version = typeof config.version === 'string' && /^[\w.+-]{1,40}$/.test(config.version) ? config.version : '';
    checks.push({ name: reach, ok: true, detail: `${recipient} answers${version ? ` (SearXNG ${version})` : ''}` });

    const engines = Array.isArray(config.engines) ? config.engines.filter(isRecord) : [];
    const enabled = engines.filter((e) => e.enabled === true);
    const general = enabled.filter((e) => Array.isArray(e.categories) && e.categories.includes('general'));
    checks.push(
      general.length > 0
        ? {
            name: 'SearXNG engines',
            ok: true,
            detail: `${general.length} enabled engine${general.length === 1 ? '' : 's'} in the general category (${enabled.length} enabled in all)`,
          }
        : {
            name: 'SearXNG engines',
            ok: false,
            detail: `no enabled engine in the general category (${enabled.length} enabled in all)`,
            fix: 'Enable web engines (e.g. duckduckgo, brave, wikipedia) under `engines:` in the instance’s settings.yml.',
          },
    );

    const probe = new URL(endpoint);
    probe.search = 'format=json';
    try {
      const response = await get(probe, signal);
      const status = response.status;
      const type = response.header('content-type') ?? '';
      http().discard(response);
      if (status === 400 && /\bjson\b/i.test(type))
        checks.push({ name: 'SearXNG JSON output', ok: true, detail: 'enabled (json is in search.formats)' });
      else {
        const error = status === 200 ? undefined : statusError(status);
        checks.push({
          name: 'SearXNG JSON output',
          ok: false,
          detail: error?.message ?? `unexpected answer to a JSON request (HTTP ${status})`,
          fix: error ? fixFor(error) : 'Point SEARXNG_BASE_URL at the instance itself, with its sub-path.',
        });
      }
    } catch (error) {
      const message = error instanceof ProviderError ? error.message : `${recipient} did not answer in time`;
      checks.push({ name: 'SearXNG JSON output', ok: false, detail: message, fix: 'Check the instance is running.' });
    }
    if (isRecord(config.limiter) && config.limiter.enabled === true)
      checks.push({
        name: 'SearXNG limiter',
        ok: true,
        detail:
          'on: it may refuse this server with 429; if searches fail that way, add this server’s address to botdetection.ip_lists.pass_ip or set server.limiter: false',
      });
    return checks;
  }

  async function readJson(response: HttpAnswer, signal: AbortSignal): Promise<unknown> {
    if (!/\bjson\b/i.test(response.header('content-type') ?? '')) {
      http().discard(response);
      return undefined;
    }
    try {
      return JSON.parse(await http().readText(response, MAX_BODY_BYTES, signal));
    } catch (error) {
      if (signal.aborted) throw error;
      return undefined;
    }
  }
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

/** Our message for a status SearXNG (or a proxy in front of it) answered with. */
function statusError(status: number): ProviderError {
  const options = { status };
  if (status === 403)
    return new ProviderError(
      'provider_error',
      'SearXNG refused JSON output (HTTP 403): add json to search.formats in the instance’s settings.yml.',
      options,
    );
  if (status === 429)
    return new ProviderError(
      'provider_rate_limited',
      'SearXNG’s limiter refused this server (HTTP 429): turn the instance’s server.limiter setting off, or add this server’s address to its pass list (botdetection.ip_lists.pass_ip).',
      options,
    );
  if (status === 401)
    return new ProviderError(
      'provider_auth',
      'SearXNG refused the credentials (HTTP 401): check the user and password in SEARXNG_BASE_URL.',
      options,
    );
  if (status === 404)
    return new ProviderError(
      'provider_error',
      'SearXNG has no search endpoint at this address (HTTP 404): check the sub-path in SEARXNG_BASE_URL.',
      options,
    );
  if (status === 502 || status === 503 || status === 504)
    return new ProviderError('provider_unavailable', `SearXNG is unavailable (HTTP ${status}).`, options);
  if (status >= 300 && status < 400)
    return new ProviderError(
      'provider_error',
      `SearXNG answered with a redirect (HTTP ${status}): an external !! bang in the query, or a base URL that moved.`,
      options,
    );
  if (status >= 500) return new ProviderError('provider_error', `SearXNG failed (HTTP ${status}).`, options);
  return new ProviderError('provider_error', `SearXNG refused the request (HTTP ${status}).`, options);
}

function fixFor(error: ProviderError): string {
  switch (error.code) {
    case 'provider_auth':
      return 'Put the proxy’s user and password in SEARXNG_BASE_URL (https://user:password@host/path).';
    case 'provider_rate_limited':
      return 'Set server.limiter: false in the instance’s settings.yml, or add this server’s address to botdetection.ip_lists.pass_ip.';
    case 'provider_unavailable':
    case 'provider_timeout':
      return 'Check that the instance is running and SEARXNG_BASE_URL points at it.';
    default:
      return error.status === 403
        ? 'Add json to search.formats in the instance’s settings.yml (formats: [html, json]) and restart it.'
        : 'Point SEARXNG_BASE_URL at the instance itself, with its sub-path (the URL its search page is under).';
  }
}
