import { DEFAULT_COUNTRY, parseFreshness } from '@openmates/contract';
import type {
  AnswerPage,
  Capabilities,
  HttpRequest,
  JsonTranslator,
  ProviderQuery,
  RawCandidate,
  SearchProvider,
} from '../../provider.ts';
import { ProviderNotConfiguredError } from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';
import { lazyHttpClient } from '../shared/http-client.ts';
import type { OwnRefusals } from '../shared/status-errors.ts';
import { tavilyCountry } from './countries.ts';

/** Tavily's API origin when `TAVILY_BASE_URL` is not set; the translator adds `/search`. */
export const TAVILY_DEFAULT_BASE_URL = 'https://api.tavily.com';
/** Most results one Tavily search returns (`max_results` is 0 to 20). */
export const TAVILY_MAX_RESULTS = 20;
/** The one depth sent: `basic` costs 1 API credit a search, `advanced` 2 (ADR 0124). */
export const TAVILY_SEARCH_DEPTH = 'basic';

/**
 * How Tavily writes `title` and `content`: plain text extracted from the page (Markdown marks such
 * as `##` and `**` may remain), never HTML (ADR 0124).
 */
export const TAVILY_TEXT_FORMAT = 'text';

/**
 * What Tavily's Search can do (ADR 0124): `count` as `max_results`, `topic`, `freshness` as
 * `time_range` or `start_date`/`end_date`, both domain lists, and `country` on the general topic.
 * One call a query: it has no pages.
 */
export const TAVILY_CAPABILITIES: Capabilities = {
  honoured: ['count', 'topic', 'freshness', 'filter_tabloids', 'include_domains', 'exclude_domains'],
  conditional: [
    {
      option: 'country',
      rule: `Honoured on the web topic (Tavily's country boost, the country's English name); with topic "news" only ALL and the default ${DEFAULT_COUNTRY} are accepted (no country is sent: Tavily's news search takes none).`,
    },
  ],
  refuses: [
    {
      option: 'country',
      label: 'country with topic "news"',
      applies: (item) => item.topic === 'news' && item.country !== 'ALL' && item.country !== DEFAULT_COUNTRY,
      reason: 'its country boost is available only on the general topic, not with topic "news"',
    },
    {
      option: 'page',
      applies: (item) => item.page !== undefined,
      reason: 'its search answers one set of results and cannot page past it',
      rule: "page is refused past 1: Tavily's search answers one set of up to 20 results; omit it.",
    },
    {
      option: 'search_lang',
      applies: (item) => item.search_lang !== undefined,
      reason: 'its search has no language control',
      rule: "search_lang is refused: Tavily's search has no language parameter; omit it.",
    },
    {
      option: 'safesearch',
      label: 'safesearch "strict"',
      applies: (item) => item.safesearch === 'strict',
      reason: 'its search has no safe-search control',
      rule: 'safesearch "strict" is refused: Tavily\'s search has no safe-search parameter ("off" and "moderate" are accepted and not sent).',
    },
    {
      option: 'extra_snippets',
      applies: (item) => item.extra_snippets === true,
      reason: 'its basic search answers one content excerpt a result',
      rule: "extra_snippets is refused: Tavily's basic search answers one content excerpt a result (its chunks need the advanced search, at twice the credits); omit it.",
    },
  ],
  // A 429 is retried after the Retry-After it names, once; one that names none is not.
  retry: { maxRetries: 1, maxWaitMs: 5_000, unnamed: { retry: false, waitMs: 0, pauseMs: 1_000 } },
};

