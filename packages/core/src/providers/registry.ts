import type { ProviderId } from '@openmates/contract';
import type { AnyEngineConfig } from '../config.ts';
import { ProviderNotConfiguredError, type SearchProvider } from '../provider.ts';
import { anthropicModule } from './anthropic/index.ts';
import { azureOpenAIModule } from './azure-openai/index.ts';
import { braveModule } from './brave/index.ts';
import { exaModule } from './exa/index.ts';
import { localModule } from './local/index.ts';
import { openaiModule } from './openai/index.ts';
import type { ProviderModule, ProviderOptions } from './provider-module.ts';
import { searxngModule } from './searxng/index.ts';
import { serperModule } from './serper/index.ts';
import { tavilyModule } from './tavily/index.ts';

export type {
  ProviderModule,
  ProviderOptions,
  ProviderPrice,
  ProviderRegistry,
  RegistryId,
  SettingsOf,
  UnitPrice,
} from './provider-module.ts';

/**
 * Every provider, by id, in the contract's order (that of the configuration's messages, doctor and
 * docs/reference.md): the one list of
 * providers. A provider is its folder, its line here and its id in the contract's `PROVIDER_IDS`;
 * the keys are exactly those ids (ADR 0114).
 */
export const PROVIDER_MODULES = {
  local: localModule,
  brave: braveModule,
  openai: openaiModule,
  searxng: searxngModule,
  tavily: tavilyModule,
  exa: exaModule,
  serper: serperModule,
  anthropic: anthropicModule,
  'azure-openai': azureOpenAIModule,
} as const satisfies { readonly [K in ProviderId]: ProviderModule<unknown, K> };

/** The production registry's type: the contract's ids, each with its module's settings. */
export type Providers = typeof PROVIDER_MODULES;

/** A configuration read against any registry, as the engine and the functions below take it. */
type AnyConfig = AnyEngineConfig;

/** The module of `id` in the configuration's registry, with its settings. */
function selected(id: string, config: AnyConfig): { module: ProviderModule<unknown>; settings: unknown } {
  const module = Object.hasOwn(config.registry, id) ? config.registry[id] : undefined;
  if (module === undefined) throw new Error(`No provider module ${JSON.stringify(id)} in the registry`);
  return { module, settings: config.settings[id] };
}

/**
 * The first provider `OPENMATES_PROVIDER` lists, built from the configuration (doctor's probes,
 * tools that need one provider). Throws ProviderNotConfiguredError as `createConfiguredProviders` does.
 */
export function createConfiguredProvider(config: AnyConfig, options: ProviderOptions = {}): SearchProvider {
  const [first] = createConfiguredProviders({ ...config, providers: [config.provider] }, options);
  return first as SearchProvider;
}

/**
 * The provider `id` of a chain of `length`, built from the configuration. Throws
 * ProviderNotConfiguredError naming the member and the variable it needs when it lacks its key.
 */
function createMember(id: string, length: number, config: AnyConfig, options: ProviderOptions): SearchProvider {
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
function listed(config: AnyConfig): readonly string[] {
  return config.providers.length > 0 ? config.providers : [config.provider];
}

/**
 * Every provider `OPENMATES_PROVIDER` lists, in its order, built from the configuration. A query
 * only ever goes to a third party listed explicitly, and every answer says who answered each group.
 * Throws ProviderNotConfiguredError with a one-line reason naming the member and the variable it
 * needs when any listed provider lacks its key (nothing is left open then).
 */
export function createConfiguredProviders(config: AnyConfig, options: ProviderOptions = {}): SearchProvider[] {
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
  config: AnyConfig,
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
export function providerIdentity(config: AnyConfig, provider: SearchProvider): string {
  // A provider its registry does not list (one built by hand) is told apart by its id and recipient.
  if (!Object.hasOwn(config.registry, provider.id)) return [provider.id, provider.recipient].join('\u0000');
  const { module, settings } = selected(provider.id, config);
  return [provider.id, ...module.identity(settings)].join('\u0000');
}
