import { type Issue, issueMessage, type NormalizedRequestItem } from '@openmates/contract';
import type { DoctorCheck, ProviderAnswer, ProviderContext, ProviderQuery, SearchProvider } from '../../provider.ts';
import { answerFromReceipt } from './candidates.ts';
import { type OpenAIProviderConfig, resolveOpenAIConfig } from './config.ts';
import { buildOpenAIRequest } from './request.ts';

/** Option values OpenAI's hosted search cannot honour, refused at validation (skill info lists them). */
export const OPENAI_UNSUPPORTED: SearchProvider['unsupported'] = [
  {
    option: 'safesearch',
    rule: 'safesearch "strict" is refused: OpenAI\'s hosted web_search has no safe-search control (OpenAI applies its own content policy for "off" and "moderate" alike).',
  },
  {
    option: 'search_lang',
    rule: "search_lang is refused: OpenAI's hosted web_search has no language control; omit it.",
  },
  {
    option: 'freshness',
    rule: "freshness is refused: OpenAI's hosted web_search has no date filter; omit it.",
  },
];

/**
 * The OpenAI hosted `web_search` provider: one streamed Responses request per query (never
 * retried), accepted only with a completed search receipt. Throws ProviderNotConfiguredError when
 * the key is missing or the configuration is invalid.
 */
export function createOpenAIProvider(config: OpenAIProviderConfig): SearchProvider {
  const resolved = resolveOpenAIConfig(config);
  return {
    id: 'openai',
    name: `OpenAI web_search (${resolved.model})`,
    recipient: resolved.recipient,
    // `count` is met by the engine cutting the candidates; the tool itself takes no count.
    // `include_domains` goes as the tool's `filters.allowed_domains`; `exclude_domains` has no
    // counterpart in the tool and is applied by the engine alone, on the results.
    honoured: ['count', 'country', 'filter_tabloids', 'include_domains'],
    unsupported: OPENAI_UNSUPPORTED,
    conditional: [
      {
        option: 'exclude_domains',
        rule: "Applied to the results only: OpenAI's hosted web_search takes no list of domains to leave out, so removing them can leave fewer than count results.",
      },
    ],

    validate(item: NormalizedRequestItem, index: number): Issue[] {
      const issues: Issue[] = [];
      if (item.safesearch === 'strict')
        issues.push({
          path: `requests[${index}].safesearch`,
          message: issueMessage('providerOption', {
            option: 'safesearch "strict"',
            provider: 'OpenAI web_search',
            reason: 'its hosted search has no safe-search control',
          }),
        });
      if (item.search_lang !== undefined)
        issues.push({
          path: `requests[${index}].search_lang`,
          message: issueMessage('providerOption', {
            option: 'search_lang',
            provider: 'OpenAI web_search',
            reason: 'its hosted search has no language control',
          }),
        });
      if (item.freshness !== undefined)
        issues.push({
          path: `requests[${index}].freshness`,
          message: issueMessage('providerOption', {
            option: 'freshness',
            provider: 'OpenAI web_search',
            reason: 'its hosted search has no date filter',
          }),
        });
      return issues;
    },

    async search(query: ProviderQuery, context: ProviderContext): Promise<ProviderAnswer> {
      // The transport (its event schemas, the event-stream parser and with it Node's web streams)
      // loads on the first OpenAI search, so a process searching another provider never pays for it.
      const { runOpenAISearch } = await import('./transport.ts');
      const request = buildOpenAIRequest(query, resolved);
      const receipt = await runOpenAISearch(request, resolved.maxNativeSearches, context.signal);
      return answerFromReceipt(receipt, query.query);
    },

    async doctor(): Promise<DoctorCheck[]> {
      return [
        {
          name: 'openai configuration',
          ok: true,
          detail: `model ${resolved.model}; queries go to ${resolved.recipient} (a separate OpenAI search model; charges may apply); at most ${resolved.maxNativeSearches} native searches per query; API key set`,
        },
      ];
    },
  };
}
