import { DEFAULT_OPENAI_MAX_SEARCHES, MAX_OPENAI_MAX_SEARCHES, MIN_OPENAI_MAX_SEARCHES } from '@openmates/contract';
import { ProviderNotConfiguredError } from '../../provider.ts';
import type { ResponsesSearchTool } from '../openai/request.ts';

/** The hosted search tool sent when none is configured (`OPENMATES_AZURE_OPENAI_SEARCH_TOOL`). */
export const AZURE_OPENAI_DEFAULT_SEARCH_TOOL: ResponsesSearchTool = 'web_search';
/** Where Azure serves the Responses API under a resource's endpoint (the v1 API: no `api-version`). */
export const AZURE_OPENAI_RESPONSES_PATH = '/openai/v1/responses';

export interface AzureOpenAIProviderConfig {
  /** The resource's key, sent as the `api-key` header. Required. */
  apiKey: string;
  /** The resource's endpoint (`https://NAME.openai.azure.com`), without `/openai/v1`. Required. */
  endpoint: string;
  /** The deployment that runs the search, sent as `model`. Required. */
  deployment: string;
  /** Searches allowed per query, as the `openai` provider's (1–20, default 4). */
  maxSearches?: number;
  /** The hosted search tool: `web_search` (default) or `web_search_preview`. */
  searchTool?: ResponsesSearchTool;
}

/** A configuration with every default applied and checked. */
export interface ResolvedAzureOpenAIConfig {
  apiKey: string;
  /** Without a trailing slash. */
  endpoint: string;
  deployment: string;
  maxSearches: number;
  searchTool: ResponsesSearchTool;
  /** The endpoint's host: who receives the queries. */
  recipient: string;
}

const fail = (message: string) => new ProviderNotConfiguredError(`Azure OpenAI: ${message}`);

/**
 * Applies defaults and checks the configuration. `requireKey: false` is for dry runs, which never
 * send anything (a placeholder endpoint and deployment are shown then). Throws
 * ProviderNotConfiguredError naming what is wrong (never the key itself).
 */
export function resolveAzureOpenAIConfig(
  config: Partial<AzureOpenAIProviderConfig>,
  { requireKey = true }: { requireKey?: boolean } = {},
): ResolvedAzureOpenAIConfig {
  const apiKey = config.apiKey?.trim() ?? '';
  if (requireKey && apiKey === '') throw fail('no API key is configured (AZURE_OPENAI_API_KEY).');
  const rawEndpoint = config.endpoint?.trim() || (requireKey ? '' : 'https://your-resource.openai.azure.com');
  if (rawEndpoint === '') throw fail('no endpoint is configured (AZURE_OPENAI_ENDPOINT).');
  let endpoint: URL;
  try {
    endpoint = new URL(rawEndpoint);
  } catch {
    throw fail('the endpoint is not a valid URL (AZURE_OPENAI_ENDPOINT).');
  }
  if (endpoint.protocol !== 'https:' && endpoint.protocol !== 'http:')
    throw fail('the endpoint must be http or https (AZURE_OPENAI_ENDPOINT).');
  if (endpoint.username !== '' || endpoint.password !== '')
    throw fail('the endpoint must not carry credentials (AZURE_OPENAI_ENDPOINT).');
  if (endpoint.search !== '' || endpoint.hash !== '')
    throw fail('the endpoint takes no query string (AZURE_OPENAI_ENDPOINT).');
  const base = endpoint.toString().replace(/\/+$/, '');
  if (/\/openai(\/v1)?$/i.test(base))
    throw fail('AZURE_OPENAI_ENDPOINT is the resource endpoint without /openai/v1 (the request adds it).');
  const deployment = config.deployment?.trim() || (requireKey ? '' : 'YOUR-DEPLOYMENT');
  if (deployment === '') throw fail('no deployment is configured (OPENMATES_AZURE_OPENAI_DEPLOYMENT).');
  const maxSearches = config.maxSearches ?? DEFAULT_OPENAI_MAX_SEARCHES;
  if (
    !Number.isSafeInteger(maxSearches) ||
    maxSearches < MIN_OPENAI_MAX_SEARCHES ||
    maxSearches > MAX_OPENAI_MAX_SEARCHES
  )
    throw fail(`maxSearches must be a whole number from ${MIN_OPENAI_MAX_SEARCHES} to ${MAX_OPENAI_MAX_SEARCHES}.`);
  return {
    apiKey,
    endpoint: base,
    deployment,
    maxSearches,
    searchTool: config.searchTool ?? AZURE_OPENAI_DEFAULT_SEARCH_TOOL,
    recipient: endpoint.host,
  };
}
