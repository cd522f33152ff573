import type { EngineConfig } from '../config.ts';
import { ProviderNotConfiguredError, type SearchProvider } from '../provider.ts';
import { createBraveProvider } from './brave-provider.ts';
import type { HttpGetClientFactory } from './http-get.ts';
import { createLocalProvider, defaultIndexPath } from './local/index.ts';
import { createOpenAIProvider } from './openai-provider.ts';
import { createSearxngProvider } from './searxng-provider.ts';

/** How `createConfiguredProvider` builds a provider, beyond the configuration. */
export interface ProviderOptions {
  /**
   * The HTTP client Brave and SearXNG call their origin with (default `createHttpGetClient`,
   * node:http; `openmates serve` gives `createUndiciGetClient`).
   */
  http?: HttpGetClientFactory;
}

/**
 * The provider `OPENMATES_PROVIDER` selects, built from the configuration. A query only ever goes
 * to a third party selected explicitly: there is no fallback from one provider to another.
 * Throws ProviderNotConfiguredError with a one-line reason when the selected provider lacks its key.
 */
export function createConfiguredProvider(config: EngineConfig, options: ProviderOptions = {}): SearchProvider {
  const http = options.http === undefined ? {} : { http: options.http };
  switch (config.provider) {
    case 'brave':
      if (!config.brave.apiKey)
        throw new ProviderNotConfiguredError(
          'OPENMATES_PROVIDER=brave needs BRAVE_SEARCH_API_KEY (a Brave Search API key).',
        );
      return createBraveProvider({ apiKey: config.brave.apiKey, baseUrl: config.brave.baseUrl, ...http });
    case 'openai':
      if (!config.openai.apiKey)
        throw new ProviderNotConfiguredError('OPENMATES_PROVIDER=openai needs OPENAI_API_KEY (an OpenAI API key).');
      return createOpenAIProvider({
        apiKey: config.openai.apiKey,
        baseUrl: config.openai.baseUrl,
        model: config.openai.model,
      });
    case 'searxng': {
      const { baseUrl, username, password } = config.searxng;
      if (!baseUrl)
        throw new ProviderNotConfiguredError(
          'OPENMATES_PROVIDER=searxng needs SEARXNG_BASE_URL (your instance, e.g. http://127.0.0.1:8888).',
        );
      return createSearxngProvider({
        baseUrl,
        ...(username === undefined ? {} : { username }),
        ...(password === undefined ? {} : { password }),
        ...http,
      });
    }
    case 'local':
      return createLocalProvider({ indexPath: defaultIndexPath(config.local.indexPath) });
  }
}
