import { DEFAULT_PROVIDER_TIMEOUT_MS } from '@openmates/contract';
import { ProviderNotConfiguredError } from '../../provider.ts';
import { type Env, type EnvTable, httpUrl, isSet, parseEnv, secret, withDefault } from '../../shared/env-schema.ts';
import type { ProviderModule } from '../provider-module.ts';
import { endpointCheck, keyCheck } from '../shared/doctor-checks.ts';
import { BRAVE_DEFAULT_BASE_URL, createBraveProvider } from './provider.ts';

/** Brave's part of the engine's configuration. */
export interface BraveSettings {
  /** `BRAVE_SEARCH_API_KEY`, else `BRAVE_API_KEY`; a secret. */
  apiKey?: string;
  /** `BRAVE_SEARCH_BASE_URL` (default Brave's API). */
  baseUrl: string;
}

const ENVIRONMENT = {
  BRAVE_SEARCH_API_KEY: { description: 'A Brave Search API key (a secret).', schema: secret },
  BRAVE_API_KEY: {
    description:
      "Read when `BRAVE_SEARCH_API_KEY` is not set: the name Brave's own MCP server reads; `openmates doctor` names the one in use.",
    schema: secret,
  },
  BRAVE_SEARCH_BASE_URL: {
    description: "Brave Search's API origin (a fixture or a proxy in its place).",
    ...withDefault(httpUrl('BRAVE_SEARCH_BASE_URL'), BRAVE_DEFAULT_BASE_URL),
  },
} as const satisfies EnvTable;

/**
 * The variable the Brave key is read from: `BRAVE_SEARCH_API_KEY`, or `BRAVE_API_KEY` (the name
 * Brave's own MCP server reads) when only that one is set; undefined when neither is.
 */
export function braveKeyVariable(env: Env): 'BRAVE_SEARCH_API_KEY' | 'BRAVE_API_KEY' | undefined {
  if (isSet(env, 'BRAVE_SEARCH_API_KEY')) return 'BRAVE_SEARCH_API_KEY';
  return isSet(env, 'BRAVE_API_KEY') ? 'BRAVE_API_KEY' : undefined;
}

/** Brave Search: its variables, identity, construction and doctor checks. */
export const braveModule: ProviderModule<BraveSettings, 'brave'> = {
  id: 'brave',
  name: 'Brave Search',
  // The Search plan's $5 per 1,000 requests (a billed call is one request: each page is one).
  price: {
    costs: 'per-unit',
    usd: 0.005,
    unit: 'call',
    asOf: '2026-12-07',
    page: 'https://brave.com/search/api/',
  },
  docsPage: 'docs/providers/brave.md',
  defaultTimeoutMs: DEFAULT_PROVIDER_TIMEOUT_MS,
  accessVariable: 'BRAVE_SEARCH_API_KEY',
  baseUrlVariable: 'BRAVE_SEARCH_BASE_URL',
  environment: ENVIRONMENT,
  parse(env) {
    const e = parseEnv(ENVIRONMENT, env);
    const settings: BraveSettings = { baseUrl: e.BRAVE_SEARCH_BASE_URL };
    const apiKey = e.BRAVE_SEARCH_API_KEY ?? e.BRAVE_API_KEY;
    if (apiKey) settings.apiKey = apiKey;
    return settings;
  },
  secrets: (settings) => (settings.apiKey ? [settings.apiKey] : []),
  identity: (settings) => [settings.baseUrl, settings.apiKey ?? ''],
  create(settings) {
    if (!settings.apiKey)
      throw new ProviderNotConfiguredError(
        'OPENMATES_PROVIDER=brave needs BRAVE_SEARCH_API_KEY (or BRAVE_API_KEY): a Brave Search API key.',
      );
    return createBraveProvider({
      apiKey: settings.apiKey,
      baseUrl: settings.baseUrl,
    });
  },
  configurationChecks: (settings, env) => [
    // The key may come from either name; the check names the one in use.
    keyCheck(env, braveKeyVariable(env) ?? 'BRAVE_SEARCH_API_KEY'),
    endpointCheck(env, 'BRAVE_SEARCH_BASE_URL', settings.baseUrl),
  ],
};
