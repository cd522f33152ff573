import { EXA_CANARY_API_KEY, type ExaFixture, lineCollector, rejectionOf, startExaFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { optionLists, providerIssues } from '../../capabilities.ts';
import { configSecrets, loadConfig } from '../../config.ts';
import { createEngine } from '../../engine.ts';
import { createRedactor } from '../../hygiene/index.ts';
import { createLogger } from '../../logger.ts';
import { queryProvider } from '../../pipeline/query-provider.ts';
import { ProviderError, ProviderNotConfiguredError, type ProviderQuery } from '../../provider.ts';
import { testContext, testQuery } from '../../testing/index.ts';
import { createConfiguredProvider } from '../registry.ts';
import { EXA_PROBE_QUERY } from './probe.ts';
import { createExaProvider, EXA_TEXT_FORMAT, exaRateLimit } from './provider.ts';
import { exaPublishedDates } from './request.ts';
import { exaModule } from './settings.ts';

let fixture: ExaFixture;
beforeAll(async () => {
  fixture = await startExaFixture();
});
afterAll(async () => {
  await fixture.close();
});
beforeEach(() => {
  fixture.reset();
});

const env = () => ({ OPENMATES_PROVIDER: 'exa', EXA_API_KEY: EXA_CANARY_API_KEY, EXA_BASE_URL: fixture.baseUrl });
const provider = () => createConfiguredProvider(loadConfig(env()));
const query = (text: string, extra: Partial<ProviderQuery> = {}) =>
  testQuery(text, { filter_tabloids: false, ...extra });
const sent = () => fixture.requests.map((r) => r.body);
const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

function engine() {
  const config = loadConfig({ ...env(), OPENMATES_CACHE_TTL_S: '0' });
  const lines: string[] = [];
  const redact = createRedactor(configSecrets(config));
  const logger = createLogger({ level: 'info', redact, destination: lineCollector(lines) });
  return { engine: createEngine({ config, provider: createConfiguredProvider(config), logger }), lines };
}

describe('Exa provider: the request', () => {
  it('POSTs /search with x-api-key, type auto, numResults and the page text asked for', async () => {
    const answer = await queryProvider(provider(), query('rust ownership', { fetchCount: 7 }), testContext());
    expect(fixture.requests).toHaveLength(1);
    const [request] = fixture.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/search' });
    expect(request?.headers['x-api-key']).toBe(EXA_CANARY_API_KEY);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({
      query: 'rust ownership',
      type: 'auto',
      numResults: 7,
      contents: { text: { maxCharacters: 1000 } },
      userLocation: 'US',
    });
    expect(answer.candidates).toHaveLength(7);
    expect(answer.more).toBe(false);
  });

  it('maps topic news, freshness, include domains, country, strict safesearch and extra snippets', async () => {
    const answer = await queryProvider(
      provider(),
      query('rust', {
        topic: 'news',
        freshness: '2025-01-01..2025-12-31',
        include_domains: ['example.com', 'example.net'],
        country: 'DE',
        safesearch: 'strict',
        extra_snippets: true,
      }),
      testContext(),
    );
    expect(sent()[0]).toMatchObject({
      category: 'news',
      startPublishedDate: '2025-01-01T00:00:00.000Z',
      endPublishedDate: '2025-12-31T23:59:59.999Z',
      includeDomains: ['example.com', 'example.net'],
      userLocation: 'DE',
      moderation: true,
      contents: { text: { maxCharacters: 1000 }, highlights: { maxCharacters: 1500 } },
    });
    expect(answer.candidates[0]?.extra_snippets).toEqual(['The part of page 1 most about rust.']);
  });

  it('sends exclude domains alone, no userLocation for ALL, and nothing for safesearch off', async () => {
    await queryProvider(
      provider(),
      query('rust', { exclude_domains: ['example.com'], country: 'ALL', safesearch: 'off' }),
      testContext(),
    );
    expect(sent()[0]).toMatchObject({ excludeDomains: ['example.com'] });
    expect(sent()[0]).not.toHaveProperty('userLocation');
    expect(sent()[0]).not.toHaveProperty('moderation');
    expect(sent()[0]).not.toHaveProperty('includeDomains');
  });

  it('turns a period into a start date that many days before now, and an open range into one end', () => {
    const now = Date.parse('2026-12-07T12:00:00Z');
    expect(exaPublishedDates('week', now)).toEqual({ startPublishedDate: '2026-11-30T12:00:00.000Z' });
    expect(exaPublishedDates('2026-01-01..', now)).toEqual({ startPublishedDate: '2026-01-01T00:00:00.000Z' });
    expect(exaPublishedDates('..2026-02-01', now)).toEqual({ endPublishedDate: '2026-02-01T23:59:59.999Z' });
    expect(exaPublishedDates(undefined, now)).toEqual({});
  });
});

describe('Exa provider: the answer', () => {
  it('reads title, URL, page text, published date and favicon as HTML text, and the cost Exa reports', async () => {
    const p = provider();
    if (p.translator.kind !== 'http' || p.translator.parseAnswer === undefined)
      throw new Error('not a JSON translator');
    await queryProvider(p, query('rust', { fetchCount: 3 }), testContext());
    const answer = await queryProvider(p, query('rust', { fetchCount: 3 }), testContext());
    expect(answer.candidates[0]).toMatchObject({
      format: EXA_TEXT_FORMAT,
      title: 'rust — result 1',
      url: 'https://example.org/rust-1',
      age: '2025-06-02',
      published: '2025-06-02T00:00:00.000Z',
      favicon: 'https://example.org/favicon.ico',
    });
    const page = p.translator.parseAnswer({ results: [], costDollars: { total: 0.015 } }, query('x'), {
      page: 0,
      first: true,
      scoped: false,
      wallClock: 0,
    });
    expect(page).toEqual({ candidates: [], more: false, costDollars: 0.015 });
    expect(
      p.translator.parseAnswer({ results: 'no' }, query('x'), { page: 0, first: true, scoped: false, wallClock: 0 }),
    ).toBeUndefined();
  });

  it('finds nothing as an empty success', async () => {
    const answer = await queryProvider(provider(), query('nothing here'), testContext());
    expect(answer.candidates).toEqual([]);
  });

  it('reads the wait of an exhausted x-ratelimit window, and the requests left', () => {
    const now = 1_770_771_000_000;
    const headers = (h: Record<string, string>) => ({ header: (name: string) => h[name] ?? null });
    expect(exaRateLimit(headers({ 'x-ratelimit-remaining': '405', 'x-ratelimit-reset': '1770771778' }), now)).toEqual({
      remaining: 405,
    });
    expect(exaRateLimit(headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1770771060' }), now)).toEqual({
      remaining: 0,
      waitMs: 60_000,
    });
    expect(exaRateLimit(headers({ 'retry-after': '2' }), now)).toEqual({ waitMs: 2_000 });
  });
});

describe('Exa provider: errors', () => {
  it.each([
    ['auth x', 'provider_auth'],
    ['credits x', 'provider_rate_limited'],
    ['limited x', 'provider_rate_limited'],
    ['unavailable x', 'provider_unavailable'],
    ['error500 x', 'provider_error'],
    ['malformed x', 'provider_error'],
    ['html x', 'provider_error'],
  ])('%s fails as %s, in our words', async (text, code) => {
    const error = await failure(queryProvider(provider(), query(text), testContext()));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(/^Exa /);
    expect(error.message).not.toContain(EXA_CANARY_API_KEY);
  });

  it('retries a 429 that names a short wait, then answers', async () => {
    const answer = await queryProvider(provider(), query('ratelimit-once x'), testContext());
    expect(answer.candidates.length).toBeGreaterThan(0);
    expect(fixture.requests).toHaveLength(2);
  });

  it('never lets the key out: results, errors and logs', async () => {
    const { engine: e, lines } = engine();
    const { response } = await e.search({ requests: [{ query: 'leak x' }, { query: 'error500 x' }] });
    const everything = JSON.stringify(response) + lines.join('\n');
    expect(configSecrets(loadConfig(env()))).toContain(EXA_CANARY_API_KEY);
    expect(everything).not.toContain(EXA_CANARY_API_KEY);
    expect(everything).not.toContain(encodeURIComponent(EXA_CANARY_API_KEY));
    expect(response.results[1]?.error?.code).toBe('provider_error');
  });

  it('is not configured without a key', () => {
    expect(() => createConfiguredProvider(loadConfig({ OPENMATES_PROVIDER: 'exa' }))).toThrow(
      ProviderNotConfiguredError,
    );
    expect(() => createExaProvider({ apiKey: ' ' })).toThrow(ProviderNotConfiguredError);
    expect(createExaProvider({ apiKey: 'k' }).recipient).toBe('api.exa.ai');
  });
});

describe('Exa provider: what it refuses', () => {
  const p = createExaProvider({ apiKey: 'k' });
  const refusals: [string, Partial<ProviderQuery>][] = [
    ['page', { page: 2 }],
    ['search_lang', { search_lang: 'de' }],
    ['exclude_domains', { include_domains: ['a.com'], exclude_domains: ['b.com'] }],
  ];
  it.each(refusals)('refuses %s before any call, naming Exa', (field, extra) => {
    const issues = providerIssues(p, query('x', extra), 0);
    expect(issues.map((i) => i.path)).toEqual([`requests[0].${field}`]);
    expect(issues[0]?.message).toMatch(/Exa/);
  });

  it('accepts each domain list alone, every safesearch and extra snippets', () => {
    const accepted: Partial<ProviderQuery>[] = [
      { include_domains: ['a.com'] },
      { exclude_domains: ['b.com'] },
      { safesearch: 'strict' },
      { safesearch: 'off' },
      { extra_snippets: true },
      { topic: 'news', freshness: 'week' },
    ];
    for (const extra of accepted) expect(providerIssues(p, query('x', extra), 0)).toEqual([]);
  });

  it('lists its options from its table', () => {
    const options = optionLists(p);
    expect(options.unsupported.map((u) => u.option)).toEqual(['page', 'search_lang']);
    expect(options.conditional?.map((c) => c.option)).toEqual(['exclude_domains', 'safesearch']);
  });
});

describe('Exa provider: doctor', () => {
  it('prints the exact request, the key redacted, without sending anything', () => {
    const config = loadConfig(env());
    const dryRun = exaModule.dryRun?.(config.settings.exa, 'what is rust');
    expect(dryRun).toMatchObject({
      provider: 'exa',
      method: 'POST',
      url: `${fixture.baseUrl}/search`,
      headers: { 'x-api-key': '[redacted]' },
      body: { query: 'what is rust', type: 'auto', numResults: 1 },
    });
    expect(JSON.stringify(dryRun)).not.toContain(EXA_CANARY_API_KEY);
    expect(fixture.requests).toHaveLength(0);
  });

  it('probes live with the fixed text, and says what Exa charged and what is left', async () => {
    const config = loadConfig(env());
    const checks = (await exaModule.liveProbe?.(config.settings.exa, AbortSignal.timeout(5_000))) ?? [];
    expect(checks).toHaveLength(1);
    expect(checks[0]?.ok).toBe(true);
    expect(checks[0]?.detail).toMatch(/1 result; Exa reports it cost \$0\.006; 449 requests left/);
    expect(fixture.requests[0]?.body).toMatchObject({ query: EXA_PROBE_QUERY, numResults: 1 });
    const refused = await exaModule.liveProbe?.(
      { ...config.settings.exa, apiKey: 'wrong-key-0000000' },
      AbortSignal.timeout(5_000),
    );
    expect(refused?.[0]).toMatchObject({ ok: false, detail: 'Exa rejected the API key (HTTP 401).' });
  });
});
