import type { ProviderId } from '@openmates/contract';
import type { EngineConfig } from '../config.ts';
import type { SearchProvider } from '../provider.ts';
import { braveModule } from './brave/index.ts';
import { localModule } from './local/index.ts';
import { openaiModule } from './openai/index.ts';
import type { ProviderModule, ProviderOptions } from './provider-module.ts';
import { searxngModule } from './searxng/index.ts';

export type { ProviderModule, ProviderOptions } from './provider-module.ts';

/** Each provider's settings, as the engine's configuration holds them under the provider's id. */
export type ProviderSettings = { [K in ProviderId]: EngineConfig[K] };

/** Every provider, by id, in the order the configuration reads their variables. */
export const PROVIDER_MODULES: { readonly [K in ProviderId]: ProviderModule<ProviderSettings[K]> } = {
  brave: braveModule,
  openai: openaiModule,
  local: localModule,
  searxng: searxngModule,
};

/** The module of `id`, with its settings from `config`, typed together. */
function selected<K extends ProviderId>(id: K, config: EngineConfig) {
  return { module: PROVIDER_MODULES[id] as ProviderModule<ProviderSettings[K]>, settings: config[id] };
}

/**
 * The provider `OPENMATES_PROVIDER` selects, built from the configuration. A query only ever goes
 * to a third party selected explicitly: there is no fallback from one provider to another.
 * Throws ProviderNotConfiguredError with a one-line reason when the selected provider lacks its key.
 */
export function createConfiguredProvider(config: EngineConfig, options: ProviderOptions = {}): SearchProvider {
  const { module, settings } = selected(config.provider, config);
  return module.create(settings, options);
}

/**
 * What tells one provider configuration from another (each provider says what: endpoint, model,
 * key, instance), for cache keys and the shared rate. Holds secrets: it is only ever used inside
 * an HMAC or in process memory.
 */
export function providerIdentity(config: EngineConfig, provider: SearchProvider): string {
  const { module, settings } = selected(provider.id, config);
  return [provider.id, ...module.identity(settings)].join('\u0000');
}
