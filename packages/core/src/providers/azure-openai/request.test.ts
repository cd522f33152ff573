import { describe, expect, it } from 'vitest';
import { OPENAI_MAX_OUTPUT_TOKENS, OPENAI_SEARCH_INSTRUCTION } from '../openai/request.ts';
import { resolveAzureOpenAIConfig } from './config.ts';
import { azureDryRunRequest, buildAzureOpenAIRequest } from './request.ts';

const KEY = 'test-only-azure-key-not-real-000000';
const BASE = { apiKey: KEY, endpoint: 'https://res.openai.azure.com/', deployment: 'gpt-4.1-mini' };

describe('buildAzureOpenAIRequest', () => {
  it('targets {endpoint}/openai/v1/responses with the key as api-key, the deployment as model and max_tool_calls', () => {
    const request = buildAzureOpenAIRequest({ query: 'q', country: 'DE', include_domains: ['docs.rs'] }, BASE);
    expect(request.url).toBe('https://res.openai.azure.com/openai/v1/responses');
    expect(request.headers['api-key']).toBe(KEY);
    expect(request.headers.Authorization).toBeUndefined();
    expect(request.body).toEqual({
      model: 'gpt-4.1-mini',
      instructions: OPENAI_SEARCH_INSTRUCTION,
      input: 'q',
      tools: [
        {
          type: 'web_search',
          search_context_size: 'low',
          user_location: { type: 'approximate', country: 'DE' },
          filters: { allowed_domains: ['docs.rs'] },
        },
      ],
      include: ['web_search_call.action.sources'],
      max_tool_calls: 4,
      store: false,
      stream: true,
      max_output_tokens: OPENAI_MAX_OUTPUT_TOKENS,
    });
  });

  it('sends web_search_preview with only what it takes: no domain filter, no sources asked for', () => {
    const request = buildAzureOpenAIRequest(
      { query: 'q', country: 'ALL' },
      { ...BASE, searchTool: 'web_search_preview', maxSearches: 2 },
    );
    expect(request.body.tools).toEqual([{ type: 'web_search_preview', search_context_size: 'low' }]);
    expect(request.body.include).toBeUndefined();
    expect(request.body.max_tool_calls).toBe(2);
  });
});

describe('azureDryRunRequest', () => {
  it('shows the request with the key redacted and needs no key', () => {
    const dry = azureDryRunRequest({ query: 'q', country: 'ALL' }, BASE);
    expect(JSON.stringify(dry)).not.toContain(KEY);
    expect(dry.headers['api-key']).toBe('[redacted]');
    expect(dry.url).toBe('https://res.openai.azure.com/openai/v1/responses');
    expect(azureDryRunRequest({ query: 'q', country: 'ALL' }).recipient).toBe('your-resource.openai.azure.com');
  });
});

describe('resolveAzureOpenAIConfig', () => {
  it('names what is missing or wrong, never the key', () => {
    expect(() => resolveAzureOpenAIConfig({ ...BASE, apiKey: '' })).toThrow(/AZURE_OPENAI_API_KEY/);
    expect(() => resolveAzureOpenAIConfig({ ...BASE, endpoint: '' })).toThrow(/AZURE_OPENAI_ENDPOINT/);
    expect(() => resolveAzureOpenAIConfig({ ...BASE, deployment: '' })).toThrow(/OPENMATES_AZURE_OPENAI_DEPLOYMENT/);
    expect(() => resolveAzureOpenAIConfig({ ...BASE, endpoint: 'https://res.openai.azure.com/openai/v1' })).toThrow(
      /without \/openai\/v1/,
    );
    expect(() => resolveAzureOpenAIConfig({ ...BASE, endpoint: 'https://u:p@res.openai.azure.com' })).toThrow(
      /credentials/,
    );
  });
});
