import {
  AZURE_OPENAI_CANARY_API_KEY,
  type OpenAIFixture,
  rejectionOf,
  startAzureOpenAIFixture,
} from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { optionLists, providerIssues } from '../../capabilities.ts';
import { loadConfig } from '../../config.ts';
import { queryProvider } from '../../pipeline/query-provider.ts';
import { ProviderError, ProviderNotConfiguredError, type SearchProvider } from '../../provider.ts';
import { testContext, testQuery } from '../../testing/index.ts';
import { createConfiguredProvider, PROVIDER_MODULES } from '../registry.ts';
import { azureLiveProbe, createAzureOpenAIProvider } from './provider.ts';

let fixture: OpenAIFixture;
let provider: SearchProvider;
let preview: SearchProvider;

beforeAll(async () => {
  fixture = await startAzureOpenAIFixture();
  const base = { apiKey: fixture.apiKey, endpoint: fixture.baseUrl, deployment: 'gpt-4.1-mini' };
  provider = createAzureOpenAIProvider(base);
  preview = createAzureOpenAIProvider({ ...base, searchTool: 'web_search_preview' });
});
afterAll(async () => {
  await fixture.close();
});
beforeEach(() => fixture.reset());

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

describe('the azure-openai provider on its fixture', () => {
  it('sends POST /openai/v1/responses with api-key, the deployment as model, the tool and max_tool_calls', async () => {
    const answer = await queryProvider(
      provider,
      { ...testQuery('latest bun version'), country: 'DE', include_domains: ['example.com'] },
      testContext(),
    );
    expect(answer.candidates.length).toBeGreaterThan(0);
    const [request] = fixture.requests;
    expect(request?.path).toBe('/openai/v1/responses');
    expect(request?.headers['api-key']).toBe(AZURE_OPENAI_CANARY_API_KEY);
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toMatchObject({
      model: 'gpt-4.1-mini',
      input: 'latest bun version',
      tools: [
        {
          type: 'web_search',
          user_location: { type: 'approximate', country: 'DE' },
          filters: { allowed_domains: ['example.com'] },
        },
      ],
      include: ['web_search_call.action.sources'],
      max_tool_calls: 4,
      stream: true,
    });
  });

  it("answers web_search_preview streams in Azure's shape (calls left at searching) under its receipt rule", async () => {
    const answer = await queryProvider(preview, testQuery('latest bun version'), testContext());
    expect(answer.candidates.length).toBeGreaterThan(0);
    const body = fixture.requests[0]?.body as { tools: Record<string, unknown>[]; include?: unknown };
    expect(body.tools.map((tool) => tool.type)).toEqual(['web_search_preview']);
    expect(body.tools[0]).not.toHaveProperty('filters');
    expect(body.include).toBeUndefined();
  });

  it.each([
    ['error401 x', 'provider_auth'],
    ['error429 x', 'provider_rate_limited'],
    ['error500 x', 'provider_error'],
    ['malformed x', 'provider_error'],
    ['nosearch x', 'provider_error'],
  ])('%s fails as %s, showing no key', async (text, code) => {
    const error = await failure(queryProvider(provider, testQuery(text), testContext()));
    expect(error.code).toBe(code);
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(AZURE_OPENAI_CANARY_API_KEY);
  });

  it('fails as provider_auth on a wrong key', async () => {
    const wrong = createAzureOpenAIProvider({ apiKey: 'wrong', endpoint: fixture.baseUrl, deployment: 'd' });
    expect((await failure(queryProvider(wrong, testQuery('latest bun version'), testContext()))).code).toBe(
      'provider_auth',
    );
  });
});

