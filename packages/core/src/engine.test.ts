import { Writable } from 'node:stream';
import { type BraveFixture, CANARY_API_KEY, expectedBraveResults, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BudgetSession } from './budget.ts';
import { loadConfig } from './config.ts';
import { createEngine, type Engine } from './engine.ts';
import { EngineError } from './engine-error.ts';
import { createLogger } from './logger.ts';
import type { SearchProvider } from './provider.ts';
import { createConfiguredProvider } from './providers/registry.ts';

let brave: BraveFixture;
beforeAll(async () => {
  brave = await startBraveFixture();
});
afterAll(() => brave.close());
beforeEach(() => brave.reset());

/** An engine on the real Brave adapter against the fixture, with its log lines captured. */
function braveEngine(env: Record<string, string> = {}, provider?: SearchProvider): { engine: Engine; logs: string[] } {
  const config = loadConfig({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    OPENMATES_CACHE_TTL_S: '0',
    OPENMATES_LOG_LEVEL: 'debug',
    ...env,
  });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const engine = createEngine({
    config,
    provider: provider ?? createConfiguredProvider(config),
    logger: createLogger({ level: 'debug', redact: (s) => s, destination }),
    sleep: async () => {},
  });
  return { engine, logs };
}

async function refused(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('validation before any provider call', () => {
  it('refuses an invalid request without calling the provider', async () => {
    const { engine } = braveEngine();
    const error = await refused(engine.search({ requests: [{ query: '', count: 40 }] }));
    expect(error.code).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.issues?.map((i) => i.path)).toEqual(['requests[0].query', 'requests[0].count']);
    expect(brave.requests).toHaveLength(0);
  });

  it("refuses a query over Brave's 50-word limit, naming the field and the provider", async () => {
    const { engine } = braveEngine();
    const query = Array.from({ length: 51 }, (_, i) => `w${i}`).join(' ');
    const error = await refused(engine.search({ requests: [{ query: 'fine' }, { query }] }));
    expect(error.issues).toEqual([{ path: 'requests[1].query', message: expect.stringMatching(/Brave/) }]);
    expect(brave.requests).toHaveLength(0);
  });
});

