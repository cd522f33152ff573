import type { Capabilities, DoctorCheck, SearchProvider, StreamTranslator } from '../../provider.ts';
import { lazyHttpClient } from '../shared/http-client.ts';
import { answerFromReceipt } from './candidates.ts';
import { receiptOf } from './receipt.ts';
import { type AnthropicSettings, messagesRequest, messagesUrl } from './request.ts';

/**
 * What Anthropic's hosted `web_search` can do (ADR 0129). `count` is met by the engine cutting the
 * candidates (the tool takes no count); `include_domains` goes as `allowed_domains`,
 * `exclude_domains` as `blocked_domains`, never both (the tool refuses the pair, so it is refused
 * here first); `country` as an approximate `user_location`; `extra_snippets` are the further
 * passages the answer's citations quote. One request per query, never retried (it is a POST).
 */
export const ANTHROPIC_CAPABILITIES: Capabilities = {
  honoured: ['count', 'country', 'filter_tabloids', 'include_domains', 'exclude_domains', 'extra_snippets'],
  refuses: [
    {
      option: 'exclude_domains',
      label: 'include_domains with exclude_domains',
      applies: (item) => (item.include_domains?.length ?? 0) > 0 && (item.exclude_domains?.length ?? 0) > 0,
      reason: 'its hosted search takes either domains to search or domains to leave out, not both',
      rule: "include_domains with exclude_domains is refused: Anthropic's hosted web_search takes one list or the other; send one.",
    },
    {
      option: 'safesearch',
      label: 'safesearch "strict"',
      applies: (item) => item.safesearch === 'strict',
      reason: 'its hosted search has no safe-search control',
      rule: 'safesearch "strict" is refused: Anthropic\'s hosted web_search has no safe-search control.',
    },
    {
      option: 'search_lang',
      applies: (item) => item.search_lang !== undefined,
      reason: 'its hosted search has no language control',
      rule: "search_lang is refused: Anthropic's hosted web_search has no language control; omit it.",
    },
    {
      option: 'freshness',
      applies: (item) => item.freshness !== undefined,
      reason: 'its hosted search has no date filter',
      rule: "freshness is refused: Anthropic's hosted web_search has no date filter; omit it.",
    },
    {
      option: 'page',
      applies: (item) => item.page !== undefined,
      reason: 'its hosted search answers one set of results and cannot page past it',
      rule: "page is refused past 1: Anthropic's hosted web_search answers one set of results; omit it.",
    },
    {
      option: 'topic',
      label: 'topic "news"',
      applies: (item) => item.topic === 'news',
      reason: 'its hosted search has no news search',
      rule: 'topic "news" is refused: Anthropic\'s hosted web_search searches the web only; omit it.',
    },
  ],
  retry: { maxRetries: 0, maxWaitMs: 0, unnamed: { retry: false, waitMs: 0, pauseMs: 1_000 } },
};

/**
 * The Anthropic hosted `web_search` provider: one Messages request per query (never retried),
 * accepted only with a complete search receipt (ADR 0129).
 */
export function createAnthropicProvider(settings: AnthropicSettings & { apiKey: string }): SearchProvider {
  const url = messagesUrl(settings.baseUrl);
  const http = lazyHttpClient(url);
  const translator: StreamTranslator = {
    kind: 'http',
    client: http.get,
    buildRequest: (query) => messagesRequest(query, settings),
    // Anthropic answers 529 when its API is overloaded for everyone: the service is unavailable.
    refusals: {
      statuses: { 529: { code: 'provider_unavailable', message: 'Anthropic is overloaded (HTTP {status}).' } },
    },
    async readStream(answer, query, signal) {
      // The reader (the event-stream parser and with it Node's web streams) loads on the first answer.
      const { readMessage } = await import('./transport.ts');
      const message = await readMessage(http.get(), answer, signal);
      return { ...answerFromReceipt(receiptOf(message, settings.maxSearches), query.query), more: false };
    },
  };
  return {
    id: 'anthropic',
    name: `Anthropic web_search (${settings.model})`,
    recipient: url.host,
    capabilities: ANTHROPIC_CAPABILITIES,
    translator,
    close: http.close,
    async doctor(): Promise<DoctorCheck[]> {
      return [
        {
          name: 'anthropic configuration',
          ok: true,
          detail: `model ${settings.model}; queries go to ${url.host} (a Claude model searching; charges may apply); at most ${settings.maxSearches} searches per query (max_uses); API key set`,
        },
      ];
    },
  };
}
