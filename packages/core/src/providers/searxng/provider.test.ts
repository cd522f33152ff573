import {
  expectedSearxngResults,
  lineCollector,
  rejectionOf,
  SEARXNG_CANARY_PASSWORD,
  SEARXNG_FIXTURE_USER,
  type SearxngFixture,
  searxngNewsResult,
  startSearxngFixture,
} from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configSecrets, loadConfig } from '../../config.ts';
import { createEngine } from '../../engine.ts';
import { createRedactor } from '../../hygiene/index.ts';
import { createLogger } from '../../logger.ts';
import { queryProvider } from '../../pipeline/query-provider.ts';
import { ProviderError, type ProviderQuery } from '../../provider.ts';
import { testContext, testQuery } from '../../testing/index.ts';
import { createConfiguredProvider } from '../registry.ts';
import { createSearxngProvider, SEARXNG_MAX_PAGES, SEARXNG_TEXT_FORMAT, searxngLanguage } from './provider.ts';

let fixture: SearxngFixture;

beforeAll(async () => {
  fixture = await startSearxngFixture();
});
afterAll(async () => {
  await fixture.close();
});
beforeEach(() => {
  fixture.reset();
});

const context = testContext;

const query = (text: string, extra: Partial<ProviderQuery> = {}) =>
  testQuery(text, { filter_tabloids: false, ...extra });

/** The provider as `SEARXNG_BASE_URL` configures it: credentials split off the URL. */
function provider() {
  const config = loadConfig({ OPENMATES_PROVIDER: 'searxng', SEARXNG_BASE_URL: fixture.baseUrl });
  return createConfiguredProvider(config);
}

const providerFailure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

const searchPages = () => fixture.requests.filter((r) => r.path.endsWith('/search'));

describe('SearXNG provider: pages and news', () => {
  it('asks result page 2 of count 10 as pageno=2, and says more after a page as full as its own', async () => {
    const answer = await queryProvider(provider(), query('rust', { count: 10, fetchCount: 10, page: 2 }), context());
    expect(searchPages().map((r) => r.query.pageno)).toEqual(['2']);
    expect(answer.candidates.map((c) => c.url)).toEqual(expectedSearxngResults('rust', 11, 20).map((r) => r.url));
    expect(answer.more).toBe(true);
  });

  it('says no more after a page less full than its own page size', async () => {
    // The fixture's pool ends with page 5; page 6 is empty.
    const answer = await queryProvider(provider(), query('rust', { count: 10, fetchCount: 10, page: 6 }), context());
    expect(answer).toEqual({ candidates: [], more: false });
  });

  it('sends categories=news for topic news, and its corrections stay suggestions', async () => {
    const answer = await queryProvider(provider(), query('rust', { topic: 'news', fetchCount: 10 }), context());
    expect(searchPages()[0]?.query.categories).toBe('news');
    expect(answer.candidates[0]).toMatchObject({ url: searxngNewsResult('rust', 1).url });
    const suggested = await queryProvider(provider(), query('suggest rust'), context());
    expect(suggested.altered).toBeUndefined();
  });
});

