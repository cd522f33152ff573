import { MIN_MAX_RESPONSE_BYTES, type WebSearchResponse } from '@openmates/contract';
import {
  type BraveFixture,
  CANARY_API_KEY,
  expectedBraveResults,
  lineCollector,
  rejectionOf,
  startBraveFixture,
} from '@openmates/fixtures';
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
    OPENMATES_PRICES: 'brave=0.005',
    OPENMATES_LOG_LEVEL: 'debug',
    ...env,
  });
  const logs: string[] = [];
  const destination = lineCollector(logs);
  const engine = createEngine({
    config,
    provider: provider ?? createConfiguredProvider(config),
    logger: createLogger({ level: 'debug', redact: (s) => s, destination }),
    sleep: async () => {},
  });
  return { engine, logs };
}

const refused = (promise: Promise<unknown>) => rejectionOf(promise, EngineError);

/** A response's JSON without its `usage`, the response's and each group's (a cache hit's differs from its miss's). */
function withoutUsage(json: string): unknown {
  const { usage: _, results, ...rest } = JSON.parse(json) as WebSearchResponse;
  return { ...rest, results: results.map(({ usage: __, ...group }) => group) };
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
    const { response } = await engine.search({
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
    const { response } = await engine.search({
      requests: [
        { query: 'many a', count: 20 },
        { query: 'many b', count: 1 },
      ],
    });
    expect(response.results.map((g) => g.results.length)).toEqual([20, 1]);
  });

  it('sends the provider the query with joiners kept where they join and removed elsewhere (ADR 0004)', async () => {
    const { engine } = braveEngine();
    await engine.search({ requests: [{ query: 'la\u200Dtin 👩\u200D💻 می\u200Cخواهم क्\u200Dष\u200B' }] });
    expect(brave.requests[0]?.query.q).toBe('latin 👩\u200D💻 می\u200Cخواهم क्\u200Dष');
  });

  it('reports zero hits as a finished empty group, whether web is empty or absent', async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({ requests: [{ query: 'empty x' }, { query: 'noweb y' }] });
    expect(response.results).toEqual([
      { id: 1, results: [], more: false, usage: { source: 'provider', calls: 1, billed: 1, cost_usd: 0.005 } },
      { id: 2, results: [], more: false, usage: { source: 'provider', calls: 1, billed: 1, cost_usd: 0.005 } },
    ]);
    expect(response.error).toBeUndefined();
  });

  it('filters tabloids on the registrable domain and still meets count by asking for more', async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({ requests: [{ query: 'tabloids news', count: 6 }] });
    const hosts = response.results[0]?.results.map((r) => new URL(r.url).hostname) ?? [];
    expect(hosts).toHaveLength(6);
    expect(hosts).toContain('notdailymail.co.uk');
    expect(hosts.filter((h) => /(^|\.)(dailymail\.co\.uk|thesun\.co\.uk|nypost\.com)$/.test(h))).toEqual([]);
    expect(Number(brave.requests[0]?.query.count)).toBeGreaterThan(6);
  });

  it('keeps tabloids when the caller turns the filter off', async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({
      requests: [{ query: 'tabloids news', count: 6, filter_tabloids: false }],
    });
    expect(response.results[0]?.results.map((r) => new URL(r.url).hostname)).toContain('www.dailymail.co.uk');
  });

  it('sanitizes hostile markup and drops bad and duplicate URLs', async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({
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

  it('derives suggestions only from provider data, and says an altered query as what the group is for', async () => {
    const { engine } = braveEngine();
    const { response: plain } = await engine.search({ requests: [{ query: 'rust vec' }] });
    expect(plain.suggestions_follow_up_requests).toBeUndefined();
    expect(plain.results[0]?.altered_query).toBeUndefined();
    expect(plain.results[0]?.more).toBe(true);
    const { response: altered } = await engine.search({ requests: [{ query: 'altered rust vec' }] });
    expect(altered.results[0]?.altered_query).toBe('rust vec');
    expect(altered.suggestions_follow_up_requests).toBeUndefined();
  });

  it('says the altered query without the site: operators the engine added', async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({
      requests: [{ query: 'altered rust vec', include_domains: ['docs.rs'], exclude_domains: ['example.com'] }],
    });
    expect(brave.requests[0]?.query.q).toBe('altered rust vec site:docs.rs -site:example.com');
    expect(response.results[0]?.altered_query).toBe('rust vec');
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
      const { response } = await engine.search({ requests: [{ query }] });
      expect(response.results).toEqual([
        { id: 1, results: [], error: { code, message: expect.any(String) }, usage: expect.any(Object) },
      ]);
      expect(response.code).toBe(code);
      expect(response.error).toMatch(/every query \(id 1\)/);
    });

  it('retries a 429 and then succeeds', async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({ requests: [{ query: 'ratelimit-once x', count: 2 }] });
    expect(response.results[0]?.results).toHaveLength(2);
    expect(brave.requests).toHaveLength(2);
  });

  it('times a slow provider out per call, leaving the other groups intact', async () => {
    const { engine } = braveEngine({ OPENMATES_PROVIDER_TIMEOUT_MS: '300' });
    const { response } = await engine.search({
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
      usage: { source: 'provider', calls: 1, billed: 0, cost_usd: 0 },
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
      translator: {
        kind: 'run',
        run: async () => {
          throw new TypeError(`cannot read ${CANARY_API_KEY}`);
        },
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
    const { response } = await engine.search({ requests: queries.map((query) => ({ query, count: 20 })) });
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
    const { response: first } = await engine.search({ requests: [{ query: 'cached thing', count: 2 }] });
    const { response: second } = await engine.search({ requests: [{ id: 'x', query: 'cached  thing', count: 2 }] });
    expect(second.results[0]?.results).toEqual(first.results[0]?.results);
    expect(brave.requests).toHaveLength(1);
    await engine.search({ requests: [{ query: 'error500 again' }] });
    await engine.search({ requests: [{ query: 'error500 again' }] });
    expect(brave.requests).toHaveLength(3);
  });

  it('answers a body searched again as text with the same bytes as the search of its parsed JSON', async () => {
    const { engine } = braveEngine({ OPENMATES_CACHE_TTL_S: '60' });
    const text = JSON.stringify({ requests: [{ query: 'text body' }, { id: 'b', query: 'second body', count: 3 }] });
    const miss = await engine.searchText(text, { requestId: 'same-id' });
    const hit = await engine.searchText(text, { requestId: 'same-id' });
    const parsed = await engine.search(JSON.parse(text), { requestId: 'same-id' });
    expect(brave.requests).toHaveLength(2);
    // The miss and the hit differ only in where their answers came from (`usage`).
    expect(withoutUsage(hit.json)).toEqual(withoutUsage(miss.json));
    expect(parsed.json).toBe(hit.json);
    expect(JSON.parse(hit.json)).toEqual(hit.response);
    const other = await engine.searchText(text, { requestId: 'other-id' });
    expect(other.json).toBe(hit.json.replace('"same-id"', '"other-id"'));
  });

  it('refuses a body that is not JSON, and an invalid one every time it comes', async () => {
    const { engine, logs } = braveEngine({ OPENMATES_CACHE_TTL_S: '60' });
    const notJson = await refused(engine.searchText('{"requests": ['));
    expect([notJson.code, notJson.issues?.[0]?.path]).toEqual(['invalid_request', '']);
    const text = JSON.stringify({ requests: [{ query: '', count: 40 }] });
    for (let i = 0; i < 2; i += 1) {
      const error = await refused(engine.searchText(text));
      expect(error.issues?.map((issue) => issue.path)).toEqual(['requests[0].query', 'requests[0].count']);
    }
    expect(logs.filter((line) => line.includes('request refused'))).toHaveLength(2);
    expect(brave.requests).toHaveLength(0);
  });

  it('validates a body as a step of its own: refused before any call, or the search ready to run', async () => {
    const { engine } = braveEngine({ OPENMATES_CACHE_TTL_S: '60' });
    const invalid = await refused(engine.validateText(JSON.stringify({ requests: [] })));
    expect(invalid.code).toBe('invalid_request');
    expect((await refused(engine.validateText('not json'))).code).toBe('invalid_request');
    const text = JSON.stringify({ requests: [{ query: 'validated first' }] });
    const validated = await engine.validateText(text, { requestId: 'step-id' });
    expect(brave.requests).toHaveLength(0);
    const groups: number[] = [];
    const ran = await validated.run({ onGroup: (_group, index) => groups.push(index) });
    expect(groups).toEqual([0]);
    expect(brave.requests).toHaveLength(1);
    expect(withoutUsage(ran.json)).toEqual(
      withoutUsage((await engine.searchText(text, { requestId: 'step-id' })).json),
    );
  });

  it('is off with OPENMATES_CACHE_TTL_S=0', async () => {
    const { engine } = braveEngine({ OPENMATES_CACHE_TTL_S: '0' });
    await engine.search({ requests: [{ query: 'uncached' }] });
    await engine.search({ requests: [{ query: 'uncached' }] });
    expect(brave.requests).toHaveLength(2);
  });
});

describe('budgets', () => {
  it('admits in completion order: 80 then 20 of 100 remaining source slots', () => {
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

  it('caps each call at its count before spending, without counting the rest as cut', () => {
    const budget = new BudgetSession({ maxCalls: 5, maxSources: 3 });
    const urls = Array.from({ length: 6 }, (_, i) => ({ url: `https://a.example/${i}` }));
    expect(budget.admit(urls, 2)).toEqual({ admitted: urls.slice(0, 2), cut: 0 });
    expect(budget.admit(urls, 5)).toEqual({ admitted: urls.slice(0, 3), cut: 2 });
    expect([budget.sourcesAdmitted, budget.sourcesCut]).toEqual([3, 2]);
  });
});

describe('budgets over real HTTP (Brave fixture)', () => {
  const urlsOf = (response: WebSearchResponse, index: number) => response.results[index]?.results.map((r) => r.url);

  it('exercise 1 at group scale: 20 then 5 of 25 source slots, in completion order, not request order', async () => {
    const { engine } = braveEngine({ OPENMATES_MAX_SOURCES: '25' });
    // The slow query is submitted first; the fast one completes first and is admitted first.
    const { response } = await engine.search({
      requests: [
        { id: 'slow', query: 'delay400 alpha', count: 20 },
        { id: 'fast', query: 'beta', count: 20 },
      ],
    });
    expect(urlsOf(response, 1)).toEqual(expectedBraveResults('beta', 20).map((r) => r.url));
    expect(urlsOf(response, 0)).toEqual(expectedBraveResults('delay400 alpha', 5).map((r) => r.url));
    expect(response.results.map((g) => [g.id, g.results.length, g.sources_cut])).toEqual([
      ['slow', 5, 15],
      ['fast', 20, undefined],
    ]);
    expect(response.budget).toEqual({
      // Each query's first page of 20 holds its 20 results: one call each (its window has two pages).
      calls_used: 2,
      max_sources: 25,
      sources_admitted: 25,
      sources_cut: 15,
      notes_fitted_out: 0,
      suggestions_fitted_out: 0,
      results_fitted_out: 0,
    });
    expect(response.error).toBeUndefined();
  });

  it('gives the faster query its full share and the slower one the remainder, whichever is submitted first', async () => {
    const { engine } = braveEngine({ OPENMATES_MAX_SOURCES: '5' });
    const { response: fastFirst } = await engine.search({
      requests: [
        { id: 'fast', query: 'gamma', count: 3 },
        { id: 'slow', query: 'delay300 delta', count: 3 },
      ],
    });
    expect(fastFirst.results.map((g) => [g.id, g.results.length, g.sources_cut])).toEqual([
      ['fast', 3, undefined],
      ['slow', 2, 1],
    ]);
    const { response: slowFirst } = await engine.search({
      requests: [
        { id: 'slow', query: 'delay300 delta', count: 3 },
        { id: 'fast', query: 'gamma', count: 3 },
      ],
    });
    expect(slowFirst.results.map((g) => [g.id, g.results.length, g.sources_cut])).toEqual([
      ['slow', 2, 1],
      ['fast', 3, undefined],
    ]);
    expect(urlsOf(slowFirst, 0)).toEqual(expectedBraveResults('delay300 delta', 2).map((r) => r.url));
  });

  it('spends one slot for a URL repeated across groups', async () => {
    const { engine } = braveEngine({ OPENMATES_MAX_SOURCES: '5' });
    const { response } = await engine.search({
      requests: [
        { query: 'rust vec', count: 5 },
        { query: 'rust  vec', count: 5 },
      ],
    });
    expect(urlsOf(response, 0)).toEqual(urlsOf(response, 1));
    expect(response.results.map((g) => g.results.length)).toEqual([5, 5]);
    expect(response.budget).toMatchObject({ sources_admitted: 5, sources_cut: 0 });
  });

  it('keeps the debit of a failed call and spends no source for it', async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({
      requests: [
        { query: 'error500 x', count: 5 },
        { query: 'rust vec', count: 4 },
      ],
    });
    expect(response.results[0]?.error?.code).toBe('provider_error');
    expect(response.budget).toMatchObject({ calls_used: 2, max_sources: 100, sources_admitted: 4, sources_cut: 0 });
  });
});

describe('output fitting', () => {
  const manyRequest = {
    requests: ['many a', 'many b', 'many c', 'many d', 'many e'].map((query) => ({ query, count: 20 })),
  };

  it('fits the response under OPENMATES_MAX_RESPONSE_BYTES by cutting results from the end of the last group', async () => {
    const { engine } = braveEngine({ OPENMATES_MAX_RESPONSE_BYTES: String(MIN_MAX_RESPONSE_BYTES) });
    const { response } = await engine.search(manyRequest);
    const json = JSON.stringify(response);
    expect(Buffer.byteLength(json, 'utf8')).toBeLessThanOrEqual(MIN_MAX_RESPONSE_BYTES);
    const cut = response.budget?.results_fitted_out ?? 0;
    expect(cut).toBeGreaterThan(0);
    expect(response.results.map((g) => g.results.length)).toEqual([20, 20, 20, 20, 20 - cut]);
    expect(response.results[4]?.results_fitted_out).toBe(cut);
    expect(response.results[4]?.results.map((r) => r.url)).toEqual(
      expectedBraveResults('many e', 20 - cut).map((r) => r.url),
    );
    // The same search under the default ceiling is complete, and is deterministic.
    const { response: full } = await braveEngine().engine.search(manyRequest);
    expect(full.results.map((g) => g.results.length)).toEqual([20, 20, 20, 20, 20]);
    expect(full.budget?.results_fitted_out).toBe(0);
    expect(Buffer.byteLength(JSON.stringify(full), 'utf8')).toBeGreaterThan(MIN_MAX_RESPONSE_BYTES);
    const { response: again } = await engine.search(manyRequest);
    expect(again.results).toEqual(response.results);
    // search hands over the fitted response's JSON, the bytes a server sends.
    const serialized = await engine.search(manyRequest);
    expect(serialized.json).toBe(JSON.stringify(serialized.response));
    expect(serialized.response.results).toEqual(response.results);
  });

  it('refuses a ceiling below MIN_MAX_RESPONSE_BYTES, so a response without results always fits', () => {
    expect(() => loadConfig({ OPENMATES_MAX_RESPONSE_BYTES: String(MIN_MAX_RESPONSE_BYTES - 1) })).toThrow(
      /OPENMATES_MAX_RESPONSE_BYTES/,
    );
  });
});

describe('the provider rate in process (OPENMATES_PROVIDER_RATE_PER_S)', () => {
  it('refuses at once, without a call, a query whose turn comes too late; Retry-After when all were refused', async () => {
    const { engine } = braveEngine({ OPENMATES_PROVIDER_RATE_PER_S: '1', OPENMATES_PROVIDER_TIMEOUT_MS: '1000' });
    const first = await engine.search({ requests: [{ query: 'a' }, { query: 'b' }, { query: 'c' }] });
    const codes = first.response.results.map((g) => g.error?.code ?? 'ok').sort();
    expect(codes).toEqual(['ok', 'provider_rate_limited', 'provider_rate_limited']);
    expect(brave.requests).toHaveLength(1);
    expect(first.retryAfterS).toBeUndefined();
    const second = await engine.search({ requests: [{ query: 'd' }] });
    expect(second.response.code).toBe('provider_rate_limited');
    expect(second.retryAfterS).toBeGreaterThanOrEqual(1);
    expect(brave.requests).toHaveLength(1);
    await engine.close();
  });
});
