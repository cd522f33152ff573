import { DEFAULT_ANTHROPIC_MAX_SEARCHES } from '@openmates/contract';
import {
  ANTHROPIC_CANARY_API_KEY,
  type AnthropicFixture,
  rejectionOf,
  startAnthropicFixture,
} from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerIssues } from '../../capabilities.ts';
import { loadConfig } from '../../config.ts';
import { queryProvider } from '../../pipeline/query-provider.ts';
import { ProviderError, type SearchProvider } from '../../provider.ts';
import { testContext, testQuery } from '../../testing/index.ts';
import { createConfiguredProvider } from '../registry.ts';
import {
  ANTHROPIC_DEFAULT_MODEL,
  ANTHROPIC_MAX_TOKENS,
  ANTHROPIC_SEARCH_INSTRUCTION,
  anthropicDryRun,
} from './request.ts';

let fixture: AnthropicFixture;
let provider: SearchProvider;

function configured(env: Record<string, string> = {}): SearchProvider {
  return createConfiguredProvider(
    loadConfig({
      OPENMATES_PROVIDER: 'anthropic',
      ANTHROPIC_API_KEY: fixture.apiKey,
      ANTHROPIC_BASE_URL: fixture.baseUrl,
      ...env,
    }),
  );
}

beforeAll(async () => {
  fixture = await startAnthropicFixture();
  provider = configured();
});
afterAll(async () => {
  provider.close?.();
  await fixture.close();
});
beforeEach(() => fixture.reset());

const context = testContext;
const query = (text: string, extra = {}) => testQuery(text, { filter_tabloids: false, ...extra });
const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

function expectSafe(error: ProviderError): void {
  const shown = `${error.message} ${JSON.stringify(error)} ${String(error.stack)}`;
  expect(shown).not.toContain(ANTHROPIC_CANARY_API_KEY);
}

describe('the request', () => {
  it('is one Messages call: x-api-key, anthropic-version, the fixed instruction, the query alone, max_uses', async () => {
    await queryProvider(provider, query('rust async runtimes', { country: 'DE' }), context());
    expect(fixture.requests).toHaveLength(1);
    const [request] = fixture.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers['x-api-key']).toBe(ANTHROPIC_CANARY_API_KEY);
    expect(request?.headers['anthropic-version']).toBe('2023-06-01');
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toEqual({
      model: ANTHROPIC_DEFAULT_MODEL,
      max_tokens: ANTHROPIC_MAX_TOKENS,
      system: ANTHROPIC_SEARCH_INSTRUCTION,
      messages: [{ role: 'user', content: 'rust async runtimes' }],
      tools: [
        {
          type: 'web_search_20250305',
          name: 'web_search',
          max_uses: DEFAULT_ANTHROPIC_MAX_SEARCHES,
          user_location: { type: 'approximate', country: 'DE' },
        },
      ],
    });
  });

  it('sends include_domains as allowed_domains, exclude_domains as blocked_domains, no location for ALL', async () => {
    await queryProvider(provider, query('rust', { country: 'ALL', include_domains: ['docs.rs'] }), context());
    await queryProvider(provider, query('rust', { exclude_domains: ['example.net'] }), context());
    const tools = fixture.requests.map((r) => (r.body as { tools: Record<string, unknown>[] }).tools[0]);
    expect(tools[0]).toEqual({
      type: 'web_search_20250305',
      name: 'web_search',
      max_uses: 4,
      allowed_domains: ['docs.rs'],
    });
    expect(tools[1]?.blocked_domains).toEqual(['example.net']);
    expect(tools[1]?.allowed_domains).toBeUndefined();
  });

  it('sends OPENMATES_ANTHROPIC_MAX_SEARCHES as max_uses, and the dry run prints the same body with the key redacted', async () => {
    const seven = configured({
      OPENMATES_ANTHROPIC_MAX_SEARCHES: '7',
      OPENMATES_ANTHROPIC_SEARCH_MODEL: 'claude-sonnet-4-5',
    });
    await queryProvider(seven, query('rust', { country: 'ALL' }), context());
    const sent = fixture.requests[0]?.body as { model: string; tools: { max_uses: number }[] };
    expect(sent.tools[0]?.max_uses).toBe(7);
    expect(sent.model).toBe('claude-sonnet-4-5');
    const dry = anthropicDryRun(
      { query: 'rust', country: 'ALL' },
      { baseUrl: fixture.baseUrl, model: 'claude-sonnet-4-5', maxSearches: 7 },
    );
    expect(dry.body).toEqual(sent);
    expect(dry.url).toBe(`${fixture.baseUrl}/v1/messages`);
    expect(dry.headers['x-api-key']).toBe('[redacted]');
    seven.close?.();
  });
});

