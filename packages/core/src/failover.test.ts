import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BraveFixture,
  expectedBraveResults,
  expectedSearxngResults,
  lineCollector,
  type SearxngFixture,
  startBraveFixture,
  startSearxngFixture,
} from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createEngine, type Engine } from './engine.ts';
import { EngineError } from './engine-error.ts';
import { createLogger } from './logger.ts';
import { createConfiguredProviders } from './providers/registry.ts';

// Failover across a chain of real adapters (Brave, then SearXNG), each against its fixture server.
let brave: BraveFixture;
let searxng: SearxngFixture;
beforeAll(async () => {
  [brave, searxng] = await Promise.all([startBraveFixture(), startSearxngFixture()]);
});
afterAll(() => Promise.all([brave.close(), searxng.close()]));
beforeEach(() => {
  brave.reset();
  searxng.reset();
});

interface ChainEngine {
  engine: Engine;
  logs: string[];
  /** Every wait the engine or a provider asked `sleep` for, in ms. */
  sleeps: number[];
}

function chainEngine(env: Record<string, string> = {}, now?: () => number): ChainEngine {
  const config = loadConfig({
    OPENMATES_PROVIDER: 'brave,searxng',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    SEARXNG_BASE_URL: searxng.baseUrl,
    OPENMATES_CACHE_TTL_S: '0',
    ...env,
  });
  const logs: string[] = [];
  const sleeps: number[] = [];
  const engine = createEngine({
    config,
    provider: createConfiguredProviders(config),
    logger: createLogger({ level: 'debug', redact: (s) => s, destination: lineCollector(logs) }),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...(now ? { now } : {}),
  });
  return { engine, logs, sleeps };
}

const urls = (results: readonly { url: string }[] | undefined) => (results ?? []).map((r) => r.url);
const braveCalls = (query: string) => brave.requests.filter((r) => r.query.q === query).length;
const searxngCalls = (query: string) => searxng.requests.filter((r) => r.query.q === query).length;

