import type { HttpRequest } from '../../provider.ts';
import {
  type OpenAIQuery,
  type OpenAIRequest,
  type OpenAIRequestBody,
  responsesRequestFor,
} from '../openai/request.ts';
import {
  AZURE_OPENAI_RESPONSES_PATH,
  type AzureOpenAIProviderConfig,
  type ResolvedAzureOpenAIConfig,
  resolveAzureOpenAIConfig,
} from './config.ts';

/** The `api-key` value printed wherever a request is shown. */
export const REDACTED_API_KEY = '[redacted]';

/**
 * The request of one query: `POST {endpoint}/openai/v1/responses`, the key as `api-key`, the
 * deployment as `model`, the configured tool, and `max_tool_calls` at the allowance of searches
 * (ADR 0132): the service stops there rather than the skill refusing an answer already paid for.
 */
function requestFor(query: OpenAIQuery, config: ResolvedAzureOpenAIConfig, apiKey: string): OpenAIRequest {
  return responsesRequestFor(query, {
    url: `${config.endpoint}${AZURE_OPENAI_RESPONSES_PATH}`,
    auth: { 'api-key': apiKey },
    model: config.deployment,
    tool: config.searchTool,
    maxToolCalls: config.maxSearches,
  });
}

/** The exact request one query sends, its key in the `api-key` header. */
export function buildAzureOpenAIRequest(query: OpenAIQuery, config: AzureOpenAIProviderConfig): OpenAIRequest {
  const resolved = resolveAzureOpenAIConfig(config);
  return requestFor(query, resolved, resolved.apiKey);
}

/** The request one query sends, as the HTTP client takes it. */
export function azureResponsesRequest(query: OpenAIQuery, config: ResolvedAzureOpenAIConfig): HttpRequest {
  const request = requestFor(query, config, config.apiKey);
  return { method: 'POST', url: new URL(request.url), headers: request.headers, body: { json: request.body } };
}

/** What `openmates doctor --provider azure-openai --dry-run --json` prints. */
export interface AzureOpenAIDryRun {
  provider: 'azure-openai';
  recipient: string;
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: OpenAIRequestBody;
}

/**
 * The request one query would send, with the key redacted, as plain data with a fixed key order.
 * Needs no key and sends nothing.
 */
export function azureDryRunRequest(
  query: OpenAIQuery,
  config: Partial<AzureOpenAIProviderConfig> = {},
): AzureOpenAIDryRun {
  const resolved = resolveAzureOpenAIConfig(config, { requireKey: false });
  const request = requestFor(query, resolved, REDACTED_API_KEY);
  return {
    provider: 'azure-openai',
    recipient: resolved.recipient,
    method: 'POST',
    url: request.url,
    headers: request.headers,
    body: request.body,
  };
}
