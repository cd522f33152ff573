import { DEFAULT_PROVIDER_TIMEOUT_MS } from '@openmates/contract';
import { ProviderNotConfiguredError } from '../../provider.ts';
import { type EnvTable, httpUrl, parseEnv, secret, withDefault } from '../../shared/env-schema.ts';
import type { ProviderModule } from '../provider-module.ts';
import { endpointCheck, keyCheck } from '../shared/doctor-checks.ts';
import { serperDryRunRequest, serperLiveProbe } from './probe.ts';
import { createSerperProvider, SERPER_DEFAULT_BASE_URL } from './provider.ts';

/** Serper's part of the engine's configuration. */
export interface SerperSettings {
  /** `SERPER_API_KEY`, a secret. */
  apiKey?: string;
  /** `SERPER_BASE_URL` (default Serper's API origin). */
  baseUrl: string;
}

const ENVIRONMENT = {
  SERPER_API_KEY: {
    description: 'A Serper (Google results) API key (a secret); what is sent where: docs/providers/serper.md.',
    schema: secret,
  },
  SERPER_BASE_URL: {
    description: "Serper's API origin, without a path (a fixture or a proxy in its place).",
    ...withDefault(httpUrl('SERPER_BASE_URL'), SERPER_DEFAULT_BASE_URL),
  },
} as const satisfies EnvTable;

/** Serper: its variables, identity, construction, doctor checks and live probe. */
export const serperModule: ProviderModule<SerperSettings, 'serper'> = {
  id: 'serper',
  name: 'Serper',
  // One credit per call of up to 10 results; the smallest paid pack's $50 for 50,000 credits (ADR 0128).
  price: { costs: 'per-unit', usd: 0.001, unit: 'credit', asOf: '2026-12-07', page: 'https://serper.dev/' },
  docsPage: 'docs/providers/serper.md',
  defaultTimeoutMs: DEFAULT_PROVIDER_TIMEOUT_MS,
  accessVariable: 'SERPER_API_KEY',
  baseUrlVariable: 'SERPER_BASE_URL',
  environment: ENVIRONMENT,
  parse(env) {
    const e = parseEnv(ENVIRONMENT, env);
    const settings: SerperSettings = { baseUrl: e.SERPER_BASE_URL };
    if (e.SERPER_API_KEY) settings.apiKey = e.SERPER_API_KEY;
    return settings;
  },
  secrets: (settings) => (settings.apiKey ? [settings.apiKey] : []),
  identity: (settings) => [settings.baseUrl, settings.apiKey ?? ''],
  create(settings) {
    if (!settings.apiKey)
      throw new ProviderNotConfiguredError('OPENMATES_PROVIDER=serper needs SERPER_API_KEY (a Serper API key).');
    return createSerperProvider({ apiKey: settings.apiKey, baseUrl: settings.baseUrl });
  },
  configurationChecks: (settings, env) => [
    keyCheck(env, 'SERPER_API_KEY'),
    endpointCheck(env, 'SERPER_BASE_URL', settings.baseUrl),
  ],
  async liveProbe(settings, signal) {
    if (!settings.apiKey) return [];
    return serperLiveProbe({ apiKey: settings.apiKey, baseUrl: settings.baseUrl }, signal);
  },
  dryRun: (settings, query) => serperDryRunRequest({ query, country: 'US' }, settings.baseUrl),
};
