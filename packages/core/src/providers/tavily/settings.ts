import { DEFAULT_PROVIDER_TIMEOUT_MS } from '@openmates/contract';
import { ProviderNotConfiguredError } from '../../provider.ts';
import { type EnvTable, httpUrl, parseEnv, secret, withDefault } from '../../shared/env-schema.ts';
import type { ProviderModule } from '../provider-module.ts';
import { endpointCheck, keyCheck } from '../shared/doctor-checks.ts';
import { tavilyDryRun, tavilyLiveProbe } from './doctor.ts';
import { createTavilyProvider, TAVILY_DEFAULT_BASE_URL } from './provider.ts';

/** Tavily's part of the engine's configuration. */
export interface TavilySettings {
  /** `TAVILY_API_KEY`; a secret. */
  apiKey?: string;
  /** `TAVILY_BASE_URL` (default Tavily's API origin). */
  baseUrl: string;
}

const ENVIRONMENT = {
  TAVILY_API_KEY: { description: 'A Tavily API key (a secret).', schema: secret },
  TAVILY_BASE_URL: {
    description: "Tavily's API origin, without a path (a fixture or a proxy in its place); `/search` is added.",
    ...withDefault(httpUrl('TAVILY_BASE_URL'), TAVILY_DEFAULT_BASE_URL),
  },
} as const satisfies EnvTable;

/** Tavily: its variables, identity, construction and doctor checks. */
export const tavilyModule: ProviderModule<TavilySettings, 'tavily'> = {
  id: 'tavily',
  name: 'Tavily',
  // A basic search is 1 API credit; pay-as-you-go bills $0.008 a credit (monthly plans less).
  price: {
    costs: 'per-unit',
    usd: 0.008,
    unit: 'credit',
    asOf: '2026-12-07',
    page: 'https://docs.tavily.com/documentation/api-credits',
  },
  docsPage: 'docs/providers/tavily.md',
  defaultTimeoutMs: DEFAULT_PROVIDER_TIMEOUT_MS,
  accessVariable: 'TAVILY_API_KEY',
  baseUrlVariable: 'TAVILY_BASE_URL',
  environment: ENVIRONMENT,
  parse(env) {
    const e = parseEnv(ENVIRONMENT, env);
    const settings: TavilySettings = { baseUrl: e.TAVILY_BASE_URL };
    if (e.TAVILY_API_KEY) settings.apiKey = e.TAVILY_API_KEY;
    return settings;
  },
  secrets: (settings) => (settings.apiKey ? [settings.apiKey] : []),
  identity: (settings) => [settings.baseUrl, settings.apiKey ?? ''],
  create(settings) {
    if (!settings.apiKey)
      throw new ProviderNotConfiguredError('OPENMATES_PROVIDER=tavily needs TAVILY_API_KEY: a Tavily API key.');
    return createTavilyProvider({ apiKey: settings.apiKey, baseUrl: settings.baseUrl });
  },
  configurationChecks: (settings, env) => [
    keyCheck(env, 'TAVILY_API_KEY'),
    endpointCheck(env, 'TAVILY_BASE_URL', settings.baseUrl),
  ],
  liveProbe: tavilyLiveProbe,
  dryRun: (settings, query) => tavilyDryRun(settings.baseUrl, query),
};
