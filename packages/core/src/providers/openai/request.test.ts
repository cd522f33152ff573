import { DEFAULT_OPENAI_MAX_SEARCHES } from '@openmates/contract';
import { describe, expect, it } from 'vitest';
import { buildOpenAIRequest, dryRunRequest, OPENAI_MAX_OUTPUT_TOKENS, OPENAI_SEARCH_INSTRUCTION } from './request.ts';

const KEY = 'test-only-key-not-real-0000000000';

describe('buildOpenAIRequest', () => {
  it('targets {baseUrl}/responses with the key as a bearer token', () => {
    const request = buildOpenAIRequest(
      { query: 'q', country: 'US' },
      { apiKey: KEY, baseUrl: 'http://127.0.0.1:9/v1/' },
    );
    expect(request.url).toBe('http://127.0.0.1:9/v1/responses');
    expect(request.headers.Authorization).toBe(`Bearer ${KEY}`);
  });
});

describe('dryRunRequest', () => {
  it('prints the exact request with the key redacted, as stable JSON', () => {
    const dry = dryRunRequest({ query: 'latest bun version', country: 'GB' }, { apiKey: KEY });
    expect(JSON.stringify(dry)).not.toContain(KEY);
    expect(JSON.stringify(dry, null, 2)).toBe(
      JSON.stringify(
        {
          provider: 'openai',
          recipient: 'api.openai.com',
          method: 'POST',
          url: 'https://api.openai.com/v1/responses',
          headers: {
            Authorization: 'Bearer [redacted]',
            'Content-Type': 'application/json',
            Accept: 'text/event-stream',
          },
          body: {
            model: 'gpt-5.4',
            instructions: OPENAI_SEARCH_INSTRUCTION,
            input: 'latest bun version',
            tools: [
              { type: 'web_search', search_context_size: 'low', user_location: { type: 'approximate', country: 'GB' } },
            ],
            include: ['web_search_call.action.sources'],
            max_tool_calls: DEFAULT_OPENAI_MAX_SEARCHES,
            store: false,
            stream: true,
            max_output_tokens: OPENAI_MAX_OUTPUT_TOKENS,
          },
        },
        null,
        2,
      ),
    );
  });

  it('needs no key', () => {
    expect(dryRunRequest({ query: 'q', country: 'ALL' }).headers.Authorization).toBe('Bearer [redacted]');
  });
});
