import {
  createConfiguredProviders,
  createUndiciGetClient,
  type EngineConfig,
  loadUndici,
  type SearchProvider,
} from '@openmates/core';

/**
 * The providers (the chain, in order) as `openmates serve` builds them: Brave and SearXNG call out with undici's pool, which
 * costs a busy server less CPU per call than node:http's client (ADR 0057). undici is
 * loaded now, so that the first search does not wait for it. Throws as `createConfiguredProviders` does: every listed provider must be configured.
 */
export function createServerProvider(config: EngineConfig): SearchProvider[] {
  loadUndici();
  return createConfiguredProviders(config, { http: createUndiciGetClient });
}
