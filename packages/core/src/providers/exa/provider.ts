import {
  type AnswerPage,
  type HttpRequest,
  type HttpTranslator,
  type PageRequest,
  ProviderNotConfiguredError,
  type ProviderQuery,
  type RateLimitHints,
  type RawCandidate,
  type SearchProvider,
} from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';
import { type HttpAnswer, lazyHttpClient } from '../shared/http-client.ts';
import { retryAfterMs } from '../shared/json-answer.ts';
import type { OwnRefusals } from '../shared/status-errors.ts';
import { EXA_CAPABILITIES, exaSearchBody } from './request.ts';

export { EXA_CAPABILITIES } from './request.ts';

/** Exa's API origin when `EXA_BASE_URL` is not set. */
export const EXA_DEFAULT_BASE_URL = 'https://api.exa.ai';

/**
 * Exa's `title`, `text` and `highlights` are read as HTML: its documentation says only that HTML tags
 * come with `includeHtmlTags` (never asked for), but its real answers carry undecoded entities in
 * page text (`d&#39;une`, in a recorded answer), which only an HTML reading decodes (ADR 0126).
 */
export const EXA_TEXT_FORMAT = 'html' as const;

export interface ExaProviderConfig {
  /** The Exa API key, sent as `x-api-key`. Required. */
  apiKey: string;
  /** Exa's API origin (default `https://api.exa.ai`); `/search` is added. */
  baseUrl?: string;
}

/** `POST {baseUrl}/search` for one query, its body as JSON. */
export function exaRequest(
  endpoint: URL,
  headers: Readonly<Record<string, string>>,
  query: ProviderQuery,
  page: Pick<PageRequest, 'wallClock'>,
): HttpRequest {
  return { method: 'POST', url: endpoint, headers, body: { json: exaSearchBody(query, page) } };
}

/**
 * One Exa answer, or undefined when it is not one: an object whose `results` is an array of
 * objects. Exa answers one set of results a query (no pages), and reports what it charged in
 * `costDollars.total`, kept as the page's `costDollars` for usage accounting.
 */
function parseAnswer(json: unknown): AnswerPage | undefined {
  if (!isRecord(json) || !Array.isArray(json.results) || !json.results.every(isRecord)) return undefined;
  const cost = isRecord(json.costDollars) ? json.costDollars.total : undefined;
  return {
    candidates: json.results.map(toCandidate),
    more: false,
    ...(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? { costDollars: cost } : {}),
  };
}

function toCandidate(result: Record<string, unknown>): RawCandidate {
  const candidate: RawCandidate = {
    format: EXA_TEXT_FORMAT,
    title: result.title,
    url: result.url,
    description: result.text,
    favicon: result.favicon,
  };
  // Exa's publishedDate is ISO 8601 (or null, or absent): the result's age as a date, and its date.
  const published = result.publishedDate;
  if (typeof published === 'string' && !Number.isNaN(Date.parse(published))) {
    candidate.age = published.slice(0, 10);
    candidate.published = published;
  }
  // Passages of the page most relevant to the query: page text, asked for only with extra_snippets.
  if (Array.isArray(result.highlights)) candidate.extra_snippets = result.highlights;
  return candidate;
}

/**
 * Exa's own refusals: a 402 is an account out of credits (not the key's fault, and no retry helps).
 * Its error bodies carry an identifier in `tag`, kept for logs.
 */
export const EXA_REFUSALS: OwnRefusals = {
  errorCodeAt: ['tag'],
  statuses: {
    402: {
      code: 'provider_rate_limited',
      message: 'Exa refused the search: the account has no credits left (HTTP 402).',
    },
  },
};

/**
 * The wait Exa names after a 429 (`Retry-After`, else the reset of an exhausted window), and the
 * requests left in its window: `x-ratelimit-limit`, `x-ratelimit-remaining`, `x-ratelimit-reset`
 * (the window's end, in seconds since the epoch, as its recorded answers carry it).
 */
export function exaRateLimit(answer: Pick<HttpAnswer, 'header'>, now: number = Date.now()): RateLimitHints {
  const remaining = wholeNumber(answer.header('x-ratelimit-remaining'));
  const reset = wholeNumber(answer.header('x-ratelimit-reset'));
  let waitMs = retryAfterMs(answer, now);
  if (waitMs === undefined && remaining === 0 && reset !== undefined)
    // A reset far below today's epoch seconds is a number of seconds to wait.
    waitMs = reset > 1_000_000_000 ? Math.max(0, reset * 1000 - now) : reset * 1000;
  return { ...(waitMs === undefined ? {} : { waitMs }), ...(remaining === undefined ? {} : { remaining }) };
}

function wholeNumber(header: string | null): number | undefined {
  return header !== null && /^\s*\d+\s*$/.test(header) ? Number(header) : undefined;
}

/**
 * The Exa provider (ADR 0126): `POST {baseUrl}/search` with `x-api-key`, one call a query (no
 * pages), the page text's first 1000 characters as the description and, with `extra_snippets`, its
 * highlights. Timeouts, 429 retries and pauses and the bounded read are the call pipeline's.
 */
export function createExaProvider(config: ExaProviderConfig): SearchProvider {
  if (config.apiKey.trim() === '') throw new ProviderNotConfiguredError('EXA_API_KEY is not set.');
  const root = (config.baseUrl ?? EXA_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const endpoint = new URL(`${root}/search`);
  const headers = { Accept: 'application/json', 'x-api-key': config.apiKey };
  const http = lazyHttpClient(endpoint);
  const translator: HttpTranslator = {
    kind: 'http',
    client: http.get,
    buildRequest: (query, page) => exaRequest(endpoint, headers, query, page),
    parseAnswer,
    rateLimit: (answer) => exaRateLimit(answer),
    refusals: EXA_REFUSALS,
  };
  return {
    id: 'exa',
    name: 'Exa',
    recipient: endpoint.host,
    capabilities: EXA_CAPABILITIES,
    translator,
    close: http.close,
  };
}
