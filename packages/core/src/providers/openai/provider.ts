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
    honoured: ['count', 'country', 'filter_tabloids'],
    unsupported: OPENAI_UNSUPPORTED,

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