describe('its capability table', () => {
  it('refuses what the openai provider refuses, naming the option and Azure OpenAI', () => {
    for (const [field, value] of [
      ['safesearch', 'strict'],
      ['search_lang', 'de'],
      ['freshness', 'pw'],
      ['topic', 'news'],
      ['extra_snippets', true],
    ] as const) {
      const issues = providerIssues(provider, { ...testQuery('x'), [field]: value }, 0);
      expect(
        issues.map((i) => i.path),
        field,
      ).toEqual([`requests[0].${field}`]);
      expect(issues[0]?.message).toMatch(/Azure OpenAI/);
    }
    expect(providerIssues(provider, { ...testQuery('x'), include_domains: ['a.org'] }, 0)).toEqual([]);
  });

  it('refuses include_domains with web_search_preview, which takes no domain filter', () => {
    const issues = providerIssues(preview, { ...testQuery('x'), include_domains: ['a.org'] }, 1);
    expect(issues.map((i) => i.path)).toEqual(['requests[1].include_domains']);
    expect(optionLists(preview).unsupported?.map((u) => u.option)).toContain('include_domains');
    expect(optionLists(provider).honoured).toContain('include_domains');
  });
});

describe('its settings', () => {
  const env = {
    OPENMATES_PROVIDER: 'azure-openai',
    AZURE_OPENAI_API_KEY: 'k',
    AZURE_OPENAI_ENDPOINT: 'https://res.openai.azure.com/',
    OPENMATES_AZURE_OPENAI_DEPLOYMENT: 'gpt-4.1-mini',
  };

  it('are read from the environment, the key a secret', () => {
    const config = loadConfig({ ...env, OPENMATES_AZURE_OPENAI_SEARCH_TOOL: 'web_search_preview' });
    expect(config.settings['azure-openai']).toEqual({
      apiKey: 'k',
      endpoint: 'https://res.openai.azure.com',
      deployment: 'gpt-4.1-mini',
      maxSearches: 4,
      searchTool: 'web_search_preview',
    });
    expect(PROVIDER_MODULES['azure-openai'].secrets(config.settings['azure-openai'])).toEqual(['k']);
    expect(createConfiguredProvider(config).recipient).toBe('res.openai.azure.com');
  });

  it('name each missing variable and each bad value', () => {
    const config = loadConfig({ OPENMATES_PROVIDER: 'azure-openai', AZURE_OPENAI_API_KEY: 'k' });
    expect(() => createConfiguredProvider(config)).toThrow(ProviderNotConfiguredError);
    expect(() => createConfiguredProvider(config)).toThrow(/AZURE_OPENAI_ENDPOINT, OPENMATES_AZURE_OPENAI_DEPLOYMENT/);
    expect(() => loadConfig({ ...env, OPENMATES_AZURE_OPENAI_SEARCH_TOOL: 'bing' })).toThrow(
      /OPENMATES_AZURE_OPENAI_SEARCH_TOOL/,
    );
    expect(() => loadConfig({ ...env, OPENMATES_AZURE_OPENAI_MAX_SEARCHES: '21' })).toThrow(
      /OPENMATES_AZURE_OPENAI_MAX_SEARCHES/,
    );
  });
});

describe('its live probe (against the fixture only)', () => {
  it.each(['web_search', 'web_search_preview'] as const)(
    'passes both levels with %s, sending fixed text',
    async (tool) => {
      const checks = await azureLiveProbe(
        { apiKey: fixture.apiKey, endpoint: fixture.baseUrl, deployment: 'gpt-4.1-mini', searchTool: tool },
        AbortSignal.timeout(30_000),
      );
      expect(checks.map((c) => [c.name, c.ok])).toEqual([
        ['azure-openai level 1: web_search accepted', true],
        ['azure-openai level 2: search executed and cited', true],
      ]);
      expect(fixture.requests.map((r) => r.path)).toEqual(['/openai/v1/responses', '/openai/v1/responses']);
    },
  );

  it('fails level 1 on a wrong key, naming no key', async () => {
    const checks = await azureLiveProbe(
      { apiKey: 'wrong-probe-key', endpoint: fixture.baseUrl, deployment: 'd' },
      AbortSignal.timeout(30_000),
    );
    expect(checks).toHaveLength(1);
    expect(checks[0]?.ok).toBe(false);
    expect(JSON.stringify(checks)).not.toContain('wrong-probe-key');
  });
});
