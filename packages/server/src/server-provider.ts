import {
  createConfiguredProvider,
  createUndiciGetClient,
  type EngineConfig,
  loadUndici,
  type SearchProvider,
} from '@openmates/core';

/**
 * The provider as `openmates serve` builds it: Brave and SearXNG call out with undici's pool, which
 * costs a busy server less CPU per call than node:http's client (ADR 0057). undici is
 * loaded now, so that the first search does not wait for it. Throws as `createConfiguredProvider` does.
 */
export function createServerProvider(config: EngineConfig): SearchProvider {
  loadUndici();
  return createConfiguredProvider(config, { http: createUndiciGetClient });
}
