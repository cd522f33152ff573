import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NormalizedRequestItem, ResultGroup } from '@openmates/contract';
import {
  type BraveFixture,
  lineCollector,
  type OpenAIFixture,
  rejectionOf,
  type SearxngFixture,
  startBraveFixture,
  startOpenAIFixture,
  startSearxngFixture,
} from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createEngine, type Engine } from './engine.ts';
import { EngineError } from './engine-error.ts';
import { createLogger } from './logger.ts';
import { openIndex } from './providers/local/local-index.ts';
import { createConfiguredProvider } from './providers/registry.ts';
import { publishedAt, scopeMiss, scopeOf } from './scope-filter.ts';

/** The wall time every engine here runs at: 2026-03-20, 10:00 UTC. */
const WALL = Date.parse('2026-03-20T10:00:00Z');

let brave: BraveFixture;
let searxng: SearxngFixture;
let openai: OpenAIFixture;
beforeAll(async () => {
  [brave, searxng, openai] = await Promise.all([startBraveFixture(), startSearxngFixture(), startOpenAIFixture()]);
});
afterAll(async () => {
  await Promise.all([brave.close(), searxng.close(), openai.close()]);
});
beforeEach(() => {
  brave.reset();
  searxng.reset();
  openai.reset();
});

function engineFor(env: Record<string, string>): { engine: Engine; logs: string[] } {
  const config = loadConfig({ OPENMATES_CACHE_TTL_S: '0', ...env });
  const logs: string[] = [];
  const engine = createEngine({
    config,
    provider: createConfiguredProvider(config),
    logger: createLogger({ level: 'debug', redact: (s) => s, destination: lineCollector(logs) }),
    sleep: async () => {},
    wallClock: () => WALL,
  });
  return { engine, logs };
}

const braveEngine = () =>
  engineFor({ OPENMATES_PROVIDER: 'brave', BRAVE_SEARCH_API_KEY: brave.apiKey, BRAVE_SEARCH_BASE_URL: brave.baseUrl });
const searxngEngine = () => engineFor({ OPENMATES_PROVIDER: 'searxng', SEARXNG_BASE_URL: searxng.baseUrl });
const openaiEngine = () =>
  engineFor({ OPENMATES_PROVIDER: 'openai', OPENAI_API_KEY: openai.apiKey, OPENAI_BASE_URL: openai.baseUrl });

const refused = (promise: Promise<unknown>) => rejectionOf(promise, EngineError);

const hostsOf = (group: ResultGroup | undefined) => [...new Set(group?.results.map((r) => new URL(r.url).hostname))];
/** The scope scenario's result number, from its URL's last segment. */
const numberOf = (url: string) => Number(url.split('/').at(-1));