describe('result groups', () => {
  it('answers every item under its id, in request order, bounded to count', async () => {
    const { engine } = braveEngine();
    const response = await engine.search({
      requests: [
        { query: 'rust vec', count: 3 },
        { id: 'b', query: 'many things', count: 4 },
      ],
    });
    expect(response.provider).toBe('Brave Search');
    expect(response.results.map((g) => g.id)).toEqual([1, 'b']);
    expect(response.results[0]?.results.map((r) => r.url)).toEqual(
      expectedBraveResults('rust vec', 3).map((r) => r.url),
    );
    expect(response.results[1]?.results).toHaveLength(4);
    expect(response.error).toBeUndefined();
  });

  it('never returns more than 20 results or more than count, whatever the provider sends', async () => {
    const { engine } = braveEngine();
    const response = await engine.search({
      requests: [
        { query: 'many a', count: 20 },
        { query: 'many b', count: 1 },
      ],
    });
    expect(response.results.map((g) => g.results.length)).toEqual([20, 1]);
  });

  it('reports zero hits as a finished empty group, whether web is empty or absent', async () => {
    const { engine } = braveEngine();
    const response = await engine.search({ requests: [{ query: 'empty x' }, { query: 'noweb y' }] });
    expect(response.results).toEqual([
      { id: 1, results: [] },
      { id: 2, results: [] },
    ]);
    expect(response.error).toBeUndefined();
  });

  it('filters tabloids on the registrable domain and still meets count by asking for more', async () => {
    const { engine } = braveEngine();
    const response = await engine.search({ requests: [{ query: 'tabloids news', count: 6 }] });
    const hosts = response.results[0]?.results.map((r) => new URL(r.url).hostname) ?? [];
    expect(hosts).toHaveLength(6);
    expect(hosts).toContain('notdailymail.co.uk');
    expect(hosts.filter((h) => /(^|\.)(dailymail\.co\.uk|thesun\.co\.uk|nypost\.com)$/.test(h))).toEqual([]);
    expect(Number(brave.requests[0]?.query.count)).toBeGreaterThan(6);
  });

  it('keeps tabloids when the caller turns the filter off', async () => {
    const { engine } = braveEngine();
    const response = await engine.search({ requests: [{ query: 'tabloids news', count: 6, filter_tabloids: false }] });
    expect(response.results[0]?.results.map((r) => new URL(r.url).hostname)).toContain('www.dailymail.co.uk');
  });

  it('sanitizes hostile markup and drops bad and duplicate URLs', async () => {
    const { engine } = braveEngine();
    const response = await engine.search({
      requests: [
        { query: 'hostile markup', count: 20 },
        { query: 'badurls x', count: 20 },
      ],
    });
    for (const group of response.results)
      for (const result of group.results) {
        expect(result.title).not.toMatch(/<script|onerror=|[\u200B\u202E\u{E0041}]/u);
        expect(result.title.length).toBeGreaterThan(0);
        expect([...result.title].length).toBeLessThanOrEqual(300);
        expect(result.url).toMatch(/^https?:\/\//);
        expect(result.url).not.toContain('@');
        if (result.meta_url?.favicon) expect(result.meta_url.favicon).toMatch(/^https:/);
      }
    const urls = response.results[1]?.results.map((r) => r.url) ?? [];
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('derives suggestions only from provider data', async () => {
    const { engine } = braveEngine();
    const plain = await engine.search({ requests: [{ query: 'rust vec' }] });
    expect(plain.suggestions_follow_up_requests).toBeUndefined();
    const altered = await engine.search({ requests: [{ query: 'altered rust vec' }] });
    expect(altered.suggestions_follow_up_requests).toEqual(['rust vec']);
  });
});

describe('provider errors are visible, never zero hits', () => {
  const cases = [
    ['error500 boom', 'provider_error'],
    ['unavailable x', 'provider_unavailable'],
    ['ratelimit always', 'provider_rate_limited'],
    ['malformed x', 'provider_error'],
    ['html x', 'provider_error'],
    ['badkey x', 'provider_auth'],
  ] as const;
  for (const [query, code] of cases)
    it(`maps "${query.split(' ')[0]}" to ${code}`, async () => {
      const { engine } = braveEngine();
      const response = await engine.search({ requests: [{ query }] });
      expect(response.results).toEqual([{ id: 1, results: [], error: { code, message: expect.any(String) } }]);
      expect(response.code).toBe(code);
      expect(response.error).toMatch(/every query \(id 1\)/);
    });

  it('retries a 429 and then succeeds', async () => {
    const { engine } = braveEngine();
    const response = await engine.search({ requests: [{ query: 'ratelimit-once x', count: 2 }] });
    expect(response.results[0]?.results).toHaveLength(2);
    expect(brave.requests).toHaveLength(2);
  });

  it('times a slow provider out per call, leaving the other groups intact', async () => {
    const { engine } = braveEngine({ OPENMATES_PROVIDER_TIMEOUT_MS: '300' });
    const response = await engine.search({
      requests: [
        { query: 'fine one', count: 1 },
        { id: 'slow', query: 'slow one' },
      ],
    });
    expect(response.results[0]?.results).toHaveLength(1);
    expect(response.results[1]).toEqual({
      id: 'slow',
      results: [],
      error: { code: 'provider_timeout', message: expect.any(String) },
    });
    expect(response.error).toBe(
      'The search failed for 1 of 2 queries (id "slow"): The search provider did not answer in time.',
    );
    expect(response.code).toBe('provider_timeout');
  });

  it('rejects with the caller’s abort reason when the caller gives up', async () => {
    const { engine } = braveEngine();
    const controller = new AbortController();
    const pending = engine.search({ requests: [{ query: 'slow abort' }] }, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('turns a provider bug into internal_error without details', async () => {
    const broken: SearchProvider = {
      ...createConfiguredProvider(braveEngine().engine.config),
      search: async () => {
        throw new TypeError(`cannot read ${CANARY_API_KEY}`);
      },
    };
    const { engine } = braveEngine({}, broken);
    const error = await refused(engine.search({ requests: [{ query: 'x' }] }));
    expect(error.code).toBe('internal_error');
    expect(error.message).not.toContain(CANARY_API_KEY);
  });
});

describe('secrets and privacy', () => {
  it('never lets the canary key into a response, an error or a log line, and logs no query text', async () => {
    const { engine, logs } = braveEngine();
    const queries = [
      'error500 secretquery',
      'leak secretquery',
      'hostile secretquery',
      'badkey secretquery',
      'ratelimit secretquery',
    ];
    const response = await engine.search({ requests: queries.map((query) => ({ query, count: 20 })) });
    const invalid = await engine
      .search({ requests: [{ query: 'x', bogus: CANARY_API_KEY }] })
      .catch((e: EngineError) => e);
    const everything = JSON.stringify(response) + JSON.stringify(invalid) + logs.join('');
    expect(everything).not.toContain(CANARY_API_KEY);
    expect(encodeURIComponent(everything)).not.toContain(encodeURIComponent(CANARY_API_KEY));
    expect(logs.length).toBeGreaterThan(queries.length);
    expect(logs.join('')).not.toContain('secretquery');
    for (const line of logs) expect(() => JSON.parse(line)).not.toThrow();
  });
});

describe('cache', () => {
  it('answers a repeated search from the cache and never caches failures', async () => {
    const { engine } = braveEngine({ OPENMATES_CACHE_TTL_S: '60' });
    const first = await engine.search({ requests: [{ query: 'cached thing', count: 2 }] });
    const second = await engine.search({ requests: [{ id: 'x', query: 'cached  thing', count: 2 }] });
    expect(second.results[0]?.results).toEqual(first.results[0]?.results);
    expect(brave.requests).toHaveLength(1);
    await engine.search({ requests: [{ query: 'error500 again' }] });
    await engine.search({ requests: [{ query: 'error500 again' }] });
    expect(brave.requests).toHaveLength(3);
  });

  it('is off with OPENMATES_CACHE_TTL_S=0', async () => {
    const { engine } = braveEngine({ OPENMATES_CACHE_TTL_S: '0' });
    await engine.search({ requests: [{ query: 'uncached' }] });
    await engine.search({ requests: [{ query: 'uncached' }] });
    expect(brave.requests).toHaveLength(2);
  });
});

describe('budgets', () => {
  it('admits in completion order: 80 then 20 of 100 remaining source slots (seed 000, exercise 1)', () => {
    const budget = new BudgetSession({ maxCalls: 5, maxSources: 100 });
    const urls = (prefix: string) => Array.from({ length: 80 }, (_, i) => ({ url: `https://${prefix}.example/${i}` }));
    expect(budget.debitCall() && budget.debitCall()).toBe(true);
    const first = budget.admit(urls('a'));
    const second = budget.admit(urls('b'));
    expect([first.admitted.length, first.cut]).toEqual([80, 0]);
    expect([second.admitted.length, second.cut]).toEqual([20, 60]);
    expect(second.admitted.map((r) => r.url)).toEqual(
      urls('b')
        .slice(0, 20)
        .map((r) => r.url),
    );
    expect(budget.sourcesRemaining).toBe(0);
  });

  it('does not spend twice for a URL repeated across groups, and keeps call debits', () => {
    const budget = new BudgetSession({ maxCalls: 1, maxSources: 2 });
    expect(budget.debitCall()).toBe(true);
    expect(budget.debitCall()).toBe(false);
    expect(budget.admit([{ url: 'https://a/' }, { url: 'https://b/' }]).admitted).toHaveLength(2);
    expect(budget.admit([{ url: 'https://a/' }, { url: 'https://c/' }])).toEqual({
      admitted: [{ url: 'https://a/' }],
      cut: 1,
    });
    expect(budget.callsUsed).toBe(1);
  });
});
