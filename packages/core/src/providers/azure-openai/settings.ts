import {
  DEFAULT_OPENAI_MAX_SEARCHES,
  DEFAULT_OPENAI_TIMEOUT_MS,
  MAX_OPENAI_MAX_SEARCHES,
  MIN_OPENAI_MAX_SEARCHES,
  once,
} from '@openmates/contract';
import { z } from 'zod';
import { ProviderNotConfiguredError } from '../../provider.ts';
import {
  blankToUndefined,
  type EnvTable,
  httpUrl,
  parseEnv,
  secret,
  wholeNumber,
  withDefault,
} from '../../shared/env-schema.ts';
import type { ResponsesSearchTool } from '../openai/request.ts';
import type { ProviderModule } from '../provider-module.ts';
import { endpointCheck, keyCheck } from '../shared/doctor-checks.ts';
import { AZURE_OPENAI_DEFAULT_SEARCH_TOOL } from './config.ts';
import { azureLiveProbe, createAzureOpenAIProvider } from './provider.ts';
import { azureDryRunRequest } from './request.ts';

/** Azure OpenAI's part of the engine's configuration. */
export interface AzureOpenAISettings {
  /** `AZURE_OPENAI_API_KEY`, a secret. */
  apiKey?: string;
  /** `AZURE_OPENAI_ENDPOINT`, the resource's endpoint. */
  endpoint?: string;
  /** `OPENMATES_AZURE_OPENAI_DEPLOYMENT`. */
  deployment?: string;
  /** `OPENMATES_AZURE_OPENAI_MAX_SEARCHES` (default 4, from 1 to 20). */
  maxSearches: number;
  /** `OPENMATES_AZURE_OPENAI_SEARCH_TOOL` (default `web_search`). */
  searchTool: ResponsesSearchTool;
}

const TOOLS = ['web_search', 'web_search_preview'] as const;

const ENVIRONMENT = {
  AZURE_OPENAI_API_KEY: {
    description:
      'An Azure OpenAI resource key (a secret), sent as `api-key`; what is sent where: docs/providers/azure-openai.md.',
    schema: secret,
  },
  AZURE_OPENAI_ENDPOINT: {
    description:
      'The Azure OpenAI resource endpoint (`https://NAME.openai.azure.com`), without `/openai/v1`: queries go to `{endpoint}/openai/v1/responses`.',
    schema: httpUrl('AZURE_OPENAI_ENDPOINT'),
  },
  OPENMATES_AZURE_OPENAI_DEPLOYMENT: {
    description: 'The deployment (of a model that can run hosted web search) sent as `model`.',
    schema: once(() =>
      z.preprocess(
        blankToUndefined,
        z
          .string()
          .regex(/^[A-Za-z0-9._-]{1,64}$/, {
            message: 'OPENMATES_AZURE_OPENAI_DEPLOYMENT must be a deployment name (letters, digits, . _ -)',
          })
          .optional(),
      ),
    ),
  },
  OPENMATES_AZURE_OPENAI_MAX_SEARCHES: {
    description: `Searches Azure OpenAI's hosted web search may run for one query (${MIN_OPENAI_MAX_SEARCHES}–${MAX_OPENAI_MAX_SEARCHES}; each is billed), sent as \`max_tool_calls\`; an answer that ran more is refused whole.`,
    ...withDefault(
      wholeNumber('OPENMATES_AZURE_OPENAI_MAX_SEARCHES', MIN_OPENAI_MAX_SEARCHES, MAX_OPENAI_MAX_SEARCHES),
      DEFAULT_OPENAI_MAX_SEARCHES,
    ),
  },
  OPENMATES_AZURE_OPENAI_SEARCH_TOOL: {
    description:
      'The hosted search tool: `web_search`, or `web_search_preview` for a deployment that has only that (it takes no domain filter, so `include_domains` is refused).',
    ...withDefault(
      once(() =>
        z.preprocess(
          blankToUndefined,
          z
            .enum(TOOLS, {
              message: 'OPENMATES_AZURE_OPENAI_SEARCH_TOOL must be web_search or web_search_preview',
            })
            .optional(),
        ),
      ),
      AZURE_OPENAI_DEFAULT_SEARCH_TOOL,
    ),
  },
} as const satisfies EnvTable;

/** The variables `create` still needs, in the order a person sets them. */
function missing(settings: AzureOpenAISettings): string[] {
  return [
    settings.apiKey ? undefined : 'AZURE_OPENAI_API_KEY',
    settings.endpoint ? undefined : 'AZURE_OPENAI_ENDPOINT',
    settings.deployment ? undefined : 'OPENMATES_AZURE_OPENAI_DEPLOYMENT',
  ].filter((name): name is string => name !== undefined);
}