describe('SearXNG provider: requests', () => {
  it('keeps the base URL’s sub-path and sends q, format=json, language, safesearch and pageno', async () => {
    await queryProvider(
      provider(),
      query('rust traits', { search_lang: 'de', country: 'AT', safesearch: 'strict' }),
      context(),
    );
    expect(searchPages()).toHaveLength(1);
    const [request] = searchPages();
    expect(request?.path).toBe('/searxng/search');
    expect(request?.query).toEqual({
      q: 'rust traits',
      format: 'json',
      language: 'de-AT',
      safesearch: '2',
      pageno: '1',
    });
  });

  it('sends the credentials only as basic auth, never in the URL', async () => {
    await queryProvider(provider(), query('rust'), context());
    const [request] = searchPages();
    const expected = Buffer.from(`${SEARXNG_FIXTURE_USER}:${SEARXNG_CANARY_PASSWORD}`).toString('base64');
    expect(request?.headers.authorization).toBe(`Basic ${expected}`);
    expect(JSON.stringify(request?.query)).not.toContain(SEARXNG_CANARY_PASSWORD);
    expect(provider().recipient).toBe(new URL(fixture.plainBaseUrl).host);
  });

  it('maps language and country to SearXNG’s locale: xx-CC, xx or all', () => {
    expect(searxngLanguage({ search_lang: 'de', country: 'AT' })).toBe('de-AT');
    expect(searxngLanguage({ search_lang: 'de', country: 'US' })).toBe('de');
    expect(searxngLanguage({ search_lang: 'fr', country: 'ALL' })).toBe('fr');
    expect(searxngLanguage({ country: 'DE' })).toBe('all');
  });

  it('maps safesearch off/moderate/strict to 0/1/2', async () => {
    const p = provider();
    for (const safesearch of ['off', 'moderate', 'strict'] as const)
      await queryProvider(p, query('x', { safesearch }), context());
    expect(searchPages().map((r) => r.query.safesearch)).toEqual(['0', '1', '2']);
  });

  it('passes the limiter’s header checks and reads a gzip answer', async () => {
    const zipped = await startSearxngFixture({ limiter: true, compress: true });
    const config = loadConfig({ OPENMATES_PROVIDER: 'searxng', SEARXNG_BASE_URL: zipped.baseUrl });
    const searxng = createConfiguredProvider(config);
    try {
      const answer = await queryProvider(searxng, query('rust'), context());
      expect(answer.candidates.map((c) => c.url)).toEqual(expectedSearxngResults('rust', 1, 10).map((r) => r.url));
    } finally {
      await searxng.close?.();
      await zipped.close();
    }
  });

  it('declares its title and content plain text', () => {
    expect(SEARXNG_TEXT_FORMAT).toBe('text');
  });
});

describe('SearXNG provider: paging', () => {
  it('pages until count candidates pass admission, one provider call each, not twice count gathered', async () => {
    const answer = await queryProvider(provider(), query('rust', { count: 20, fetchCount: 40 }), context());
    expect(searchPages().map((r) => r.query.pageno)).toEqual(['1', '2']);
    expect(answer.candidates).toHaveLength(20);
  });

  it('makes one call when the first page already holds count usable results', async () => {
    const answer = await queryProvider(provider(), query('rust', { count: 10, fetchCount: 20 }), context());
    expect(searchPages().map((r) => r.query.pageno)).toEqual(['1']);
    expect(answer.candidates).toHaveLength(10);
  });

  it('pages at most 3 times while the scope leaves fewer than count', async () => {
    const scoped = query('sparse x', { count: 20, fetchCount: 40, include_domains: ['docs.example.org'] });
    const answer = await queryProvider(provider(), scoped, context());
    expect(searchPages().map((r) => r.query.pageno)).toEqual(['1', '2', '3']);
    expect(searchPages()).toHaveLength(SEARXNG_MAX_PAGES);
    expect(answer.candidates).toHaveLength(30);
  });

  it('deduplicates URLs repeated across pages and still meets the count', async () => {
    const answer = await queryProvider(provider(), query('repeat me', { count: 15, fetchCount: 15 }), context());
    const urls = answer.candidates.map((c) => c.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls).toEqual(expectedSearxngResults('repeat me', 1, 15).map((r) => r.url));
    expect(searchPages()).toHaveLength(2);
  });

  it('keeps the first page’s results when the second page fails', async () => {
    const answer = await queryProvider(provider(), query('failater x', { count: 20, fetchCount: 20 }), context());
    expect(searchPages()).toHaveLength(2);
    expect(answer.candidates.map((c) => c.url)).toEqual(expectedSearxngResults('failater x', 1, 10).map((r) => r.url));
  });

  it('stops at an empty later page and keeps what came before', async () => {
    const answer = await queryProvider(provider(), query('emptylater x', { count: 20, fetchCount: 20 }), context());
    expect(searchPages()).toHaveLength(2);
    expect(answer.candidates).toHaveLength(10);
  });

  it('stops paging when the call budget is spent', async () => {
    const answer = await queryProvider(provider(), query('rust', { fetchCount: 30 }), { ...context(), maxCalls: 1 });
    expect(searchPages()).toHaveLength(1);
    expect(answer.candidates).toHaveLength(10);
  });

  it('turns corrections and suggestions into follow-ups, corrections first', async () => {
    const answer = await queryProvider(provider(), query('suggest rust'), context());
    expect(answer.suggestions).toEqual(['rust', 'suggest rust tutorial', 'rust <b>book</b>', 'suggest rust tutorial']);
  });

  it('maps publishedDate to the result’s age (a date)', async () => {
    const answer = await queryProvider(provider(), query('dated x'), context());
    expect(answer.candidates[0]?.age).toBe('2026-01-15');
  });
});

