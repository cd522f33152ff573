// Kestrel: a provider written for the throwaway-provider test alone, to show that a provider is its
// folder (capability table, translator, settings, fixture server) and one line of a registry.
import { type ProviderModule, ProviderNotConfiguredError } from '@openmates/core';
import { KESTREL_CAPABILITIES } from './table.ts';
import { kestrelTranslator } from './translator.ts';

export { expectedTitles, fixtureEnvironment, startFixture } from './fixture-server.ts';

/** Kestrel's settings: its origin (`KESTREL_BASE_URL`) and key (`KESTREL_API_KEY`, a secret). */
export interface KestrelSettings {
  baseUrl?: string;
  apiKey?: string;
}

const text = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/** Kestrel as a registry holds it. */
export const providerModule: ProviderModule<KestrelSettings, 'kestrel'> = {
  id: 'kestrel',
  name: 'Kestrel',
  price: { costs: 'per-unit', usd: 0.001, unit: 'search', asOf: '2026-12-07', page: 'https://kestrel.example.org/' },
  docsPage: 'docs/providers/kestrel.md',
  defaultTimeoutMs: 5_000,
  accessVariable: 'KESTREL_API_KEY',
  baseUrlVariable: 'KESTREL_BASE_URL',
  environment: {},
  parse(env) {
    const baseUrl = text(env.KESTREL_BASE_URL);
    const apiKey = text(env.KESTREL_API_KEY);
    return { ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) };
  },
  secrets: (settings) => (settings.apiKey ? [settings.apiKey] : []),
  identity: (settings) => [settings.baseUrl ?? '', settings.apiKey ?? ''],
  create(settings) {
    if (!settings.baseUrl || !settings.apiKey)
      throw new ProviderNotConfiguredError('OPENMATES_PROVIDER=kestrel needs KESTREL_BASE_URL and KESTREL_API_KEY.');
    const { translator, close } = kestrelTranslator(settings.baseUrl, settings.apiKey);
    return {
      id: 'kestrel',
      name: 'Kestrel',
      recipient: new URL(settings.baseUrl).host,
      capabilities: KESTREL_CAPABILITIES,
      translator,
      close,
    };
  },
  configurationChecks: (settings) => [
    { name: 'KESTREL_API_KEY', ok: settings.apiKey !== undefined, detail: settings.apiKey ? 'set' : 'not set' },
  ],
};
