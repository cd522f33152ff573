import type { Capabilities, DoctorCheck, HttpRequest, SearchProvider, StreamTranslator } from '../../provider.ts';
import { lazyHttpClient } from '../shared/http-client.ts';
import { answerFromReceipt } from './candidates.ts';
import { type OpenAIProviderConfig, resolveOpenAIConfig } from './config.ts';
import type { ReceiptRule } from './receipts.ts';
import { buildOpenAIRequest, type OpenAIQuery } from './request.ts';

/**
 * What OpenAI's hosted `web_search` can do (ADR 0075). `count` is met by the engine cutting the
 * candidates (the tool takes no count); `include_domains` goes as the tool's
 * `filters.allowed_domains`; `exclude_domains` has no counterpart and is applied to the results
 * alone. One streamed request per query, never retried (nor sent again on a lost connection: it is a POST).
 */
export const OPENAI_CAPABILITIES: Capabilities = {
  honoured: ['count', 'country', 'filter_tabloids', 'include_domains'],
  conditional: [
    {
      option: 'exclude_domains',
      rule: "Applied to the results only: OpenAI's hosted web_search takes no list of domains to leave out, so removing them can leave fewer than count results.",
    },
  ],
  refuses: [
    {
      option: 'safesearch',
      label: 'safesearch "strict"',
      applies: (item) => item.safesearch === 'strict',
      reason: 'its hosted search has no safe-search control',
      rule: 'safesearch "strict" is refused: OpenAI\'s hosted web_search has no safe-search control (OpenAI applies its own content policy for "off" and "moderate" alike).',
    },
    {
      option: 'search_lang',
      applies: (item) => item.search_lang !== undefined,
      reason: 'its hosted search has no language control',
      rule: "search_lang is refused: OpenAI's hosted web_search has no language control; omit it.",
    },
    {
      option: 'freshness',
      applies: (item) => item.freshness !== undefined,
      reason: 'its hosted search has no date filter',
      rule: "freshness is refused: OpenAI's hosted web_search has no date filter; omit it.",
    },
    {
      option: 'page',
      applies: (item) => item.page !== undefined,
      reason: 'its hosted search answers one set of results and cannot page past it',
      rule: "page is refused past 1: OpenAI's hosted web_search answers one set of results; omit it.",
    },
    {
      option: 'topic',
      label: 'topic "news"',
      applies: (item) => item.topic === 'news',
      reason: 'its hosted search has no news search',
      rule: 'topic "news" is refused: OpenAI\'s hosted web_search searches the web only; omit it.',
    },
    {
      option: 'extra_snippets',
      applies: (item) => item.extra_snippets === true,
      reason: 'its hosted search cites pages without quoting them',
      rule: "extra_snippets is refused: OpenAI's hosted web_search cites pages without passages from them; omit it.",
    },
  ],
  retry: { maxRetries: 0, maxWaitMs: 0, unnamed: { retry: false, waitMs: 0, pauseMs: 1_000 } },
};

/** `POST {baseUrl}/responses` for one query (or one of the live probe's fixed inputs), its body as JSON. */
export function responsesRequest(query: OpenAIQuery, config: OpenAIProviderConfig): HttpRequest {
  const request = buildOpenAIRequest(query, config);
  return { method: 'POST', url: new URL(request.url), headers: request.headers, body: { json: request.body } };
}

/** What tells one endpoint serving the Responses API from another, for `createResponsesProvider`. */
export interface ResponsesProviderSpec {
  id: SearchProvider['id'];
  name: string;
  /** Who receives the queries (a host). */
  recipient: string;
  /** The origin the HTTP client connects to. */
  origin: URL;
  capabilities: Capabilities;
  maxSearches: number;
  /** The endpoint's receipt rule (OpenAI's own when not given). */
  rule?: ReceiptRule;
  /** The request of one query (or one of a live probe's fixed inputs). */
  request(query: OpenAIQuery): HttpRequest;
  /** The detail of its doctor's configuration check. */
  doctorDetail: string;
}

/**
 * A hosted-search provider on the Responses API: one streamed request per query (never retried),
 * accepted only with a completed search receipt under the endpoint's rule.
 */
export function createResponsesProvider(spec: ResponsesProviderSpec): SearchProvider {
  const http = lazyHttpClient(spec.origin);
  const translator: StreamTranslator = {
    kind: 'http',
    client: http.get,
    buildRequest: (query) => spec.request(query),
    async readStream(answer, query, signal) {
      // The stream's reader (its event schemas, the event-stream parser and with it Node's web
      // streams) loads on the first answer, so a process searching another provider never pays for it.
      const { readReceipt } = await import('./transport.ts');
      const receipt = await readReceipt(answer, spec.maxSearches, signal, spec.rule);
      // A hosted search bills each web search the model ran, as the receipt shows them (page reads are not searches).
      const { input, output } = receipt.tokens;
      const usage = {
        billed: receipt.searches,
        ...(input === undefined ? {} : { inputTokens: input }),
        ...(output === undefined ? {} : { outputTokens: output }),
      };
      return { ...answerFromReceipt(receipt, query.query), more: false, usage };
    },
  };
  return {
    id: spec.id,
    name: spec.name,
    recipient: spec.recipient,
    capabilities: spec.capabilities,
    translator,
    close: http.close,
    async doctor(): Promise<DoctorCheck[]> {
      return [{ name: `${spec.id} configuration`, ok: true, detail: spec.doctorDetail }];
    },
  };
}

/**
 * The OpenAI hosted `web_search` provider: one streamed Responses request per query (never
 * retried), accepted only with a completed search receipt. Throws ProviderNotConfiguredError when
 * the key is missing or the configuration is invalid.
 */
export function createOpenAIProvider(config: OpenAIProviderConfig): SearchProvider {
  const resolved = resolveOpenAIConfig(config);
  return createResponsesProvider({
    id: 'openai',
    name: `OpenAI web_search (${resolved.model})`,
    recipient: resolved.recipient,
    origin: new URL(resolved.baseUrl),
    capabilities: OPENAI_CAPABILITIES,
    maxSearches: resolved.maxSearches,
    request: (query) => responsesRequest(query, resolved),
    doctorDetail: `model ${resolved.model}; queries go to ${resolved.recipient} (a separate OpenAI search model; charges may apply); at most ${resolved.maxSearches} searches per query (page reads not counted); API key set`,
  });
}