describe('SearXNG provider: errors', () => {
  it('zero results with unresponsive engines is provider_unavailable, never an empty success', async () => {
    const error = await providerFailure(queryProvider(provider(), query('unresponsive x'), context()));
    expect(error.code).toBe('provider_unavailable');
    expect(error.message).toContain('2 of its engines');
    expect(error.message).not.toMatch(/timeout|Suspended|duckduckgo|brave/);
    expect(error.message).not.toContain(SEARXNG_CANARY_PASSWORD);
  });

  it('zero results with every engine answering is an empty success', async () => {
    const answer = await queryProvider(provider(), query('nothing here'), context());
    expect(answer.candidates).toEqual([]);
  });

  it('results alongside unresponsive engines are kept', async () => {
    const answer = await queryProvider(provider(), query('partial x', { fetchCount: 20 }), context());
    expect(answer.candidates).toHaveLength(10);
  });

  it('a 403 is provider_error naming search.formats', async () => {
    const error = await providerFailure(queryProvider(provider(), query('noformat x'), context()));
    expect(error.code).toBe('provider_error');
    expect(error.status).toBe(403);
    expect(error.message).toContain('search.formats');
  });

  it('an instance with JSON turned off answers 403 the same way', async () => {
    fixture.setFormats(['html']);
    const error = await providerFailure(queryProvider(provider(), query('rust'), context()));
    expect(error.message).toContain('search.formats');
  });

  it('a 429 is provider_rate_limited naming the limiter, not retried', async () => {
    const error = await providerFailure(queryProvider(provider(), query('limited x'), context()));
    expect(error.code).toBe('provider_rate_limited');
    expect(error.message).toContain('limiter');
    expect(searchPages()).toHaveLength(1);
  });

  it('a 401 from a proxy in front is provider_auth', async () => {
    const config = loadConfig({ OPENMATES_PROVIDER: 'searxng', SEARXNG_BASE_URL: fixture.plainBaseUrl });
    const error = await providerFailure(queryProvider(createConfiguredProvider(config), query('rust'), context()));
    expect(error.code).toBe('provider_auth');
  });

  it.each([
    ['html x', 'web page instead of JSON'],
    ['malformed x', 'malformed JSON'],
    ['error500 x', 'HTTP 500'],
    ['bang x', 'redirect'],
  ])('%s is provider_error with our own message', async (text, phrase) => {
    const error = await providerFailure(queryProvider(provider(), query(text), context()));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain(phrase);
    expect(error.message).not.toContain(SEARXNG_CANARY_PASSWORD);
  });

  it('an unreachable instance is provider_unavailable', async () => {
    const gone = await startSearxngFixture();
    const url = gone.baseUrl;
    await gone.close();
    const config = loadConfig({ OPENMATES_PROVIDER: 'searxng', SEARXNG_BASE_URL: url });
    const error = await providerFailure(queryProvider(createConfiguredProvider(config), query('rust'), context()));
    expect(error.code).toBe('provider_unavailable');
  });
});

