import { PROVIDER_IDS } from '@openmates/contract';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createConfiguredProvider, PROVIDER_MODULES, type ProviderPrice, providerIdentity } from './registry.ts';

const identityOf = (env: Record<string, string>) => {
  const config = loadConfig(env);
  return providerIdentity(config, createConfiguredProvider(config));
};

describe('providerIdentity', () => {
  it('tells two SearXNG instances apart, and two accounts on one instance', () => {
    const one = identityOf({ OPENMATES_PROVIDER: 'searxng', SEARXNG_BASE_URL: 'http://127.0.0.1:8001/searxng' });
    const two = identityOf({ OPENMATES_PROVIDER: 'searxng', SEARXNG_BASE_URL: 'http://127.0.0.1:8002/searxng' });
    const user = identityOf({
      OPENMATES_PROVIDER: 'searxng',
      SEARXNG_BASE_URL: 'http://alice:pw@127.0.0.1:8001/searxng',
    });
    expect(new Set([one, two, user]).size).toBe(3);
    // Settings of other providers, or the local index path, do not split one instance's entries.
    expect(
      identityOf({
        OPENMATES_PROVIDER: 'searxng',
        SEARXNG_BASE_URL: 'http://127.0.0.1:8001/searxng',
        OPENMATES_INDEX: '/tmp/other.sqlite',
      }),
    ).toBe(one);
  });

  it('tells Brave endpoints and keys apart, and OpenAI models', () => {
    const brave = (key: string, base = 'http://127.0.0.1:9/v1') =>
      identityOf({ OPENMATES_PROVIDER: 'brave', BRAVE_SEARCH_API_KEY: key, BRAVE_SEARCH_BASE_URL: base });
    expect(brave('key-one')).not.toBe(brave('key-two'));
    expect(brave('key-one')).not.toBe(brave('key-one', 'http://127.0.0.1:10/v1'));
    const openai = (model: string) =>
      identityOf({ OPENMATES_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', OPENMATES_OPENAI_SEARCH_MODEL: model });
    expect(openai('gpt-5.4')).not.toBe(openai('gpt-5.4-mini'));
  });
});

describe('PROVIDER_MODULES', () => {
  it('holds exactly the contract’s providers, in its order, each under its own id', () => {
    expect(Object.keys(PROVIDER_MODULES)).toEqual([...PROVIDER_IDS]);
    for (const [id, module] of Object.entries(PROVIDER_MODULES)) expect(module.id).toBe(id);
  });

  it('gives each provider its docs page and a dated price from a public page, or says it costs nothing', () => {
    for (const module of Object.values(PROVIDER_MODULES)) {
      expect(module.docsPage).toBe(`docs/providers/${module.id}.md`);
      const price: ProviderPrice = module.price;
      if (price.costs === 'nothing') continue;
      expect(price.usd).toBeGreaterThan(0);
      expect(price.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(price.page).toMatch(/^https:\/\//);
    }
    expect(PROVIDER_MODULES.local.price.costs).toBe('nothing');
    expect(PROVIDER_MODULES.searxng.price.costs).toBe('nothing');
  });
});