/** The JSON body of Tavily's `POST /search` for one query (ADR 0124). */
export function tavilyBody(query: ProviderQuery): Record<string, unknown> {
  const news = query.topic === 'news';
  const body: Record<string, unknown> = {
    query: query.query,
    search_depth: TAVILY_SEARCH_DEPTH,
    topic: news ? 'news' : 'general',
    max_results: Math.min(Math.max(query.fetchCount, 1), TAVILY_MAX_RESULTS),
    include_answer: false,
    include_raw_content: false,
    include_images: false,
  };
  const freshness = query.freshness === undefined ? undefined : parseFreshness(query.freshness);
  if (freshness !== undefined && 'period' in freshness) body.time_range = freshness.period;
  else if (freshness !== undefined) {
    if (freshness.from !== undefined) body.start_date = freshness.from;
    if (freshness.to !== undefined) body.end_date = freshness.to;
  }
  if (query.include_domains?.length) body.include_domains = [...query.include_domains];
  if (query.exclude_domains?.length) body.exclude_domains = [...query.exclude_domains];
  const country = news ? undefined : tavilyCountry(query.country);
  if (country !== undefined) body.country = country;
  return body;
}

/**
 * Tavily's own refusals: 432 (the plan's credits are used up) and 433 (the pay-as-you-go limit is
 * reached) are limits of the account, not of the request.
 */
export const TAVILY_REFUSALS: OwnRefusals = {
  statuses: {
    432: {
      code: 'provider_rate_limited',
      message: "Tavily refused the search: the plan's API credits are used up (HTTP {status}).",
    },
    433: {
      code: 'provider_rate_limited',
      message: 'Tavily refused the search: the pay-as-you-go limit is reached (HTTP {status}).',
    },
  },
};

/**
 * One Tavily answer, or undefined when it is not one: an object whose `results` is an array of
 * objects. Tavily answers one set of results, so there is never more.
 */
function parseAnswer(json: unknown): AnswerPage | undefined {
  if (!isRecord(json) || !Array.isArray(json.results) || !json.results.every(isRecord)) return undefined;
  return { candidates: (json.results as Record<string, unknown>[]).map(toCandidate), more: false };
}

function toCandidate(result: Record<string, unknown>): RawCandidate {
  return {
    format: TAVILY_TEXT_FORMAT,
    title: result.title,
    url: result.url,
    description: result.content,
    // News results carry `published_date`; web results carry none.
    published: isoDate(result.published_date),
    favicon: result.favicon,
  };
}

/** A date Tavily wrote, as ISO 8601 (the form the engine holds against `freshness`); else as given. */
function isoDate(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const at = Date.parse(value);
  return Number.isNaN(at) ? value : new Date(at).toISOString();
}

export interface TavilyProviderConfig {
  /** The Tavily API key, sent as `Authorization: Bearer`. Required. */
  apiKey: string;
  /** Tavily's API origin (default `https://api.tavily.com`). */
  baseUrl?: string;
}

/** `POST {baseUrl}/search` for `query`, with the key as a bearer token. */
export function tavilyRequest(endpoint: URL, apiKey: string, query: ProviderQuery): HttpRequest {
  return {
    method: 'POST',
    url: endpoint,
    headers: { Accept: 'application/json', Authorization: `Bearer ${apiKey}` },
    body: { json: tavilyBody(query) },
  };
}

/** The search endpoint of a base URL (an origin, a proxy's path kept). */
export function tavilyEndpoint(baseUrl: string | undefined): URL {
  return new URL(`${(baseUrl ?? TAVILY_DEFAULT_BASE_URL).replace(/\/+$/, '')}/search`);
}

/**
 * The Tavily provider (ADR 0124): one `POST {baseUrl}/search` a query with the key as a bearer
 * token and `search_depth: "basic"` (1 API credit). Its text is plain text.
 */
export function createTavilyProvider(config: TavilyProviderConfig): SearchProvider {
  if (config.apiKey.trim() === '') throw new ProviderNotConfiguredError('TAVILY_API_KEY is not set.');
  const endpoint = tavilyEndpoint(config.baseUrl);
  const http = lazyHttpClient(endpoint);
  const translator: JsonTranslator = {
    kind: 'http',
    client: http.get,
    buildRequest: (query) => tavilyRequest(endpoint, config.apiKey, query),
    parseAnswer,
    refusals: TAVILY_REFUSALS,
  };
  return {
    id: 'tavily',
    name: 'Tavily',
    recipient: endpoint.host,
    capabilities: TAVILY_CAPABILITIES,
    translator,
    close: http.close,
  };
}