describe('publishedAt and scopeMiss', () => {
  it('reads dates and date-times as UTC, refusing anything else', () => {
    expect(publishedAt('2025-01-05')).toBe(Date.parse('2025-01-05T00:00:00Z'));
    expect(publishedAt('2025-01-05T12:00:00')).toBe(Date.parse('2025-01-05T12:00:00Z'));
    expect(publishedAt('2025-01-05T12:00:00+02:00')).toBe(Date.parse('2025-01-05T10:00:00Z'));
    expect([publishedAt('January 5, 2025'), publishedAt(1736078400000), publishedAt('2025-13-40')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('matches a domain and its subdomains only, and keeps an undated result only when the provider filtered', () => {
    const scope = { include: ['docs.example.org'], keepUndated: true };
    expect(
      ['docs.example.org', 'a.docs.example.org', 'notdocs.example.org'].map((h) => scopeMiss(scope, h, undefined)),
    ).toEqual([undefined, undefined, 'domain']);
    const window = { start: Date.parse('2025-01-01T00:00:00Z'), end: Date.parse('2025-01-02T00:00:00Z') };
    expect(scopeMiss({ window, keepUndated: true }, 'x.example', undefined)).toBeUndefined();
    expect(scopeMiss({ window, keepUndated: false }, 'x.example', undefined)).toBe('date');
    expect(scopeMiss({ window, keepUndated: true }, 'x.example', '2025-01-02')).toBe('date');
    expect(scopeMiss({ window, keepUndated: true }, 'x.example', '2025-01-01T23:59:59Z')).toBeUndefined();
  });
});

describe('freshness: a date up to 24 hours ahead of the server clock counts as now', () => {
  // Late in the UTC day, so three hours ahead is already tomorrow's date.
  const now = Date.parse('2026-03-20T22:00:00Z');
  const hours = (n: number) => new Date(now + n * 3_600_000).toISOString();
  const kept = (freshness: string, published: string) => {
    const item = {
      id: 1,
      query: 'q',
      count: 10,
      country: 'US',
      safesearch: 'moderate',
      filter_tabloids: true,
      freshness,
    };
    const scope = scopeOf(item as NormalizedRequestItem, now, false);
    return scope !== undefined && scopeMiss(scope, 'example.org', published) === undefined;
  };

  it('keeps now + 3 h and now − 1 h under day, and excludes now + 25 h', () => {
    expect(kept('day', hours(3))).toBe(true);
    expect(kept('day', hours(-1))).toBe(true);
    expect(kept('day', hours(24))).toBe(true);
    expect(kept('day', hours(25))).toBe(false);
    expect(kept('day', hours(-25))).toBe(false);
  });

  it('keeps now + 3 h under every period', () => {
    for (const period of ['week', 'month', 'year']) expect(kept(period, hours(3))).toBe(true);
  });

  it('keeps now + 3 h under a range left open at its end and under one ending today', () => {
    expect(kept('2026-01-01..', hours(3))).toBe(true);
    expect(kept('2026-03-01..2026-03-20', hours(3))).toBe(true);
    expect(kept('2026-01-01..', hours(25))).toBe(false);
  });

  it('excludes it under a range that ended before today', () => {
    expect(kept('2026-03-01..2026-03-19', hours(3))).toBe(false);
    expect(kept('2026-03-01..2026-03-19', '2026-03-19T23:59:59Z')).toBe(true);
  });
});

describe('Brave: freshness and domains', () => {
  it('sends freshness=pw for week, and a date range with its open end as today (UTC)', async () => {
    const { engine } = braveEngine();
    await engine.search({
      requests: [
        { query: 'rust week', freshness: 'Week' },
        { query: 'rust range', freshness: '2025-01-01..' },
        { query: 'rust closed', freshness: '..2025-06-30' },
      ],
    });
    const sent = Object.fromEntries(brave.requests.map((r) => [r.query.q, r.query.freshness]));
    expect(sent).toEqual({
      'rust week': 'pw',
      'rust range': '2025-01-01to2026-03-20',
      'rust closed': '1970-01-01to2025-06-30',
    });
  });

  it('sends the domains as site: operators in q, several joined with OR, each exclusion as -site:', async () => {
    const { engine } = braveEngine();
    await engine.search({
      requests: [
        { query: 'one', include_domains: ['Docs.Example.ORG'] },
        {
          query: 'several',
          include_domains: ['b.example', 'a.example'],
          exclude_domains: ['x.a.example', 'y.example'],
        },
        { query: 'idn', include_domains: ['bücher.example'] },
      ],
    });
    // Every page of a query carries the same q (Brave's ordinary results are outside these domains, so it pages).
    expect([...new Set(brave.requests.map((r) => r.query.q))].sort()).toEqual([
      'idn site:xn--bcher-kva.example',
      'one site:docs.example.org',
      'several (site:a.example OR site:b.example) -site:x.a.example -site:y.example',
    ]);
  });

  it("counts the operators against Brave's 50 words and 400 characters, naming the domain field, before any call", async () => {
    const { engine } = braveEngine();
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    // 45 words and "(site:a.example OR site:b.example OR site:c.example)": 50 words, accepted.
    const three = ['a.example', 'b.example', 'c.example'];
    const { response: accepted } = await engine.search({
      requests: [{ query: words(45), include_domains: three, count: 1 }],
    });
    expect(accepted.results).toHaveLength(1);
    const error = await refused(
      engine.search({
        requests: [
          { query: words(45), include_domains: [...three, 'd.example'] },
          { query: words(48), exclude_domains: ['x.example', 'y.example', 'z.example'] },
          { query: 'long', include_domains: Array.from({ length: 10 }, (_, i) => `${'l'.repeat(40)}${i}.example`) },
          { query: words(48), include_domains: ['a.example'], exclude_domains: ['x.example', 'y.example'] },
        ],
      }),
    );
    expect(error.status).toBe(400);
    expect(error.issues?.map((i) => i.path)).toEqual([
      'requests[0].include_domains',
      'requests[1].exclude_domains',
      'requests[2].include_domains',
      'requests[3].exclude_domains',
    ]);
    for (const issue of error.issues ?? []) expect(issue.message).toMatch(/Brave Search/);
    brave.reset();
    await refused(engine.search({ requests: [{ query: words(45), include_domains: [...three, 'd.example'] }] }));
    expect(brave.requests).toHaveLength(0);
  });

  it('filters a provider that leaks: only the included domain and its subdomains, whatever Brave returned', async () => {
    const { engine, logs } = braveEngine();
    const { response } = await engine.search({
      requests: [
        { query: 'scope include', include_domains: ['Docs.Example.ORG'], count: 10 },
        { query: 'scope exclude', exclude_domains: ['docs.example.org'], count: 20 },
        { query: 'scope idn', include_domains: ['bücher.example'], count: 3 },
      ],
    });
    const [included, excluded, idn] = response.results;
    expect(included?.results).toHaveLength(10);
    expect(hostsOf(included).sort()).toEqual(['a.docs.example.org', 'docs.example.org']);
    expect(hostsOf(excluded).sort()).toEqual([
      'docs.example.org.example.net',
      'example.org',
      'notdocs.example.org',
      'www.example.com',
      'xn--bcher-kva.example',
    ]);
    expect(hostsOf(idn)).toEqual(['xn--bcher-kva.example']);
    // The log counts what was removed and never names a domain.
    const calls = logs.map((line) => JSON.parse(line)).filter((line) => line.event === 'provider_call');
    expect(calls.map((line) => line.removed_out_of_scope).every((n: number) => n > 0)).toBe(true);
    expect(logs.join('\n')).not.toMatch(/docs\.example\.org|bcher/);
  });

  it('asks for the next page (offset) when the first leaves fewer than count in scope', async () => {
    const { engine } = braveEngine();
    // a.docs.example.org is 3 of every 20 results of the scope scenario.
    const { response } = await engine.search({
      requests: [{ query: 'scope paging', include_domains: ['a.docs.example.org'], count: 5, filter_tabloids: false }],
    });
    expect(brave.requests.map((r) => [r.query.offset ?? '0', r.query.count])).toEqual([
      ['0', '20'],
      ['1', '20'],
    ]);
    expect(response.results[0]?.results).toHaveLength(5);
    expect(hostsOf(response.results[0])).toEqual(['a.docs.example.org']);
    expect(response.budget?.calls_used).toBe(2);
  });

  it('answers with fewer results and no error when the provider runs out', async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({
      requests: [{ query: 'scope out', include_domains: ['a.docs.example.org'], count: 10, filter_tabloids: false }],
    });
    const group = response.results[0];
    expect(group?.error).toBeUndefined();
    expect(response.error).toBeUndefined();
    // Two pages of 20 in all, three of each in scope.
    expect(group?.results).toHaveLength(6);
    expect(brave.requests).toHaveLength(2);
  });

  it('removes a result whose page_age is outside the range, and keeps an undated one (Brave filtered)', async () => {
    const { engine } = braveEngine();
    const { response } = await engine.search({
      requests: [{ query: 'scope dates', freshness: '2025-01-01..2025-01-05', count: 20, filter_tabloids: false }],
    });
    expect(brave.requests[0]?.query.freshness).toBe('2025-01-01to2025-01-05');
    const numbers = response.results[0]?.results.map((r) => numberOf(r.url)) ?? [];
    // Result n is dated 2025-01-(1 + (n − 1) mod 20); every tenth is undated.
    expect(numbers.length).toBeGreaterThan(0);
    for (const n of numbers) expect(((n - 1) % 20) + 1 <= 5 || n % 10 === 0).toBe(true);
    expect(numbers).toContain(10);
    expect(numbers).not.toContain(6);
  });
});

describe('skill info', () => {
  it('lists, per provider, how it applies each scope field', async () => {
    const options = (engine: Engine) => {
      const info = engine.skillInfo('0.0.0').options;
      const where = (option: string) =>
        ['honoured', 'conditional', 'unsupported'].filter((list) =>
          list === 'honoured'
            ? info.honoured.includes(option as never)
            : (info[list as 'conditional' | 'unsupported'] ?? []).some((entry) => entry.option === option),
        );
      return Object.fromEntries(['freshness', 'include_domains', 'exclude_domains'].map((o) => [o, where(o)]));
    };
    const dir = mkdtempSync(join(tmpdir(), 'openmates-scope-'));
    const local = engineFor({ OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: join(dir, 'index.db') }).engine;
    try {
      expect(options(braveEngine().engine)).toEqual({
        freshness: ['honoured'],
        include_domains: ['honoured'],
        exclude_domains: ['honoured'],
      });
      expect(options(searxngEngine().engine)).toEqual({
        freshness: ['conditional'],
        include_domains: ['honoured'],
        exclude_domains: ['honoured'],
      });
      expect(options(openaiEngine().engine)).toEqual({
        freshness: ['unsupported'],
        include_domains: ['honoured'],
        exclude_domains: ['conditional'],
      });
      expect(options(local)).toEqual({
        freshness: ['honoured'],
        include_domains: ['honoured'],
        exclude_domains: ['honoured'],
      });
    } finally {
      await local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the cache', () => {
  it('never answers one scope with another’s entry', async () => {
    const { engine } = engineFor({
      OPENMATES_PROVIDER: 'brave',
      BRAVE_SEARCH_API_KEY: brave.apiKey,
      BRAVE_SEARCH_BASE_URL: brave.baseUrl,
      OPENMATES_CACHE_TTL_S: '60',
    });
    const ask = (scope: Record<string, unknown>) =>
      engine.search({ requests: [{ query: 'scope cached', count: 3, ...scope }] });
    await ask({ include_domains: ['docs.example.org'] });
    await ask({ include_domains: ['a.docs.example.org'] });
    await ask({ exclude_domains: ['docs.example.org'] });
    await ask({ freshness: 'week' });
    const before = brave.requests.length;
    const { response: again } = await ask({ include_domains: ['Docs.Example.org'] });
    expect(brave.requests.length).toBe(before);
    expect(hostsOf(again.results[0]).sort()).toEqual(['a.docs.example.org', 'docs.example.org']);
    expect(new Set(brave.requests.map((r) => `${r.query.q} ${r.query.freshness ?? ''}`)).size).toBe(4);
  });
});

describe('SearXNG: freshness and domains', () => {
  it('sends time_range=week and the domains as site: operators in q', async () => {
    const { engine } = searxngEngine();
    await engine.search({
      requests: [
        {
          query: 'css grid',
          freshness: 'week',
          include_domains: ['developer.mozilla.org'],
          exclude_domains: ['x.developer.mozilla.org'],
        },
      ],
    });
    const search = searxng.requests.filter((r) => r.path.endsWith('/search'));
    expect(search[0]?.query.time_range).toBe('week');
    expect(search[0]?.query.q).toBe('css grid site:developer.mozilla.org -site:x.developer.mozilla.org');
  });

  it('pages (pageno) while too few results are in scope, within the budget, and answers fewer without an error', async () => {
    const { engine } = searxngEngine();
    // The fixture's ordinary results are all on example.net: none is in this scope.
    const { response } = await engine.search({
      requests: [{ query: 'css grid', include_domains: ['elsewhere.example'] }],
    });
    const pages = searxng.requests.filter((r) => r.path.endsWith('/search')).map((r) => r.query.pageno);
    expect(pages).toEqual(['1', '2', '3']);
    // The third page was full: SearXNG may hold more past it.
    // Three pages are three calls, each billed one call of a provider that costs nothing.
    expect(response.results[0]).toEqual({
      id: 1,
      results: [],
      more: true,
      usage: { source: 'provider', calls: 3, billed: 3, cost_usd: 0 },
    });
    expect(response.budget?.calls_used).toBe(3);
  });

  it('refuses a date range, naming freshness and SearXNG, before any call', async () => {
    const { engine } = searxngEngine();
    const error = await refused(
      engine.search({ requests: [{ query: 'a' }, { query: 'b', freshness: '2025-01-01..' }] }),
    );
    expect(error.issues).toEqual([
      { path: 'requests[1].freshness', message: expect.stringMatching(/freshness.*SearXNG/) },
    ]);
    expect(searxng.requests).toHaveLength(0);
  });

  it('removes a result whose publishedDate is outside the range', async () => {
    const { engine } = searxngEngine();
    // The dated scenario dates its results on the 15th of 2026's months; the month before 2026-03-20 holds 2026-03-15 only.
    const { response } = await engine.search({ requests: [{ query: 'dated things', freshness: 'month', count: 10 }] });
    const ages = response.results[0]?.results.map((r) => r.age) ?? [];
    expect(ages.length).toBeGreaterThan(0);
    expect(new Set(ages)).toEqual(new Set(['2026-03-15']));
  });
});

describe('OpenAI hosted search: freshness and domains', () => {
  it('sends include_domains as the tool’s filters.allowed_domains', async () => {
    const { engine } = openaiEngine();
    await engine.search({ requests: [{ query: 'css grid', include_domains: ['developer.mozilla.org', 'Web.Dev'] }] });
    const body = openai.requests[0]?.body as { tools: { filters?: unknown }[] };
    expect(body.tools[0]?.filters).toEqual({ allowed_domains: ['developer.mozilla.org', 'web.dev'] });
  });

  it('refuses freshness, naming it and OpenAI, before any call; accepts exclude_domains', async () => {
    const { engine } = openaiEngine();
    const error = await refused(engine.search({ requests: [{ query: 'a', freshness: 'day' }] }));
    expect(error.issues).toEqual([
      { path: 'requests[0].freshness', message: expect.stringMatching(/freshness.*OpenAI/) },
    ]);
    expect(openai.requests).toHaveLength(0);
    const { response } = await engine.search({ requests: [{ query: 'css grid', exclude_domains: ['example.org'] }] });
    expect(response.results[0]?.error).toBeUndefined();
    for (const result of response.results[0]?.results ?? [])
      expect(new URL(result.url).hostname.endsWith('example.org')).toBe(false);
  });
});

describe('the local index: host and published', () => {
  it('returns only documents of the included hosts and, with freshness, only those published inside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openmates-scope-'));
    try {
      const path = join(dir, 'index.db');
      const index = openIndex(path);
      index.addDocuments([
        { url: 'https://docs.example.org/a', title: 'Otter a', body: 'x', published: '2026-03-18' },
        { url: 'https://a.docs.example.org/b', title: 'Otter b', body: 'x', published: '2026-01-01' },
        { url: 'https://notdocs.example.org/c', title: 'Otter c', body: 'x', published: '2026-03-19' },
        { url: 'https://docs.example.org/d', title: 'Otter d', body: 'x' },
      ]);
      index.close();
      const { engine } = engineFor({ OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: path });
      try {
        const { response } = await engine.search({
          requests: [
            { query: 'otter', include_domains: ['docs.example.org'] },
            { query: 'otter', include_domains: ['docs.example.org'], freshness: 'week' },
          ],
        });
        const urls = response.results.map((group) => group.results.map((r) => r.url).sort());
        expect(urls).toEqual([
          ['https://a.docs.example.org/b', 'https://docs.example.org/a', 'https://docs.example.org/d'],
          ['https://docs.example.org/a'],
        ]);
      } finally {
        await engine.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
