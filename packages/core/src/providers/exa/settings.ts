import { DEFAULT_PROVIDER_TIMEOUT_MS } from '@openmates/contract';
import { ProviderNotConfiguredError } from '../../provider.ts';
import { type EnvTable, httpUrl, parseEnv, secret, withDefault } from '../../shared/env-schema.ts';
import type { ProviderModule } from '../provider-module.ts';
import { endpointCheck, keyCheck } from '../shared/doctor-checks.ts';
import { exaDryRun, exaLiveProbe } from './probe.ts';
import { createExaProvider, EXA_DEFAULT_BASE_URL } from './provider.ts';

/** Exa's part of the engine's configuration. */
export interface ExaSettings {
  /** `EXA_API_KEY`; a secret. */
  apiKey?: string;
  /** `EXA_BASE_URL`: Exa's API origin, without a version path (the provider adds `/search`). */
  baseUrl: string;
}

const ENVIRONMENT = {
  EXA_API_KEY: { description: 'An Exa API key (a secret), sent as `x-api-key`.', schema: secret },
  EXA_BASE_URL: {
    description: "Exa's API origin, without a path (a fixture or a proxy in its place); `/search` is added.",
    ...withDefault(httpUrl('EXA_BASE_URL'), EXA_DEFAULT_BASE_URL),
  },
} as const satisfies EnvTable;

/** Exa: its variables, identity, construction and doctor checks (ADR 0126). */
export const exaModule: ProviderModule<ExaSettings, 'exa'> = {
  id: 'exa',
  name: 'Exa',
  // A search of 1 to 25 results ($5 per 1,000); page text and highlights are billed on top of it,
  // and each answer's `costDollars` says what Exa charged (docs/providers/exa.md).
  price: {
    costs: 'per-unit',
    usd: 0.005,
    unit: 'search',
    asOf: '2026-12-07',
    page: 'https://exa.ai/pricing',
  },
  docsPage: 'docs/providers/exa.md',
  defaultTimeoutMs: DEFAULT_PROVIDER_TIMEOUT_MS,
  accessVariable: 'EXA_API_KEY',
  baseUrlVariable: 'EXA_BASE_URL',
  environment: ENVIRONMENT,
  parse(env) {
    const e = parseEnv(ENVIRONMENT, env);
    const settings: ExaSettings = { baseUrl: e.EXA_BASE_URL };
    if (e.EXA_API_KEY) settings.apiKey = e.EXA_API_KEY;
    return settings;
  },
  secrets: (settings) => (settings.apiKey ? [settings.apiKey] : []),
  identity: (settings) => [settings.baseUrl, settings.apiKey ?? ''],
  create(settings) {
    if (!settings.apiKey)
      throw new ProviderNotConfiguredError('OPENMATES_PROVIDER=exa needs EXA_API_KEY: an Exa API key.');
    return createExaProvider({ apiKey: settings.apiKey, baseUrl: settings.baseUrl });
  },
  configurationChecks: (settings, env) => [
    keyCheck(env, 'EXA_API_KEY'),
    endpointCheck(env, 'EXA_BASE_URL', settings.baseUrl),
  ],
  async liveProbe(settings, signal) {
    if (!settings.apiKey)
      return [{ name: 'Exa live search', ok: false, detail: 'EXA_API_KEY is not set', fix: 'Set EXA_API_KEY.' }];
    return exaLiveProbe(settings.baseUrl, settings.apiKey, signal);
  },
  dryRun: (settings, query) => exaDryRun(settings.baseUrl, query),
};
