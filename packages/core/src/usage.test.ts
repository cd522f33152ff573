import type { ResultGroup } from '@openmates/contract';
import { type BraveFixture, lineCollector, rejectionOf, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { createEngine, type Engine } from './engine.ts';
import { createLogger } from './logger.ts';
import { createConfiguredProvider } from './providers/registry.ts';

let brave: BraveFixture;
beforeAll(async () => {
  brave = await startBraveFixture();
});
afterAll(() => brave.close());
beforeEach(() => brave.reset());

/** A log destination that resolves `joined` when a search starts waiting for an identical call in flight. */
function joinWatcher() {
  const lines: string[] = [];
  const collect = lineCollector(lines);
  let seen = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  return {
    destination: {
      write(line: string) {
        collect.write(line);
        if (!line.includes('waiting for an identical call')) return;
        seen += 1;
        for (const w of waiters.filter((w) => w.n <= seen)) w.resolve();
      },
    },
    joined: (n: number) => new Promise<void>((resolve) => (n <= seen ? resolve() : waiters.push({ n, resolve }))),
  };
}

/** An engine on the real Brave adapter against the fixture, prices as given. */
function braveEngine(env: Record<string, string> = {}) {
  const config = loadConfig({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    OPENMATES_CACHE_TTL_S: '0',
    OPENMATES_PRICES: 'brave=0.005',
    ...env,
  });
  const watcher = joinWatcher();
  const engine: Engine = createEngine({
    config,
    provider: createConfiguredProvider(config),
    logger: createLogger({ level: 'info', redact: (s) => s, destination: watcher.destination }),
    sleep: async () => {},
  });
  return { engine, joined: watcher.joined };
}

const usageOf = (groups: readonly ResultGroup[]) => groups.map((g) => g.usage);

describe('usage of a search', () => {
  it('counts one Brave call, billed one call, priced by OPENMATES_PRICES', async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({ requests: [{ query: 'rust ownership' }] });
    expect(brave.requests).toHaveLength(1);
    expect(usageOf(response.results)).toEqual([{ source: 'provider', calls: 1, billed: 1, cost_usd: 0.005 }]);
    expect(response.usage).toEqual({ calls: 1, from_cache: 0, shared: 0, cost_usd: 0.005 });
  });

  it('counts retries as calls and bills only the answer read', async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({ requests: [{ query: 'ratelimit-once rust' }] });
    expect(brave.requests).toHaveLength(2);
    expect(usageOf(response.results)).toEqual([{ source: 'provider', calls: 2, billed: 1, cost_usd: 0.005 }]);
  });

  it('shows a cached answer as costing no call', async () => {
    const { engine } = braveEngine({ OPENMATES_CACHE_TTL_S: '60' });
    await engine.search({ requests: [{ query: 'rust ownership' }] });
    const { response } = await engine.search({ requests: [{ query: 'rust ownership' }] });
    expect(brave.requests).toHaveLength(1);
    expect(usageOf(response.results)).toEqual([{ source: 'cache', calls: 0, billed: 0, cost_usd: 0 }]);
    expect(response.usage).toEqual({ calls: 0, from_cache: 1, shared: 0, cost_usd: 0 });
  });

  it('leaves cost_usd out when no price is set', async () => {
    const { engine } = braveEngine({ OPENMATES_PRICES: '' });
    const { response } = await engine.search({ requests: [{ query: 'rust ownership' }] });
    // Without the override, the provider's own declared price applies, when it declares one.
    const [usage] = usageOf(response.results);
    expect(usage).toMatchObject({ source: 'provider', calls: 1, billed: 1 });
  });
});

describe('paid once (ADR 0134)', () => {
  it('makes one call for identical items of one batch; the second rides on it without spending the budget', async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({
      requests: [
        { id: 'a', query: 'rust ownership' },
        { id: 'b', query: 'rust ownership' },
      ],
    });
    expect(brave.requests).toHaveLength(1);
    expect(usageOf(response.results)).toEqual([
      { source: 'provider', calls: 1, billed: 1, cost_usd: 0.005 },
      { source: 'shared', calls: 0, billed: 0, cost_usd: 0 },
    ]);
    expect(response.results[1]?.results).toEqual(response.results[0]?.results);
    expect(response.budget?.calls_used).toBe(1);
    expect(response.usage).toEqual({ calls: 1, from_cache: 0, shared: 1, cost_usd: 0.005 });
  });

  it("gives a failure of the shared call to each item, under each item's id", async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({
      requests: [
        { id: 'a', query: 'refused rust' },
        { id: 'b', query: 'refused rust' },
      ],
    });
    expect(brave.requests).toHaveLength(1);
    expect(response.results.map((g) => [g.id, g.error?.code, g.usage?.source])).toEqual([
      ['a', 'provider_error', 'provider'],
      ['b', 'provider_error', 'shared'],
    ]);
  });

  it('lets a search wait for an identical call in flight, which goes on when the first search leaves', async () => {
    const { engine, joined } = braveEngine();
    const leaving = new AbortController();
    const first = engine.search({ requests: [{ query: 'hold rust' }] }, { signal: leaving.signal });
    await brave.waitForHeld(1);
    const second = engine.search({ requests: [{ query: 'hold rust' }] });
    await joined(1);
    leaving.abort(new Error('the first caller left'));
    await expect(first).rejects.toThrow('the first caller left');
    brave.release();
    const { response } = await second;
    expect(brave.requests).toHaveLength(1);
    expect(brave.heldAborted).toBe(0);
    expect(response.results[0]?.results.length).toBeGreaterThan(0);
    expect(usageOf(response.results)).toEqual([{ source: 'shared', calls: 0, billed: 0, cost_usd: 0 }]);
  });

  it('aborts the call in flight when every search waiting for it has left', async () => {
    const { engine, joined } = braveEngine();
    const one = new AbortController();
    const two = new AbortController();
    const first = engine.search({ requests: [{ query: 'hold rust' }] }, { signal: one.signal });
    await brave.waitForHeld(1);
    const second = engine.search({ requests: [{ query: 'hold rust' }] }, { signal: two.signal });
    await joined(1);
    one.abort(new Error('gone'));
    two.abort(new Error('gone too'));
    await expect(first).rejects.toThrow('gone');
    await expect(second).rejects.toThrow('gone too');
    await brave.waitForAborted(1);
    brave.release();
  });
});

describe('OPENMATES_PRICES', () => {
  it('reads USD per billed unit by provider', () => {
    const config = loadConfig({ BRAVE_SEARCH_API_KEY: 'k', OPENMATES_PRICES: 'brave=0.005, openai=0.01' });
    expect(config.prices).toEqual({ brave: 0.005, openai: 0.01 });
  });

  it('refuses an entry it does not understand, naming it', async () => {
    for (const [value, named] of [
      ['brave=cheap', '"brave=cheap"'],
      ['nobody=1', '"nobody=1"'],
      ['brave=0.005,brave=1', 'brave twice'],
      ['brave', '"brave"'],
    ] as const) {
      const error = await rejectionOf(
        (async () => loadConfig({ BRAVE_SEARCH_API_KEY: 'k', OPENMATES_PRICES: value }))(),
        ConfigError,
      );
      expect(error.message).toContain('OPENMATES_PRICES');
      expect(error.message).toContain(named);
    }
  });
});
