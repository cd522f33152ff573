import { type AnyEngineConfig, createConfiguredProviders, loadHttpClient, type SearchProvider } from '@openmates/core';

/**
 * The providers (the chain, in order) as `openmates serve` builds them. The HTTP client's library is
 * loaded now, so that the first search does not wait for it (ADR 0113). Throws as
 * `createConfiguredProviders` does: every listed provider must be configured.
 */
export function createServerProvider(config: AnyEngineConfig): SearchProvider[] {
  loadHttpClient();
  return createConfiguredProviders(config);
}