describe('refusals, before any call', () => {
  const refused = (extra: Record<string, unknown>) => providerIssues(provider, { ...query('x'), ...extra }, 0);
  it.each([
    [
      'include_domains with exclude_domains',
      { include_domains: ['a.org'], exclude_domains: ['b.org'] },
      'exclude_domains',
    ],
    ['topic news', { topic: 'news' }, 'topic'],
    ['freshness', { freshness: 'pw' }, 'freshness'],
    ['search_lang', { search_lang: 'de' }, 'search_lang'],
    ['safesearch strict', { safesearch: 'strict' }, 'safesearch'],
    ['page 2', { page: 2 }, 'page'],
  ])('%s is refused, naming the field and Anthropic', (_name, extra, field) => {
    const issues = refused(extra);
    expect(issues.map((i) => i.path)).toEqual([`requests[0].${field}`]);
    expect(issues[0]?.message).toMatch(/Anthropic/);
  });

  it('takes safesearch off and moderate, extra_snippets, and one domain list', () => {
    expect(refused({ safesearch: 'off', extra_snippets: true, include_domains: ['a.org'] })).toEqual([]);
    expect(refused({ exclude_domains: ['b.org'] })).toEqual([]);
  });
});

describe('answers', () => {
  it('keeps the cited pages first, their quoted passages as excerpts and their citing sentences as notes', async () => {
    const answer = await queryProvider(provider, query('rust traits', { extra_snippets: true }), context());
    expect(answer.candidates).toHaveLength(5);
    expect(answer.candidates[0]).toMatchObject({
      format: 'html',
      url: 'https://example.com/rust-traits/1-1',
      title: 'Result 1 for rust traits',
      age: '1 days ago',
      description: 'A passage of the first page about rust traits.',
      note: 'The first page explains rust traits.',
    });
    expect(answer.candidates[1]?.note).toBe('The second page adds detail.');
    expect(JSON.stringify(answer)).not.toContain('Encrypted');
    expect(answer.more).toBe(false);
  });

  it('reads a streamed answer to the same candidates', async () => {
    const plain = await queryProvider(provider, query('ok rust'), context());
    const streamed = await queryProvider(provider, query('streamed rust'), context());
    expect(JSON.parse(JSON.stringify(streamed).replaceAll('streamed', 'ok'))).toEqual(plain);
  });

  it('answers an empty search as zero hits', async () => {
    expect((await queryProvider(provider, query('nothing here'), context())).candidates).toEqual([]);
  });

  it('keeps the searches under max_uses when the cap stopped the model (max_uses_exceeded after them)', async () => {
    const answer = await queryProvider(provider, query('capped rust'), context());
    expect(answer.candidates.length).toBe(2 * DEFAULT_ANTHROPIC_MAX_SEARCHES);
  });
});

describe('receipts fail closed', () => {
  it.each([
    ['nosearch', /without running a web search/],
    ['pause', /pause_turn/],
    ['maxtokens', /output limit/],
    ['orphan', /without its search/],
    ['unanswered', /never returned/],
    ['nousage', /how many web searches/],
    ['undercount', /conflicting/],
    ['toomany', /more than 4 web searches/],
    ['unknowncode', /did not name/],
    ['malformed', /malformed/],
  ])('%s: provider_error', async (scenario, message) => {
    const error = await failure(queryProvider(provider, query(`${scenario} rust`), context()));
    expect(error.code).toBe('provider_error');
    expect(error.message).toMatch(message);
    expectSafe(error);
  });

  it.each([
    ['unavailable', 'provider_unavailable'],
    ['ratelimited', 'provider_rate_limited'],
    ['error401', 'provider_auth'],
    ['error429', 'provider_rate_limited'],
    ['error500', 'provider_error'],
    ['overloaded', 'provider_unavailable'],
  ])('%s: %s, the key never shown', async (scenario, code) => {
    const error = await failure(queryProvider(provider, query(`${scenario} rust`), context()));
    expect(error.code).toBe(code);
    expectSafe(error);
  });
});
