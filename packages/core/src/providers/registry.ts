import type { ProviderId } from '@openmates/contract';
import type { EngineConfig } from '../config.ts';
import { ProviderNotConfiguredError, type SearchProvider } from '../provider.ts';
import { azureOpenAIModule } from './azure-openai/index.ts';
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
  'azure-openai': azureOpenAIModule,
};

/** The module of `id`, with its settings from `config`, typed together. */
function selected<K extends ProviderId>(id: K, config: EngineConfig) {
  return { module: PROVIDER_MODULES[id] as ProviderModule<ProviderSettings[K]>, settings: config[id] };
}

/**
 * The first provider `OPENMATES_PROVIDER` lists, built from the configuration (doctor's probes,
 * tools that need one provider). Throws ProviderNotConfiguredError as `createConfiguredProviders` does.
 */
export function createConfiguredProvider(config: EngineConfig, options: ProviderOptions = {}): SearchProvider {
  const [first] = createConfiguredProviders({ ...config, providers: [config.provider] }, options);
  return first as SearchProvider;
}

/**
 * The provider `id` of a chain of `length`, built from the configuration. Throws
 * ProviderNotConfiguredError naming the member and the variable it needs when it lacks its key.
 */
function createMember(id: ProviderId, length: number, config: EngineConfig, options: ProviderOptions): SearchProvider {
  const { module, settings } = selected(id, config);
  try {
    return module.create(settings, options);
  } catch (error) {
    if (!(error instanceof ProviderNotConfiguredError) || length === 1) throw error;
    // Each module words its reason for a chain of one (`OPENMATES_PROVIDER=brave needs …`).
    const reason = error.message.replace(`OPENMATES_PROVIDER=${id} needs`, 'it needs');
    throw new ProviderNotConfiguredError(`OPENMATES_PROVIDER lists ${id}, which is not configured: ${reason}`, {
      cause: error.cause ?? error,
    });
  }
}

/** The providers `OPENMATES_PROVIDER` lists, in its order. */
function listed(config: EngineConfig): readonly ProviderId[] {
  return config.providers.length > 0 ? config.providers : [config.provider];
}

/**
 * Every provider `OPENMATES_PROVIDER` lists, in its order, built from the configuration. A query
 * only ever goes to a third party listed explicitly, and every answer says who answered each group.
 * Throws ProviderNotConfiguredError with a one-line reason naming the member and the variable it
 * needs when any listed provider lacks its key (nothing is left open then).
 */
export function createConfiguredProviders(config: EngineConfig, options: ProviderOptions = {}): SearchProvider[] {
  const chain = listed(config);
  const built: SearchProvider[] = [];
  try {
    for (const id of chain) built.push(createMember(id, chain.length, config, options));
  } catch (error) {
    for (const provider of built) void provider.close?.();
    throw error;
  }
  return built;
}

/**
 * Each listed provider that can be built, and the ProviderNotConfiguredError of each that cannot,
 * in the list's order: `openmates doctor` checks the configured members of a chain even when one
 * lacks its key. The caller closes what was built.
 */
export function buildListedProviders(
  config: EngineConfig,
  options: ProviderOptions = {},
): { built: SearchProvider[]; missing: ProviderNotConfiguredError[] } {
  const chain = listed(config);
  const built: SearchProvider[] = [];
  const missing: ProviderNotConfiguredError[] = [];
  try {
    for (const id of chain)
      try {
        built.push(createMember(id, chain.length, config, options));
      } catch (error) {
        if (!(error instanceof ProviderNotConfiguredError)) throw error;
        missing.push(error);
      }
  } catch (error) {
    for (const provider of built) void provider.close?.();
    throw error;
  }
  return { built, missing };
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