describe('SearXNG through the engine', () => {
  function engine(env: Record<string, string> = {}) {
    const lines: string[] = [];
    const config = loadConfig({
      OPENMATES_PROVIDER: 'searxng',
      SEARXNG_BASE_URL: fixture.baseUrl,
      OPENMATES_CACHE_TTL_S: '0',
      ...env,
    });
    const logger = createLogger({
      level: 'info',
      redact: createRedactor(configSecrets(config)),
      destination: lineCollector(lines),
    });
    return { engine: createEngine({ config, provider: createConfiguredProvider(config), logger }), lines };
  }

  it('defaults to a 15 s timeout per call', () => {
    expect(loadConfig({ OPENMATES_PROVIDER: 'searxng' }).providerTimeoutMs).toBe(15_000);
  });

  it('counts every page as a call of the request’s budget', async () => {
    const { engine: e } = engine();
    const { response } = await e.search({ requests: [{ query: 'rust', count: 20 }] });
    expect(response.results[0]?.results).toHaveLength(20);
    // Two pages of ten hold the 20 asked for: paging stops there, short of its window of three.
    expect(response.budget?.calls_used).toBe(2);
  });

  it('a first page past the per-call timeout is provider_timeout', async () => {
    const { engine: e } = engine({ OPENMATES_PROVIDER_TIMEOUT_MS: '50' });
    const { response } = await e.search({ requests: [{ query: 'slow x' }] });
    expect(response.results[0]?.error?.code).toBe('provider_timeout');
  });

  it('a later page past its own timeout ends paging and keeps the earlier pages', async () => {
    // The fixture holds page 2 until the client leaves; page 1 answers at once.
    const { engine: e } = engine({ OPENMATES_PROVIDER_TIMEOUT_MS: '1000' });
    const { response } = await e.search({ requests: [{ query: 'slowlater x', count: 20 }] });
    expect(response.results[0]?.error).toBeUndefined();
    expect(response.results[0]?.results.map((r) => r.url)).toEqual(
      expectedSearxngResults('slowlater x', 1, 10).map((r) => r.url),
    );
    expect(response.budget?.calls_used).toBe(2);
  });

  it('never lets the credentials out: results, suggestions, errors and logs', async () => {
    const { engine: e, lines } = engine();
    const { response } = await e.search({
      requests: [{ query: 'leak x' }, { query: 'unresponsive x' }, { query: 'error500 x' }],
    });
    const authorization = Buffer.from(`${SEARXNG_FIXTURE_USER}:${SEARXNG_CANARY_PASSWORD}`).toString('base64');
    const everything = JSON.stringify(response) + lines.join('\n');
    expect(everything).not.toContain(SEARXNG_CANARY_PASSWORD);
    expect(everything).not.toContain(encodeURIComponent(SEARXNG_CANARY_PASSWORD));
    expect(everything).not.toContain(authorization);
    expect(response.results[0]?.results.map((r) => r.url)).toContain('https://example.net/leak/4');
    expect(response.results[1]?.error?.code).toBe('provider_unavailable');
    expect(e.skillInfo('0').provider.recipient).not.toContain(SEARXNG_CANARY_PASSWORD);
  });

  it('skill info says country is honoured only through the language locale', () => {
    const info = engine().engine.skillInfo('0');
    expect(info.provider.id).toBe('searxng');
    expect(info.options.honoured).not.toContain('country');
    expect(info.options.conditional?.[0]?.option).toBe('country');
  });
});

describe('SearXNG provider: doctor', () => {
  it('reports reachable, engines listed and JSON enabled without running a search', async () => {
    const checks = await provider().doctor?.(context().signal);
    expect(checks?.every((c) => c.ok)).toBe(true);
    expect(checks?.map((c) => c.name)).toEqual(['SearXNG instance', 'SearXNG engines', 'SearXNG JSON output']);
    expect(fixture.requests.every((r) => r.query.q === undefined)).toBe(true);
  });

  it('says to add json to search.formats when JSON is off', async () => {
    fixture.setFormats(['html']);
    const checks = (await provider().doctor?.(context().signal)) ?? [];
    const json = checks.find((c) => c.name === 'SearXNG JSON output');
    expect(json?.ok).toBe(false);
    expect(json?.fix).toContain('search.formats');
  });

  it('says to enable engines when none is enabled', async () => {
    fixture.setEngines([{ name: 'google', enabled: false, categories: ['general'] }]);
    const checks = (await provider().doctor?.(context().signal)) ?? [];
    expect(checks.find((c) => c.name === 'SearXNG engines')?.ok).toBe(false);
  });

  it('reports wrong credentials and an unreachable instance', async () => {
    const noAuth = createSearxngProvider({ baseUrl: fixture.plainBaseUrl });
    const [check] = (await noAuth.doctor?.(context().signal)) ?? [];
    expect(check?.ok).toBe(false);
    expect(check?.fix).toContain('SEARXNG_BASE_URL');
    const wrongPath = createSearxngProvider({
      baseUrl: `${new URL(fixture.plainBaseUrl).origin}/elsewhere`,
      username: SEARXNG_FIXTURE_USER,
      password: SEARXNG_CANARY_PASSWORD,
    });
    const [pathCheck] = (await wrongPath.doctor?.(context().signal)) ?? [];
    expect(pathCheck?.ok).toBe(false);
    expect(pathCheck?.fix).toContain('sub-path');
  });
});
