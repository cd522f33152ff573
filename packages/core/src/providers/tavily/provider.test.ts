import {
  lineCollector,
  rejectionOf,
  startTavilyFixture,
  TAVILY_CANARY_API_KEY,
  type TavilyFixture,
  tavilyOrdinaryResults,
} from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { optionLists, providerIssues } from '../../capabilities.ts';
import { configSecrets, loadConfig } from '../../config.ts';
import { createEngine } from '../../engine.ts';
import { createRedactor } from '../../hygiene/index.ts';
import { createLogger } from '../../logger.ts';
import { queryProvider } from '../../pipeline/query-provider.ts';
import { ProviderError, type ProviderQuery } from '../../provider.ts';
import { testContext, testQuery } from '../../testing/index.ts';
import { createConfiguredProvider } from '../registry.ts';
import { TAVILY_PROBE_QUERY, tavilyDryRun } from './doctor.ts';
import { tavilyModule } from './settings.ts';

let fixture: TavilyFixture;

beforeAll(async () => {
  fixture = await startTavilyFixture();
});
afterAll(async () => {
  await fixture.close();
});
beforeEach(() => {
  fixture.reset();
});

const query = (text: string, extra: Partial<ProviderQuery> = {}) =>
  testQuery(text, { filter_tabloids: false, ...extra });

function provider(env: Record<string, string> = {}) {
  const config = loadConfig({
    OPENMATES_PROVIDER: 'tavily',
    TAVILY_API_KEY: TAVILY_CANARY_API_KEY,
    TAVILY_BASE_URL: fixture.baseUrl,
    ...env,
  });
  return createConfiguredProvider(config);
}

const sent = () => fixture.requests[0]?.body;
const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