describe('a chain of providers (OPENMATES_PROVIDER=brave,searxng)', () => {
  it('sends a group Brave fails to SearXNG at once, and says per group and in provider who answered', async () => {
    const { engine, sleeps } = chainEngine();
    const { response } = await engine.search({
      requests: [
        { id: 'ok', query: 'rust vec', count: 3, filter_tabloids: false },
        { id: 'down', query: 'unavailable rust', count: 3, filter_tabloids: false },
        { id: 'busy', query: 'ratelimit rust', count: 3, filter_tabloids: false },
      ],
    });
    expect(response.results.map((g) => [g.id, g.provider, g.error?.code])).toEqual([
      ['ok', 'Brave Search', undefined],
      ['down', 'SearXNG', undefined],
      ['busy', 'SearXNG', undefined],
    ]);
    expect(urls(response.results[0]?.results)).toEqual(urls(expectedBraveResults('rust vec', 3)));
    expect(urls(response.results[1]?.results)).toEqual(urls(expectedSearxngResults('unavailable rust', 1, 3)));
    expect(response.provider).toBe('Brave Search, SearXNG');
    expect(response.error).toBeUndefined();
    // Brave's 429 was not waited out and retried: one call, no sleep, then SearXNG.
    expect(braveCalls('ratelimit rust')).toBe(1);
    expect(sleeps).toEqual([]);
    expect(searxngCalls('rust vec')).toBe(0);
    // Every provider call is debited: 3 to Brave, 2 to SearXNG.
    expect(response.budget?.calls_used).toBe(5);
  });

  it('names only the providers that answered, in request order, each once', async () => {
    const { engine } = chainEngine();
    const { response } = await engine.search({
      requests: [
        { query: 'unavailable one', count: 2, filter_tabloids: false },
        { query: 'plain two', count: 2, filter_tabloids: false },
        { query: 'unavailable three', count: 2, filter_tabloids: false },
      ],
    });
    expect(response.results.map((g) => g.provider)).toEqual(['SearXNG', 'Brave Search', 'SearXNG']);
    expect(response.provider).toBe('SearXNG, Brave Search');
  });

  it("gives a group every provider failed the last provider's error, and the first provider's name as provider", async () => {
    const { engine } = chainEngine();
    const { response } = await engine.search({ requests: [{ query: 'error500 both', filter_tabloids: false }] });
    const [group] = response.results;
    expect(group?.error?.code).toBe('provider_error');
    expect(group?.error?.message).toMatch(/SearXNG/);
    expect(group?.provider).toBe('SearXNG');
    expect(response.provider).toBe('Brave Search');
    expect(braveCalls('error500 both')).toBe(1);
    expect(searxngCalls('error500 both')).toBe(1);
  });

  it('never sends an invalid request to any provider', async () => {
    const { engine } = chainEngine();
    const words = Array.from({ length: 51 }, (_, i) => `w${i}`).join(' ');
    const error = await engine.search({ requests: [{ query: words }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).issues?.map((i) => i.path)).toEqual(['requests[0].query']);
    expect(brave.requests).toHaveLength(0);
    expect(searxng.requests).toHaveLength(0);
  });

  it('fails over on provider_auth too, with a warning in the log', async () => {
    const { engine, logs } = chainEngine();
    const { response } = await engine.search({
      requests: [{ query: 'badkey rust', count: 2, filter_tabloids: false }],
    });
    expect(response.results[0]?.provider).toBe('SearXNG');
    expect(response.results[0]?.error).toBeUndefined();
    const warning = logs.map((l) => JSON.parse(l)).find((l) => l.event === 'failover' && l.code === 'provider_auth');
    expect(warning).toMatchObject({ level: 40, provider: 'brave' });
  });

  it('skips a later provider that cannot apply an option the group uses (a date range on SearXNG)', async () => {
    const { engine, logs } = chainEngine();
    const { response } = await engine.search({
      requests: [{ query: 'unavailable dated', freshness: '2025-01-01..2025-06-30', filter_tabloids: false }],
    });
    const [group] = response.results;
    expect(group?.error?.code).toBe('provider_unavailable');
    expect(group?.provider).toBe('Brave Search');
    expect(searxng.requests).toHaveLength(0);
    expect(logs.some((l) => l.includes('"skipped":"options"'))).toBe(true);
  });

  it('skips a provider paused by a 429 with no call and no debit while another stands behind it', async () => {
    // A clock that stands still: the pause Brave's Retry-After set holds for the second search.
    const { engine } = chainEngine({}, () => 1_000);
    await engine.search({ requests: [{ query: 'ratelimit first', count: 2, filter_tabloids: false }] });
    brave.reset();
    const { response } = await engine.search({
      requests: [{ query: 'plain later', count: 2, filter_tabloids: false }],
    });
    expect(response.results[0]?.provider).toBe('SearXNG');
    expect(brave.requests).toHaveLength(0);
    expect(response.budget?.calls_used).toBe(1);
  });

  it('still serves a paused provider’s cached answer (a pause keeps calls away, not the cache)', async () => {
    const { engine } = chainEngine({ OPENMATES_CACHE_TTL_S: '300' }, () => 1_000);
    const plain = { requests: [{ query: 'plain cached', count: 2, filter_tabloids: false }] };
    expect((await engine.search(plain)).response.results[0]?.provider).toBe('Brave Search');
    await engine.search({ requests: [{ query: 'ratelimit pause', count: 2, filter_tabloids: false }] });
    brave.reset();
    const { response: again } = await engine.search(plain);
    expect(again.results[0]?.provider).toBe('Brave Search');
    expect(brave.requests).toHaveLength(0);
    expect(searxngCalls('plain cached')).toBe(0);
  });

  it('starts no new attempt after OPENMATES_REQUEST_DEADLINE_MS from the request start', async () => {
    // Each reading of the clock is a second later: by the time Brave has failed, the deadline is past.
    let t = 0;
    const { engine, logs } = chainEngine({ OPENMATES_REQUEST_DEADLINE_MS: '1500' }, () => (t += 1_000));
    const { response } = await engine.search({ requests: [{ query: 'unavailable late', filter_tabloids: false }] });
    expect(response.results[0]?.error?.code).toBe('provider_unavailable');
    expect(response.results[0]?.provider).toBe('Brave Search');
    expect(searxng.requests).toHaveLength(0);
    expect(logs.some((l) => l.includes('"skipped":"deadline"'))).toBe(true);
  });

  it('starts nothing more for a caller that left between two providers', async () => {
    const config = loadConfig({
      OPENMATES_PROVIDER: 'brave,searxng',
      BRAVE_SEARCH_API_KEY: brave.apiKey,
      BRAVE_SEARCH_BASE_URL: brave.baseUrl,
      SEARXNG_BASE_URL: searxng.baseUrl,
      OPENMATES_LOG_LEVEL: 'silent',
    });
    const caller = new AbortController();
    let misses = 0;
    // The caller leaves once Brave has failed, as SearXNG's cache is asked: before SearXNG's call.
    const engine = createEngine({
      config,
      provider: createConfiguredProviders(config),
      observer: {
        providerCall: () => {},
        cache: (result) => {
          if (result === 'miss' && ++misses === 2) caller.abort(new Error('caller left'));
        },
        group: () => {},
      },
    });
    const outcome = await engine
      .search({ requests: [{ query: 'unavailable gone' }] }, { signal: caller.signal })
      .catch((e: unknown) => e);
    expect((outcome as Error).message).toBe('caller left');
    expect(braveCalls('unavailable gone')).toBe(1);
    expect(searxng.requests).toHaveLength(0);
  });

  it('lists the chain in skill info beside the first provider, whose options it describes', () => {
    const { engine } = chainEngine();
    const info = engine.skillInfo('test');
    expect(info.provider.id).toBe('brave');
    expect(info.providers.map((p) => p.id)).toEqual(['brave', 'searxng']);
    expect(info.options.honoured).toContain('freshness');
  });

  it('leaves provider out of every group when the chain has one provider', async () => {
    const config = loadConfig({
      OPENMATES_PROVIDER: 'brave',
      BRAVE_SEARCH_API_KEY: brave.apiKey,
      BRAVE_SEARCH_BASE_URL: brave.baseUrl,
      OPENMATES_CACHE_TTL_S: '0',
      OPENMATES_LOG_LEVEL: 'silent',
    });
    const engine = createEngine({ config, provider: createConfiguredProviders(config), sleep: async () => {} });
    const { response } = await engine.search({ requests: [{ query: 'rust' }, { query: 'unavailable rust' }] });
    expect(response.results.every((g) => !('provider' in g))).toBe(true);
    expect(response.provider).toBe('Brave Search');
    expect(engine.skillInfo('test').providers.map((p) => p.id)).toEqual(['brave']);
  });

  it('fails a group over when a provider cannot serve mid-run (an unreadable local index), never the whole request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openmates-chain-'));
    const index = join(dir, 'garbage.db');
    writeFileSync(index, 'not sqlite at all, only some text that fills the header bytes of a file');
    try {
      const first = chainEngine({ OPENMATES_PROVIDER: 'local,searxng', OPENMATES_INDEX: index });
      const { response } = await first.engine.search({ requests: [{ query: 'rust vec', count: 2 }] });
      expect(response.results.map((g) => [g.provider, g.error?.code])).toEqual([['SearXNG', undefined]]);
      expect(urls(response.results[0]?.results)).toEqual(urls(expectedSearxngResults('rust vec', 1, 2)));
      expect(first.logs.join('\n')).toContain('"code":"not_configured"');
      // Last in the chain: the group fails as unavailable, beside the groups that were answered.
      const last = chainEngine({ OPENMATES_PROVIDER: 'brave,local', OPENMATES_INDEX: index });
      const { response: both } = await last.engine.search({
        requests: [{ query: 'rust vec' }, { query: 'unavailable rust' }],
      });
      expect(both.results.map((g) => [g.provider, g.error?.code])).toEqual([
        ['Brave Search', undefined],
        ['Local index', 'provider_unavailable'],
      ]);
      expect(both.provider).toBe('Brave Search');
      expect(both.results[1]?.error?.message).not.toContain(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to build a chain with an unconfigured member, naming it and the variable it needs', () => {
    const config = loadConfig({ OPENMATES_PROVIDER: 'brave,searxng', BRAVE_SEARCH_API_KEY: brave.apiKey });
    expect(() => createConfiguredProviders(config)).toThrow(
      /^OPENMATES_PROVIDER lists searxng, which is not configured: it needs SEARXNG_BASE_URL/,
    );
  });
});
