import { describe, expect, it } from 'vitest';
import { ConfigError, configSecrets, loadConfig } from './config.ts';
import { braveKeyVariable } from './providers/brave/index.ts';

describe('loadConfig', () => {
  it('defaults to the local provider and the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      provider: 'local',
      providerSource: 'default',
      providerTimeoutMs: 10_000,
      cacheTtlS: 300,
      maxSources: 100,
      maxResponseBytes: 262_144,
      settings: {
        brave: { baseUrl: 'https://api.search.brave.com/res/v1' },
        openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-5.4', maxSearches: 4 },
      },
    });
    expect(configSecrets(config)).toEqual([]);
  });

  it('gives openai a longer default timeout, and reads every variable', () => {
    const config = loadConfig({
      OPENMATES_PROVIDER: ' OpenAI ',
      OPENAI_API_KEY: 'k'.repeat(20),
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1/',
      OPENMATES_OPENAI_SEARCH_MODEL: 'gpt-5.6-terra',
      OPENMATES_OPENAI_MAX_SEARCHES: '8',
      BRAVE_SEARCH_API_KEY: 'b'.repeat(20),
      OPENMATES_CACHE_TTL_S: '0',
      OPENMATES_MAX_SOURCES: '5',
      OPENMATES_INDEX: '/tmp/x.db',
    });
    expect(config.provider).toBe('openai');
    expect(config.providerSource).toBe('OPENMATES_PROVIDER');
    expect(config.providerTimeoutMs).toBe(45_000);
    expect(config.settings.openai).toEqual({
      apiKey: 'k'.repeat(20),
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'gpt-5.6-terra',
      maxSearches: 8,
    });
    expect(config.cacheTtlS).toBe(0);
    expect(config.maxSources).toBe(5);
    expect(config.settings.local.indexPath).toBe('/tmp/x.db');
    expect(configSecrets(config)).toEqual(['b'.repeat(20), 'k'.repeat(20)]);
  });

  it('reads Serper’s key (a secret) and origin, the origin defaulting to Serper’s API', () => {
    const config = loadConfig({ SERPER_API_KEY: 's'.repeat(24), SERPER_BASE_URL: 'http://127.0.0.1:9/' });
    expect(config.settings.serper).toEqual({ apiKey: 's'.repeat(24), baseUrl: 'http://127.0.0.1:9' });
    expect(configSecrets(config)).toEqual(['s'.repeat(24)]);
    expect(loadConfig({}).settings.serper).toEqual({ baseUrl: 'https://google.serper.dev' });
    expect(() => loadConfig({ SERPER_BASE_URL: 'ftp://x' })).toThrow(/SERPER_BASE_URL/);
  });

  it('reads the Brave key from BRAVE_API_KEY when BRAVE_SEARCH_API_KEY is not set, which wins when both are', () => {
    const fallback = { OPENMATES_PROVIDER: 'brave', BRAVE_API_KEY: 'f'.repeat(20) };
    expect(loadConfig(fallback).settings.brave.apiKey).toBe('f'.repeat(20));
    expect(braveKeyVariable(fallback)).toBe('BRAVE_API_KEY');
    const both = { ...fallback, BRAVE_SEARCH_API_KEY: 's'.repeat(20) };
    expect(loadConfig(both).settings.brave.apiKey).toBe('s'.repeat(20));
    expect(braveKeyVariable(both)).toBe('BRAVE_SEARCH_API_KEY');
    expect(braveKeyVariable({ BRAVE_SEARCH_API_KEY: ' ', BRAVE_API_KEY: 'f'.repeat(20) })).toBe('BRAVE_API_KEY');
    expect(braveKeyVariable({})).toBeUndefined();
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ OPENMATES_PROVIDER: '', OPENMATES_CACHE_TTL_S: ' ', BRAVE_SEARCH_API_KEY: '' })).toMatchObject({
      provider: 'local',
      cacheTtlS: 300,
      settings: { brave: { baseUrl: 'https://api.search.brave.com/res/v1' } },
    });
  });

  it('names every bad variable, one per line, without echoing values', () => {
    let error: unknown;
    try {
      loadConfig({
        OPENMATES_PROVIDER: 'bing',
        OPENMATES_CACHE_TTL_S: '-1',
        OPENMATES_PROVIDER_TIMEOUT_MS: '1.5',
        BRAVE_SEARCH_BASE_URL: 'ftp://secret-host',
        OPENMATES_MAX_RESPONSE_BYTES: '10',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const lines = (error as Error).message.split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(
      'OPENMATES_PROVIDER must be one of local, brave, openai, searxng, tavily, exa, serper, anthropic, azure-openai, or several of them in order separated by commas',
    );
    expect(lines.join('\n')).toMatch(/OPENMATES_CACHE_TTL_S must be a whole number ≥ 0/);
    expect(lines.join('\n')).toMatch(/BRAVE_SEARCH_BASE_URL must be an http\(s\) URL/);
    expect(lines.join('\n')).not.toContain('secret-host');
  });

  it.each(['0', '21', '4.5', 'four'])('refuses OPENMATES_OPENAI_MAX_SEARCHES=%j, naming its range', (value) => {
    expect(() => loadConfig({ OPENMATES_OPENAI_MAX_SEARCHES: value })).toThrow(
      new ConfigError('OPENMATES_OPENAI_MAX_SEARCHES must be a whole number from 1 to 20'),
    );
    expect(loadConfig({ OPENMATES_OPENAI_MAX_SEARCHES: '20' }).settings.openai.maxSearches).toBe(20);
    expect(loadConfig({ OPENMATES_OPENAI_MAX_SEARCHES: '1' }).settings.openai.maxSearches).toBe(1);
  });

  it('splits SEARXNG_BASE_URL into the instance (sub-path kept) and its credentials, which are secrets', () => {
    const config = loadConfig({
      OPENMATES_PROVIDER: 'searxng',
      SEARXNG_BASE_URL: 'https://me:p%40ss-w0rd-long@search.example/sx/',
    });
    expect(config.providerTimeoutMs).toBe(15_000);
    expect(config.settings.searxng).toEqual({
      baseUrl: 'https://search.example/sx',
      username: 'me',
      password: 'p@ss-w0rd-long',
    });
    const secrets = configSecrets(config);
    expect(secrets).toContain('p@ss-w0rd-long');
    expect(secrets).toContain('me:p@ss-w0rd-long');
    expect(secrets).toContain(Buffer.from('me:p@ss-w0rd-long').toString('base64'));
  });

  it('refuses a SEARXNG_BASE_URL that is not http(s) without echoing it', () => {
    expect(() => loadConfig({ SEARXNG_BASE_URL: 'ftp://me:hunter2-secret@x' })).toThrow(
      /^SEARXNG_BASE_URL must be an http\(s\) URL$/,
    );
  });

  it('reads the shared-state settings; the secret is required with a URL, and both are secrets', () => {
    const config = loadConfig({
      OPENMATES_REDIS_URL: 'rediss://default:p%40ss-word-0123@redis.internal:6380/2',
      OPENMATES_REDIS_SECRET: 'deployment-secret-0123456789',
      OPENMATES_PROVIDER_RATE_PER_S: '0.5',
    });
    expect(config.redis).toEqual({
      url: 'rediss://default:p%40ss-word-0123@redis.internal:6380/2',
      secret: 'deployment-secret-0123456789',
      timeoutMs: 100,
      prefix: 'openmates:',
    });
    expect(config.providerRatePerS).toBe(0.5);
    expect(configSecrets(config)).toEqual(
      expect.arrayContaining(['deployment-secret-0123456789', 'p%40ss-word-0123', 'p@ss-word-0123']),
    );
    expect(configSecrets(config)).not.toContain('default');
    expect(loadConfig({}).redis).toBeUndefined();
    expect(() => loadConfig({ OPENMATES_REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(
      /OPENMATES_REDIS_SECRET is required with OPENMATES_REDIS_URL/,
    );
    expect(() => loadConfig({ OPENMATES_REDIS_URL: 'http://x', OPENMATES_REDIS_SECRET: 'x'.repeat(20) })).toThrow(
      /OPENMATES_REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/,
    );
    expect(() => loadConfig({ OPENMATES_PROVIDER_RATE_PER_S: '0' })).toThrow(/OPENMATES_PROVIDER_RATE_PER_S/);
  });

  it('reads OPENMATES_PROVIDER as an ordered chain, with per-provider timeouts, rates and the request deadline', () => {
    const config = loadConfig({
      OPENMATES_PROVIDER: ' Brave, searxng ,local',
      OPENMATES_PROVIDER_RATE_PER_S: 'brave=1, searxng=5',
    });
    expect(config.provider).toBe('brave');
    expect(config.providers).toEqual(['brave', 'searxng', 'local']);
    expect(config.providerTimeoutsMs).toEqual({ brave: 10_000, searxng: 15_000, local: 10_000 });
    expect(config.providerRatesPerS).toEqual({ brave: 1, searxng: 5 });
    expect(config.providerRatePerS).toBe(1);
    expect(config.requestDeadlineMs).toBe(30_000);
    const one = loadConfig({
      OPENMATES_PROVIDER: 'searxng,brave',
      OPENMATES_PROVIDER_RATE_PER_S: '2',
      OPENMATES_PROVIDER_TIMEOUT_MS: '700',
      OPENMATES_REQUEST_DEADLINE_MS: '5000',
    });
    expect(one.providerRatesPerS).toEqual({ searxng: 2 });
    expect(one.providerTimeoutsMs).toEqual({ searxng: 700, brave: 700 });
    expect(one.requestDeadlineMs).toBe(5000);
    expect(loadConfig({}).providers).toEqual(['local']);
  });

  it('refuses a chain that names a provider twice or an unknown one, and a rate for a provider not listed', () => {
    expect(() => loadConfig({ OPENMATES_PROVIDER: 'brave,brave' })).toThrow(/^OPENMATES_PROVIDER lists brave twice$/);
    expect(() => loadConfig({ OPENMATES_PROVIDER: 'brave,,local' })).toThrow(/^OPENMATES_PROVIDER must be one of/);
    expect(() => loadConfig({ OPENMATES_PROVIDER: 'brave', OPENMATES_PROVIDER_RATE_PER_S: 'searxng=1' })).toThrow(
      /OPENMATES_PROVIDER_RATE_PER_S names searxng, which OPENMATES_PROVIDER does not list/,
    );
    expect(() => loadConfig({ OPENMATES_PROVIDER_RATE_PER_S: 'brave=x' })).toThrow(/OPENMATES_PROVIDER_RATE_PER_S/);
    expect(() => loadConfig({ OPENMATES_REQUEST_DEADLINE_MS: '0' })).toThrow(/OPENMATES_REQUEST_DEADLINE_MS/);
  });
});