describe('Tavily provider: requests', () => {
  it('posts /search with the key as a bearer token, a basic search and count as max_results', async () => {
    const answer = await queryProvider(provider(), query('rust traits', { count: 7, fetchCount: 7 }), testContext());
    expect(fixture.requests).toHaveLength(1);
    const [request] = fixture.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/search');
    expect(request?.headers.authorization).toBe(`Bearer ${TAVILY_CANARY_API_KEY}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(sent()).toEqual({
      query: 'rust traits',
      search_depth: 'basic',
      topic: 'general',
      max_results: 7,
      include_answer: false,
      include_raw_content: false,
      include_images: false,
      country: 'united states',
    });
    expect(answer.candidates.map((c) => c.url)).toEqual(tavilyOrdinaryResults('rust traits', 7).map((r) => r.url));
    expect(answer.more).toBe(false);
  });

  it('keeps a base URL path and asks at most 20', async () => {
    await queryProvider(provider(), query('x', { count: 20, fetchCount: 40 }), testContext());
    expect(sent()?.max_results).toBe(20);
  });

  it('sends a period as time_range and a range as start_date and end_date', async () => {
    await queryProvider(provider(), query('x', { freshness: 'week' }), testContext());
    await queryProvider(provider(), query('x', { freshness: '2025-01-01..2025-03-31' }), testContext());
    await queryProvider(provider(), query('x', { freshness: '2025-01-01..' }), testContext());
    const bodies = fixture.requests.map((r) => r.body);
    expect(bodies[0]).toMatchObject({ time_range: 'week' });
    expect(bodies[0]).not.toHaveProperty('start_date');
    expect(bodies[1]).toMatchObject({ start_date: '2025-01-01', end_date: '2025-03-31' });
    expect(bodies[1]).not.toHaveProperty('time_range');
    expect(bodies[2]).toMatchObject({ start_date: '2025-01-01' });
    expect(bodies[2]).not.toHaveProperty('end_date');
  });

  it('sends both domain lists, the country by name, and no country for ALL or news', async () => {
    await queryProvider(
      provider(),
      query('x', { include_domains: ['docs.rs'], exclude_domains: ['spam.example'], country: 'KR' }),
      testContext(),
    );
    await queryProvider(provider(), query('x', { country: 'ALL' }), testContext());
    await queryProvider(provider(), query('x', { topic: 'news' }), testContext());
    const bodies = fixture.requests.map((r) => r.body);
    expect(bodies[0]).toMatchObject({
      include_domains: ['docs.rs'],
      exclude_domains: ['spam.example'],
      country: 'south korea',
    });
    expect(bodies[1]).not.toHaveProperty('country');
    expect(bodies[2]).toMatchObject({ topic: 'news' });
    expect(bodies[2]).not.toHaveProperty('country');
  });

  it('reads news dates as ISO publication dates', async () => {
    const answer = await queryProvider(provider(), query('x', { topic: 'news' }), testContext());
    expect(answer.candidates[0]?.published).toBe('2026-11-30T12:00:00.000Z');
  });
});

describe('Tavily provider: refusals', () => {
  const tavily = () => provider();
  it.each([
    ['page', { page: 2 }],
    ['search_lang', { search_lang: 'de' }],
    ['safesearch', { safesearch: 'strict' }],
    ['extra_snippets', { extra_snippets: true }],
    ['country', { topic: 'news', country: 'DE' }],
  ] as const)('refuses %s before any call, naming Tavily', (field, extra) => {
    const issues = providerIssues(tavily(), { ...query('x'), ...extra }, 1);
    expect(issues.map((i) => i.path)).toEqual([`requests[1].${field}`]);
    expect(issues[0]?.message).toMatch(/Tavily/);
    expect(fixture.requests).toHaveLength(0);
  });

  it('accepts safesearch off and moderate, and news with the default country or ALL', () => {
    for (const extra of [
      { safesearch: 'off' },
      {},
      { topic: 'news', country: 'US' },
      { topic: 'news', country: 'ALL' },
    ] as const)
      expect(providerIssues(tavily(), { ...query('x'), ...extra }, 0)).toEqual([]);
  });

  it('lists its capabilities for skill info', () => {
    const options = optionLists(tavily());
    expect(options.honoured).toEqual(
      expect.arrayContaining(['count', 'topic', 'freshness', 'include_domains', 'exclude_domains']),
    );
    expect(options.unsupported.map((u) => u.option).sort()).toEqual(
      ['extra_snippets', 'page', 'safesearch', 'search_lang'].sort(),
    );
    expect(options.conditional?.map((c) => c.option)).toEqual(['country']);
  });
});

describe('Tavily provider: errors', () => {
  it.each([
    ['unauthorized x', 'provider_auth'],
    ['limited x', 'provider_rate_limited'],
    ['credits x', 'provider_rate_limited'],
    ['unavailable x', 'provider_unavailable'],
    ['error500 x', 'provider_error'],
    ['malformed x', 'provider_error'],
  ])('%s is %s', async (text, code) => {
    const error = await failure(queryProvider(provider(), query(text), testContext()));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(/Tavily/);
    expect(error.message).not.toContain(TAVILY_CANARY_API_KEY);
  });

  it('a wrong key is provider_auth', async () => {
    const error = await failure(queryProvider(provider({ TAVILY_API_KEY: 'wrong-key' }), query('x'), testContext()));
    expect(error.code).toBe('provider_auth');
  });

  it('retries a 429 once after the wait it names', async () => {
    const answer = await queryProvider(provider(), query('ratelimit-once x'), testContext());
    expect(fixture.requests).toHaveLength(2);
    expect(answer.candidates.length).toBeGreaterThan(0);
  });

  it('nothing found is an empty answer', async () => {
    expect(await queryProvider(provider(), query('nothing x'), testContext())).toEqual({ candidates: [], more: false });
  });

  it('needs its key', () => {
    expect(() => createConfiguredProvider(loadConfig({ OPENMATES_PROVIDER: 'tavily' }))).toThrow(/TAVILY_API_KEY/);
  });
});

describe('Tavily through the engine', () => {
  function engine() {
    const lines: string[] = [];
    const config = loadConfig({
      OPENMATES_PROVIDER: 'tavily',
      TAVILY_API_KEY: TAVILY_CANARY_API_KEY,
      TAVILY_BASE_URL: fixture.baseUrl,
      OPENMATES_CACHE_TTL_S: '0',
    });
    const logger = createLogger({
      level: 'info',
      redact: createRedactor(configSecrets(config)),
      destination: lineCollector(lines),
    });
    return { engine: createEngine({ config, provider: createConfiguredProvider(config), logger }), lines };
  }

  it('answers plain text, hostile markup kept as text and cleaned', async () => {
    const { response } = await engine().engine.search({ requests: [{ query: 'hostile x' }] });
    const [group] = response.results;
    expect(group?.error).toBeUndefined();
    expect(group?.results.length).toBeGreaterThan(0);
    expect(group?.results.map((r) => r.url)).not.toContain('javascript:alert(1)');
    const invisible = ['\u200b', '\u202e', String.fromCharCode(7)];
    for (const result of group?.results ?? []) for (const c of invisible) expect(result.title).not.toContain(c);
  });

  it('never lets the key out: results, errors and logs', async () => {
    const { engine: e, lines } = engine();
    const { response } = await e.search({ requests: [{ query: 'leak x' }, { query: 'error500 x' }] });
    const everything = JSON.stringify(response) + lines.join('\n');
    expect(everything).not.toContain(TAVILY_CANARY_API_KEY);
    expect(everything).not.toContain(encodeURIComponent(TAVILY_CANARY_API_KEY));
    expect(response.results[1]?.error?.code).toBe('provider_error');
    expect(e.skillInfo('0').provider.id).toBe('tavily');
  });
});

describe('Tavily doctor', () => {
  const settings = () =>
    loadConfig({
      OPENMATES_PROVIDER: 'tavily',
      TAVILY_API_KEY: TAVILY_CANARY_API_KEY,
      TAVILY_BASE_URL: fixture.baseUrl,
    }).settings.tavily;

  it('--dry-run prints the exact request with the key redacted, sending nothing', () => {
    const dryRun = tavilyDryRun(fixture.baseUrl, 'rust vec');
    expect(dryRun).toEqual({
      provider: 'tavily',
      recipient: new URL(fixture.baseUrl).host,
      method: 'POST',
      url: `${fixture.baseUrl}/search`,
      headers: { Accept: 'application/json', Authorization: 'Bearer [redacted]' },
      body: {
        query: 'rust vec',
        search_depth: 'basic',
        topic: 'general',
        max_results: 10,
        include_answer: false,
        include_raw_content: false,
        include_images: false,
        country: 'united states',
      },
    });
    expect(JSON.stringify(dryRun)).not.toContain(TAVILY_CANARY_API_KEY);
    expect(fixture.requests).toHaveLength(0);
  });

  it('--live sends one basic search of fixed text for one result', async () => {
    const checks = await tavilyModule.liveProbe?.(settings(), testContext().signal);
    expect(checks?.every((c) => c.ok)).toBe(true);
    expect(fixture.requests.map((r) => r.body)).toEqual([
      expect.objectContaining({ query: TAVILY_PROBE_QUERY, max_results: 1, search_depth: 'basic' }),
    ]);
  });

  it('--live names a refused key with its fix, never the key', async () => {
    const checks = await tavilyModule.liveProbe?.({ ...settings(), apiKey: 'wrong-key' }, testContext().signal);
    expect(checks?.[0]?.ok).toBe(false);
    expect(checks?.[0]?.fix).toContain('TAVILY_API_KEY');
    expect(JSON.stringify(checks)).not.toContain('wrong-key');
  });

  it('checks the configuration without a call', () => {
    const checks = tavilyModule.configurationChecks(settings(), {
      TAVILY_API_KEY: TAVILY_CANARY_API_KEY,
      TAVILY_BASE_URL: fixture.baseUrl,
    });
    expect(checks.map((c) => [c.name, c.ok])).toEqual([
      ['TAVILY_API_KEY', true],
      ['TAVILY_BASE_URL', true],
    ]);
    expect(JSON.stringify(checks)).not.toContain(TAVILY_CANARY_API_KEY);
  });
});
