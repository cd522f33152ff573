// Kestrel: a provider written for the throwaway-provider test alone, to show that a provider is its
// folder (capability table, translator, settings, fixture server) and one line of a registry.
import { type ProviderModule, ProviderNotConfiguredError } from '@openmates/core';
import { KESTREL_CAPABILITIES } from './table.ts';
import { kestrelTranslator } from './translator.ts';

export { expectedTitles, fixtureEnvironment, startFixture } from './fixture-server.ts';

/** Kestrel's settings: its origin, from `KESTREL_BASE_URL`. */
export interface KestrelSettings {
  baseUrl?: string;
}

/** Kestrel as a registry holds it. */
export const providerModule: ProviderModule<KestrelSettings, 'kestrel'> = {
  id: 'kestrel',
  name: 'Kestrel',
  price: { costs: 'nothing' },
  docsPage: 'docs/providers/kestrel.md',
  defaultTimeoutMs: 5_000,
  accessVariable: 'KESTREL_BASE_URL',
  environment: {},
  parse: (env) => {
    const baseUrl = env.KESTREL_BASE_URL?.trim();
    return baseUrl ? { baseUrl } : {};
  },
  secrets: () => [],
  identity: (settings) => [settings.baseUrl ?? ''],
  create(settings) {
    if (!settings.baseUrl) throw new ProviderNotConfiguredError('OPENMATES_PROVIDER=kestrel needs KESTREL_BASE_URL.');
    const { translator, close } = kestrelTranslator(settings.baseUrl);
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
    { name: 'KESTREL_BASE_URL', ok: settings.baseUrl !== undefined, detail: settings.baseUrl ?? 'not set' },
  ],
};
