import {
  lineCollector,
  rejectionOf,
  SERPER_CANARY_API_KEY,
  type SerperFixture,
  startSerperFixture,
} from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configSecrets, loadConfig } from '../../config.ts';
import { createEngine } from '../../engine.ts';
import { EngineError } from '../../engine-error.ts';
import { createRedactor } from '../../hygiene/index.ts';
import { createLogger } from '../../logger.ts';
import { queryProvider } from '../../pipeline/query-provider.ts';
import { ProviderError, type ProviderQuery } from '../../provider.ts';
import { testContext, testQuery } from '../../testing/index.ts';
import { createConfiguredProvider } from '../registry.ts';
import { LIVE_PROBE_QUERY } from '../shared/probes.ts';
import { serperDryRunRequest, serperLiveProbe } from './probe.ts';
import { serperCountry, serperTbs } from './provider.ts';

let fixture: SerperFixture;
beforeAll(async () => {
  fixture = await startSerperFixture();
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
const env = (extra: Record<string, string> = {}) => ({
  OPENMATES_PROVIDER: 'serper',
  SERPER_API_KEY: fixture.apiKey,
  SERPER_BASE_URL: fixture.baseUrl,
  OPENMATES_CACHE_TTL_S: '0',
  ...extra,
});
const provider = (extra: Record<string, string> = {}) => createConfiguredProvider(loadConfig(env(extra)));
const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);
const bodies = () => fixture.requests.map((r) => r.body);

describe('Serper provider: requests', () => {
  it('POSTs q, num, gl and hl as JSON to /search with X-API-KEY', async () => {
    await queryProvider(provider(), query('rust traits', { country: 'DE', search_lang: 'de' }), context());
    const [request] = fixture.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/search');
    expect(request?.headers['x-api-key']).toBe(SERPER_CANARY_API_KEY);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({ q: 'rust traits', num: 10, gl: 'de', hl: 'de' });
  });

  it('sends num as count (at most 10 a call) and no gl for ALL; GB is Google’s uk', async () => {
    await queryProvider(provider(), query('x', { count: 5, fetchCount: 5, country: 'ALL' }), context());
    expect(bodies()[0]).toEqual({ q: 'x', num: 5 });
    expect(serperCountry('GB')).toBe('uk');
    expect(serperCountry('US')).toBe('us');
  });

  it('sends topic news to /news', async () => {
    const answer = await queryProvider(provider(), query('rust', { topic: 'news' }), context());
    expect(fixture.requests[0]?.path).toBe('/news');
    expect(answer.candidates[0]).toMatchObject({ url: 'https://news.example.com/rust/1', age: '1 hours ago' });
  });

  it('writes the domains as site: operators in q', async () => {
    await queryProvider(
      provider(),
      query('rust', { include_domains: ['a.example', 'b.example'], exclude_domains: ['c.example'] }),
      context(),
    );
    expect(bodies()[0]?.q).toBe('rust (site:a.example OR site:b.example) -site:c.example');
  });

  it('maps freshness to tbs: qdr for a period, cdr for a range', async () => {
    await queryProvider(provider(), query('rust', { freshness: 'week' }), context());
    expect(bodies()[0]?.tbs).toBe('qdr:w');
    expect(serperTbs('day', 0)).toBe('qdr:d');
    expect(serperTbs('year', 0)).toBe('qdr:y');
    expect(serperTbs('2025-03-09..2025-12-31', 0)).toBe('cdr:1,cd_min:3/9/2025,cd_max:12/31/2025');
    expect(serperTbs('2025-03-09..', Date.parse('2026-01-02T10:00:00Z'))).toBe('cdr:1,cd_min:3/9/2025,cd_max:1/2/2026');
  });

  it('asks result page 2 of count 10 as page 2, and stops at a page less full than asked', async () => {
    const answer = await queryProvider(provider(), query('rust', { page: 2 }), context());
    expect(bodies()[0]).toMatchObject({ num: 10, page: 2 });
    expect(answer.candidates[0]?.url).toBe('https://example.com/rust/11');
    expect(answer.more).toBe(true);
    const last = await queryProvider(provider(), query('short x'), context());
    expect(last.more).toBe(false);
  });

  it('pages of ten until count is met', async () => {
    const answer = await queryProvider(provider(), query('rust', { count: 20, fetchCount: 20 }), context());
    expect(bodies().map((b) => b?.page)).toEqual([undefined, 2]);
    expect(answer.candidates).toHaveLength(20);
  });

  it('turns relatedSearches into suggestions', async () => {
    const answer = await queryProvider(provider(), query('suggest rust'), context());
    expect(answer.suggestions).toEqual([
      'suggest rust tutorial',
      'suggest rust site:docs.example.org',
      'suggest rust -site:spam.example.com',
      'rust <b>book</b>',
    ]);
  });
});

describe('Serper provider: errors', () => {
  it('an unknown key (403) is provider_auth', async () => {
    const error = await failure(queryProvider(provider({ SERPER_API_KEY: 'wrong-key-0000' }), query('x'), context()));
    expect(error.code).toBe('provider_auth');
    expect(error.message).toBe('Serper rejected the API key (HTTP 403).');
  });

  it('a 400 names the credits, never Serper’s own text', async () => {
    const error = await failure(queryProvider(provider(), query('nocredits x'), context()));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('out of credits');
  });

  it('a 429 naming a short wait is retried; a long one is provider_rate_limited', async () => {
    const answer = await queryProvider(provider(), query('limited x'), context());
    expect(fixture.requests).toHaveLength(2);
    expect(answer.candidates).toHaveLength(10);
    const error = await failure(queryProvider(provider(), query('ratelimit-long x'), context()));
    expect(error.code).toBe('provider_rate_limited');
  });

  it('503 is provider_unavailable, 500 provider_error, a broken body provider_error', async () => {
    expect((await failure(queryProvider(provider(), query('unavailable x'), context()))).code).toBe(
      'provider_unavailable',
    );
    const server = await failure(queryProvider(provider(), query('error500 x'), context()));
    expect(server.code).toBe('provider_error');
    expect(server.message).not.toContain(SERPER_CANARY_API_KEY);
    expect((await failure(queryProvider(provider(), query('malformed x'), context()))).message).toBe(
      'Serper sent malformed JSON.',
    );
    expect((await failure(queryProvider(provider(), query('shape x'), context()))).code).toBe('provider_error');
  });

  it('nothing found is an empty success', async () => {
    const answer = await queryProvider(provider(), query('nothing here'), context());
    expect(answer.candidates).toEqual([]);
  });
});

describe('Serper through the engine', () => {
  function engine() {
    const lines: string[] = [];
    const config = loadConfig(env());
    const logger = createLogger({
      level: 'info',
      redact: createRedactor(configSecrets(config)),
      destination: lineCollector(lines),
    });
    return { engine: createEngine({ config, provider: createConfiguredProvider(config), logger }), lines };
  }

  it('refuses safesearch strict and extra_snippets before any call, naming the field and Serper', async () => {
    for (const item of [{ safesearch: 'strict' }, { extra_snippets: true }]) {
      const error = await rejectionOf(engine().engine.search({ requests: [{ query: 'rust', ...item }] }), EngineError);
      expect(error.status).toBe(400);
      expect(error.message).toContain(Object.keys(item)[0] as string);
      expect(error.message).toContain('Serper');
    }
    expect(fixture.requests).toHaveLength(0);
  });

  it('accepts safesearch off and moderate', async () => {
    const { response } = await engine().engine.search({
      requests: [
        { query: 'rust', safesearch: 'off' },
        { query: 'go', safesearch: 'moderate' },
      ],
    });
    expect(response.results.every((group) => group.error === undefined)).toBe(true);
  });

  it('answers clean text from hostile markup, and no site: operator comes back in a suggestion', async () => {
    const { response } = await engine().engine.search({
      requests: [
        { query: 'hostile x' },
        { query: 'suggest rust', include_domains: ['docs.example.org'], exclude_domains: ['spam.example.com'] },
      ],
    });
    const [hostile] = response.results;
    expect(hostile?.results[0]?.title).toBe('Vec guide');
    expect(JSON.stringify(hostile)).not.toMatch(/<script|onerror|javascript:/);
    const suggestions = response.suggestions_follow_up_requests ?? [];
    // The two that only echoed the operators are the query itself once they are removed: dropped.
    // Suggestions are plain text to the engine, whatever the provider: the markup stays literal.
    expect(suggestions).toEqual(['suggest rust tutorial', 'rust <b>book</b>']);
  });

  it('never lets the key out: results, suggestions, errors and logs', async () => {
    const { engine: e, lines } = engine();
    const { response } = await e.search({ requests: [{ query: 'leak x' }, { query: 'error500 x' }] });
    const everything = JSON.stringify(response) + lines.join('\n');
    expect(everything).not.toContain(SERPER_CANARY_API_KEY);
    expect(response.results[0]?.results.map((r) => r.url)).toContain('https://example.com/leak/3');
    expect(response.results[1]?.error?.code).toBe('provider_error');
  });

  it('skill info lists what Serper refuses', () => {
    const info = engine().engine.skillInfo('0');
    expect(info.provider.id).toBe('serper');
    expect(info.options.honoured).toContain('freshness');
    expect(info.options.honoured).not.toContain('extra_snippets');
  });
});

describe('Serper: doctor', () => {
  it('--dry-run prints the exact request with the key redacted', () => {
    const dry = serperDryRunRequest({ query: 'rust', country: 'GB', freshness: 'month' }, fixture.baseUrl);
    expect(dry).toEqual({
      provider: 'serper',
      recipient: new URL(fixture.baseUrl).host,
      method: 'POST',
      url: `${fixture.baseUrl}/search`,
      headers: { Accept: 'application/json', 'X-API-KEY': '[redacted]', 'Content-Type': 'application/json' },
      body: { q: 'rust', num: 10, gl: 'uk', tbs: 'qdr:m' },
    });
    expect(serperDryRunRequest({ query: 'x' }).url).toBe('https://google.serper.dev/search');
  });

  it('--live searches fixed text once and reports the organic results', async () => {
    const checks = await serperLiveProbe({ apiKey: fixture.apiKey, baseUrl: fixture.baseUrl }, context().signal);
    expect(checks).toHaveLength(1);
    expect(checks[0]?.ok).toBe(true);
    expect(fixture.requests.map((r) => r.body?.q)).toEqual([LIVE_PROBE_QUERY]);
    const bad = await serperLiveProbe({ apiKey: 'wrong-key-0000', baseUrl: fixture.baseUrl }, context().signal);
    expect(bad[0]).toMatchObject({ ok: false });
    expect(bad[0]?.detail).toContain('provider_auth');
  });
});