/** Azure OpenAI's hosted search: its variables, identity, construction, doctor checks and live probe. */
export const azureOpenAIModule: ProviderModule<AzureOpenAISettings, 'azure-openai'> = {
  id: 'azure-openai',
  name: 'Azure OpenAI hosted search',
  // Each web search through Grounding with Bing ($14 per 1,000, as Microsoft's cost example states it);
  // the deployment's tokens are billed on top of it. docs/providers/azure-openai.md says where.
  price: {
    costs: 'per-unit',
    usd: 0.014,
    unit: 'search',
    asOf: '2026-12-07',
    page: 'https://github.com/microsoft/Foundry-Agent-Solution-Templates/blob/main/enterprise-knowledge-agent/docs/cost.md',
  },
  docsPage: 'docs/providers/azure-openai.md',
  baseUrlVariable: 'AZURE_OPENAI_ENDPOINT',
  defaultTimeoutMs: DEFAULT_OPENAI_TIMEOUT_MS,
  accessVariable: 'AZURE_OPENAI_API_KEY',
  environment: ENVIRONMENT,
  parse(env) {
    const e = parseEnv(ENVIRONMENT, env);
    const settings: AzureOpenAISettings = {
      maxSearches: e.OPENMATES_AZURE_OPENAI_MAX_SEARCHES,
      searchTool: e.OPENMATES_AZURE_OPENAI_SEARCH_TOOL as ResponsesSearchTool,
    };
    if (e.AZURE_OPENAI_API_KEY) settings.apiKey = e.AZURE_OPENAI_API_KEY;
    if (e.AZURE_OPENAI_ENDPOINT) settings.endpoint = e.AZURE_OPENAI_ENDPOINT;
    if (e.OPENMATES_AZURE_OPENAI_DEPLOYMENT) settings.deployment = e.OPENMATES_AZURE_OPENAI_DEPLOYMENT;
    return settings;
  },
  secrets: (settings) => (settings.apiKey ? [settings.apiKey] : []),
  identity: (settings) => [
    settings.endpoint ?? '',
    settings.deployment ?? '',
    settings.searchTool,
    String(settings.maxSearches),
    settings.apiKey ?? '',
  ],
  create(settings) {
    const needs = missing(settings);
    if (needs.length > 0 || !settings.apiKey || !settings.endpoint || !settings.deployment)
      throw new ProviderNotConfiguredError(
        `OPENMATES_PROVIDER=azure-openai needs ${needs.join(', ')} (an Azure OpenAI resource key, its endpoint and a deployment).`,
      );
    return createAzureOpenAIProvider({
      apiKey: settings.apiKey,
      endpoint: settings.endpoint,
      deployment: settings.deployment,
      maxSearches: settings.maxSearches,
      searchTool: settings.searchTool,
    });
  },
  configurationChecks: (settings, env) => [
    keyCheck(env, 'AZURE_OPENAI_API_KEY'),
    settings.endpoint
      ? endpointCheck(env, 'AZURE_OPENAI_ENDPOINT', settings.endpoint)
      : {
          name: 'AZURE_OPENAI_ENDPOINT',
          ok: false,
          detail: 'not set',
          fix: 'set the resource endpoint, https://NAME.openai.azure.com',
        },
    settings.deployment
      ? { name: 'OPENMATES_AZURE_OPENAI_DEPLOYMENT', ok: true, detail: settings.deployment }
      : {
          name: 'OPENMATES_AZURE_OPENAI_DEPLOYMENT',
          ok: false,
          detail: 'not set',
          fix: 'set the name of a deployment that can run web search',
        },
    { name: 'OPENMATES_AZURE_OPENAI_SEARCH_TOOL', ok: true, detail: settings.searchTool },
    {
      name: 'OPENMATES_AZURE_OPENAI_MAX_SEARCHES',
      ok: true,
      detail: `${settings.maxSearches} searches per query (sent as max_tool_calls)`,
    },
  ],
  async liveProbe(settings, signal) {
    if (!settings.apiKey || !settings.endpoint || !settings.deployment) return [];
    return azureLiveProbe(
      {
        apiKey: settings.apiKey,
        endpoint: settings.endpoint,
        deployment: settings.deployment,
        maxSearches: settings.maxSearches,
        searchTool: settings.searchTool,
      },
      signal,
    );
  },
  dryRun: (settings, query) =>
    azureDryRunRequest(
      { query, country: 'US' },
      {
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
        ...(settings.deployment ? { deployment: settings.deployment } : {}),
        maxSearches: settings.maxSearches,
        searchTool: settings.searchTool,
      },
    ),
};
