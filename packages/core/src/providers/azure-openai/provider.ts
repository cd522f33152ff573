import type { Capabilities, DoctorCheck, Refusal, SearchProvider } from '../../provider.ts';
import { probeResponses } from '../openai/probe.ts';
import { createResponsesProvider, OPENAI_CAPABILITIES } from '../openai/provider.ts';
import type { ResponsesSearchTool } from '../openai/request.ts';
import { type AzureOpenAIProviderConfig, resolveAzureOpenAIConfig } from './config.ts';
import { AZURE_RECEIPT_RULE } from './receipts.ts';
import { azureResponsesRequest } from './request.ts';

/** OpenAI's refusals, worded for Azure's hosted search. */
const OPENAI_REFUSALS: readonly Refusal[] = (OPENAI_CAPABILITIES.refuses ?? []).map((refusal) => ({
  ...refusal,
  ...(refusal.rule === undefined
    ? {}
    : { rule: refusal.rule.replaceAll("OpenAI's hosted web_search", "Azure OpenAI's hosted web search") }),
}));

const EXCLUDE_RULE =
  "Applied to the results only: Azure OpenAI's hosted web search takes no list of domains to leave out, so removing them can leave fewer than count results.";

/**
 * What Azure OpenAI's hosted search can do with `tool` (ADR 0133): as the `openai` provider with
 * `web_search`; with `web_search_preview`, which takes no domain filter (only `user_location` and
 * `search_context_size`), `include_domains` is refused too.
 */
export function azureOpenAICapabilities(tool: ResponsesSearchTool): Capabilities {
  const preview = tool === 'web_search_preview';
  return {
    ...OPENAI_CAPABILITIES,
    honoured: preview
      ? OPENAI_CAPABILITIES.honoured.filter((option) => option !== 'include_domains')
      : OPENAI_CAPABILITIES.honoured,
    conditional: [{ option: 'exclude_domains', rule: EXCLUDE_RULE }],
    refuses: [
      ...OPENAI_REFUSALS,
      ...(preview
        ? [
            {
              option: 'include_domains',
              applies: (item) => item.include_domains !== undefined && item.include_domains.length > 0,
              reason: 'its web_search_preview tool takes no domain filter',
              rule: 'include_domains is refused with OPENMATES_AZURE_OPENAI_SEARCH_TOOL=web_search_preview: that tool takes no domain filter; use web_search or omit it.',
            } satisfies Refusal,
          ]
        : []),
    ],
  };
}

/**
 * Azure OpenAI's hosted search: OpenAI's Responses provider at `{endpoint}/openai/v1/responses`
 * with the `api-key` header, the deployment as model, the configured tool and Azure's receipt rule
 * (ADR 0132). Throws ProviderNotConfiguredError when the key, endpoint or deployment is missing.
 */
export function createAzureOpenAIProvider(config: AzureOpenAIProviderConfig): SearchProvider {
  const resolved = resolveAzureOpenAIConfig(config);
  return createResponsesProvider({
    id: 'azure-openai',
    name: `Azure OpenAI ${resolved.searchTool} (${resolved.deployment})`,
    recipient: resolved.recipient,
    origin: new URL(resolved.endpoint),
    capabilities: azureOpenAICapabilities(resolved.searchTool),
    maxSearches: resolved.maxSearches,
    rule: AZURE_RECEIPT_RULE,
    request: (query) => azureResponsesRequest(query, resolved),
    doctorDetail: `deployment ${resolved.deployment} with ${resolved.searchTool}; queries go to ${resolved.recipient} (Azure bills the model and each web search); at most ${resolved.maxSearches} searches per query (max_tool_calls ${resolved.maxSearches}); API key set`,
  });
}

/** The live two-level probe of `openmates doctor --live` on Azure's endpoint (fixed probe text; billed). */
export async function azureLiveProbe(config: AzureOpenAIProviderConfig, signal: AbortSignal): Promise<DoctorCheck[]> {
  const resolved = resolveAzureOpenAIConfig(config);
  return probeResponses(
    {
      id: 'azure-openai',
      name: 'Azure OpenAI',
      recipient: resolved.recipient,
      model: resolved.deployment,
      origin: new URL(resolved.endpoint),
      maxSearches: resolved.maxSearches,
      rule: AZURE_RECEIPT_RULE,
      request: (input) => azureResponsesRequest({ query: input, country: 'ALL' }, resolved),
      endpointVariable: 'AZURE_OPENAI_ENDPOINT',
      modelVariable: 'OPENMATES_AZURE_OPENAI_DEPLOYMENT',
    },
    signal,
  );
}
