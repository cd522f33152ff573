import { DEFAULT_OPENAI_MAX_SEARCHES } from '@openmates/contract';
import {
  OPENAI_CANARY_API_KEY,
  OPENAI_FIXTURE_TOOMANY_CALLS,
  type OpenAIFixture,
  rejectionOf,
  startOpenAIFixture,
} from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { optionLists, providerIssues } from '../../capabilities.ts';
import { queryProvider } from '../../pipeline/query-provider.ts';
import { ProviderError, ProviderNotConfiguredError, type SearchProvider } from '../../provider.ts';
import { testContext, testQuery } from '../../testing/index.ts';
import { liveProbe } from './probe.ts';
import { createOpenAIProvider } from './provider.ts';
import { OPENAI_MAX_OUTPUT_TOKENS, OPENAI_SEARCH_INSTRUCTION } from './request.ts';

let fixture: OpenAIFixture;
let provider: SearchProvider;

beforeAll(async () => {
  fixture = await startOpenAIFixture();
  provider = createOpenAIProvider({ apiKey: fixture.apiKey, baseUrl: fixture.baseUrl });
});
afterAll(async () => {
  await fixture.close();
});
beforeEach(() => fixture.reset());

const context = testContext;

const query = testQuery;

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

function expectSafe(error: ProviderError, queryText: string): void {
  const shown = `${error.message} ${JSON.stringify(error)} ${String(error.stack)}`;
  expect(shown).not.toContain(OPENAI_CANARY_API_KEY);
  expect(shown).not.toContain(queryText);
}

describe('the request', () => {
  it('is one streamed Responses call carrying the fixed instruction and the query alone', async () => {
    await queryProvider(provider, query('rust async runtimes', { country: 'DE' }), context());
    expect(fixture.requests).toHaveLength(1);
    const [request] = fixture.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/responses');
    expect(request?.headers.authorization).toBe(`Bearer ${OPENAI_CANARY_API_KEY}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({
      model: 'gpt-5.4',
      instructions: OPENAI_SEARCH_INSTRUCTION,
      input: 'rust async runtimes',
      tools: [
        { type: 'web_search', search_context_size: 'low', user_location: { type: 'approximate', country: 'DE' } },
      ],
      include: ['web_search_call.action.sources'],
      store: false,
      stream: true,
      max_output_tokens: OPENAI_MAX_OUTPUT_TOKENS,
      max_tool_calls: DEFAULT_OPENAI_MAX_SEARCHES,
    });
  });

  it('sends the maximum of searches as max_tool_calls, so OpenAI stops before running more (ADR 0130)', async () => {
    const seven = createOpenAIProvider({ apiKey: fixture.apiKey, baseUrl: fixture.baseUrl, maxSearches: 7 });
    await queryProvider(seven, query('rust'), context());
    expect((fixture.requests[0]?.body as { max_tool_calls: number } | undefined)?.max_tool_calls).toBe(7);
    seven.close?.();
  });

  it('sends no user_location when the country is ALL', async () => {
    await queryProvider(provider, query('rust async runtimes', { country: 'ALL' }), context());
    const body = fixture.requests[0]?.body as { tools: Record<string, unknown>[] };
    expect(body.tools).toEqual([{ type: 'web_search', search_context_size: 'low' }]);
  });

  it('uses the configured model and names it', async () => {
    const custom = createOpenAIProvider({ apiKey: fixture.apiKey, baseUrl: fixture.baseUrl, model: 'gpt-5.4-mini' });
    expect(custom.name).toBe('OpenAI web_search (gpt-5.4-mini)');
    await queryProvider(custom, query('rust'), context());
    expect(fixture.requests[0]?.body).toMatchObject({ model: 'gpt-5.4-mini' });
  });
});

describe('a successful search', () => {
  it('puts the cited URL first, with its title and the citing sentence as a note, then the sources', async () => {
    const answer = await queryProvider(provider, query('rust async runtimes'), context());
    expect(answer.candidates).toEqual([
      {
        format: 'text',
        url: 'https://www.example.com/articles/rust-async-runtimes?utm_source=openai',
        title: 'rust async runtimes — Example Articles',
        note: 'rust async runtimes is covered in detail by Example Articles.',
      },
      { format: 'text', url: 'https://docs.example.org/rust-async-runtimes' },
      { format: 'text', url: 'https://news.example.net/rust-async-runtimes/latest' },
      { format: 'text', url: 'https://wiki.example.edu/wiki/rust-async-runtimes' },
    ]);
    for (const candidate of answer.candidates) expect(candidate.description).toBeUndefined();
  });

  it('suggests the queries the hosted search ran, not the query itself', async () => {
    const answer = await queryProvider(provider, query('rust async runtimes'), context());
    expect(answer.suggestions).toEqual(['rust async runtimes latest']);
  });

  it('consolidates one call observed twice identically', async () => {
    const answer = await queryProvider(provider, query('duplicate-observation rust'), context());
    expect(answer.candidates.map((c) => c.url)).toEqual([
      'https://www.example.com/articles/duplicate-observation-rust?utm_source=openai',
      'https://docs.example.org/duplicate-observation-rust',
      'https://news.example.net/duplicate-observation-rust/latest',
      'https://wiki.example.edu/wiki/duplicate-observation-rust',
    ]);
  });

  it('answers a completed search with no sources as zero hits', async () => {
    const answer = await queryProvider(provider, query('empty result please'), context());
    expect(answer.candidates).toEqual([]);
  });

  it('leaves out sources that are not URLs', async () => {
    const answer = await queryProvider(provider, query('nonurl weather'), context());
    expect(answer.candidates.map((c) => c.url)).toEqual([
      'https://www.example.com/articles/nonurl-weather?utm_source=openai',
      'https://docs.example.org/nonurl-weather',
    ]);
  });

  it('hands hostile strings on untouched for the engine to sanitize, dropping non-strings and duplicates', async () => {
    const answer = await queryProvider(provider, query('hostile page'), context());
    expect(answer.candidates.map((c) => c.url)).toEqual([
      'javascript:alert(document.cookie)',
      'https://ok.example.com/hostile-page?q=%3Cscript%3E',
      'http://user:secret@evil.example/steal',
      'ftp://files.example/archive',
      'not a url at all',
    ]);
    expect(answer.candidates[0]?.title).toBe('<script>alert("x")</script><b>Bold &amp; title</b>');
  });
});

describe('fail closed', () => {
  const cases: [scenario: string, message: RegExp][] = [
    ['nosearch', /no search receipt/],
    ['searchfailed', /failed web search call/],
    ['conflict', /conflicting observations/],
    ['toomany', new RegExp(`more than ${DEFAULT_OPENAI_MAX_SEARCHES} web searches`)],
    ['incomplete', /incomplete/],
    ['twoterminal', /more than one terminal event/],
    ['malformed', /malformed stream event/],
    ['untyped', /malformed stream event/],
    ['truncated', /ended before the response completed/],
    ['failed', /reported the search as failed/],
    ['errorevent', /reported an error/],
  ];
  it.each(cases)('%s fails the query with provider_error and a safe message', async (scenario, message) => {
    const text = `${scenario} secret project codename`;
    const error = await failure(queryProvider(provider, query(text), context()));
    expect(error.code).toBe('provider_error');
    expect(error.message).toMatch(message);
    expectSafe(error, text);
    expect(fixture.requests).toHaveLength(1);
  });

  it('accepts as many native searches as the allowance allows', async () => {
    const generous = createOpenAIProvider({
      apiKey: fixture.apiKey,
      baseUrl: fixture.baseUrl,
      maxSearches: OPENAI_FIXTURE_TOOMANY_CALLS,
    });
    const answer = await queryProvider(generous, query('toomany calls'), context());
    expect(answer.candidates.length).toBeGreaterThan(0);
  });
});

describe('HTTP errors', () => {
  it('maps 401 to provider_auth', async () => {
    const error = await failure(queryProvider(provider, query('error401 x'), context()));
    expect(error.code).toBe('provider_auth');
    expect(error.status).toBe(401);
  });

  it('maps a wrong key to provider_auth without echoing it', async () => {
    const wrong = createOpenAIProvider({ apiKey: 'wrong-key-for-the-fixture-0000', baseUrl: fixture.baseUrl });
    const error = await failure(queryProvider(wrong, query('anything'), context()));
    expect(error.code).toBe('provider_auth');
    expect(error.message).not.toContain('wrong-key');
  });

  it('maps 429 to provider_rate_limited and never retries', async () => {
    const error = await failure(queryProvider(provider, query('error429 x'), context()));
    expect(error.code).toBe('provider_rate_limited');
    expect(fixture.requests).toHaveLength(1);
  });

  it('maps 500 to provider_error without passing the body (which holds the key) on', async () => {
    const error = await failure(queryProvider(provider, query('error500 x'), context()));
    expect(error.code).toBe('provider_error');
    expect(error.status).toBe(500);
    expectSafe(error, 'error500 x');
    expect(fixture.requests).toHaveLength(1);
  });

  it('maps a refused connection to provider_unavailable', async () => {
    const gone = await startOpenAIFixture();
    await gone.close();
    const unreachable = createOpenAIProvider({ apiKey: gone.apiKey, baseUrl: gone.baseUrl });
    const error = await failure(queryProvider(unreachable, query('anything'), context()));
    expect(error.code).toBe('provider_unavailable');
  });
});

describe('cancellation', () => {
  it('rethrows the abort reason mid-stream and closes the connection', async () => {
    const controller = new AbortController();
    const pending = queryProvider(provider, query('slow search'), context(controller.signal));
    await fixture.whenHeld();
    const reason = new DOMException('the caller gave up', 'AbortError');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await fixture.whenReleased();
    expect(fixture.heldOpen).toBe(0);
  });

  it('rethrows a deadline (TimeoutError) as is, for the engine to map to provider_timeout', async () => {
    const controller = new AbortController();
    const pending = queryProvider(provider, query('slow search'), context(controller.signal));
    await fixture.whenHeld();
    const reason = new DOMException('deadline', 'TimeoutError');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await fixture.whenReleased();
  });

  it('sends nothing when already aborted', async () => {
    const reason = new Error('already over');
    await expect(queryProvider(provider, query('rust'), context(AbortSignal.abort(reason)))).rejects.toBe(reason);
    expect(fixture.requests).toHaveLength(0);
  });
});

describe('validation and description', () => {
  it('refuses safesearch strict, naming the option and OpenAI', () => {
    const issues = providerIssues(provider, { ...query('x'), safesearch: 'strict' }, 2);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe('requests[2].safesearch');
    expect(issues[0]?.message).toMatch(/OpenAI/);
  });

  it('refuses search_lang, naming the option and OpenAI', () => {
    const issues = providerIssues(provider, { ...query('x'), search_lang: 'de' }, 0);
    expect(issues.map((i) => i.path)).toEqual(['requests[0].search_lang']);
    expect(issues[0]?.message).toMatch(/OpenAI/);
  });

  it('accepts off and moderate', () => {
    expect(providerIssues(provider, { ...query('x'), safesearch: 'off' }, 0)).toEqual([]);
    expect(providerIssues(provider, query('x'), 0)).toEqual([]);
  });

  it('describes itself: id, name, recipient, options', () => {
    expect(provider.id).toBe('openai');
    expect(provider.name).toBe('OpenAI web_search (gpt-5.4)');
    expect(provider.recipient).toBe(new URL(fixture.baseUrl).host);
    const options = optionLists(provider);
    expect(options.honoured).toEqual(['count', 'country', 'filter_tabloids', 'include_domains']);
    expect(options.unsupported.map((u) => u.option)).toEqual([
      'safesearch',
      'search_lang',
      'freshness',
      'page',
      'topic',
      'extra_snippets',
    ]);
    expect(options.conditional?.map((c) => c.option)).toEqual(['exclude_domains']);
    expect(createOpenAIProvider({ apiKey: 'k' }).recipient).toBe('api.openai.com');
  });

  it('is not configured without a key or with an unusable base URL', () => {
    expect(() => createOpenAIProvider({ apiKey: ' ' })).toThrow(ProviderNotConfiguredError);
    expect(() => createOpenAIProvider({ apiKey: 'k', baseUrl: 'ftp://x/v1' })).toThrow(ProviderNotConfiguredError);
    for (const maxSearches of [0, 21, 2.5])
      expect(() => createOpenAIProvider({ apiKey: 'k', maxSearches })).toThrow(ProviderNotConfiguredError);
  });

  it('doctor reports the configuration without the key and without calling OpenAI', async () => {
    const checks = (await provider.doctor?.(context().signal)) ?? [];
    expect(checks).toHaveLength(1);
    expect(checks[0]?.ok).toBe(true);
    expect(checks[0]?.detail).toContain('gpt-5.4');
    expect(JSON.stringify(checks)).not.toContain(OPENAI_CANARY_API_KEY);
    expect(fixture.requests).toHaveLength(0);
  });
});

describe('liveProbe (against the fixture only)', () => {
  it('passes both levels when the search runs and is cited', async () => {
    const checks = await liveProbe({ apiKey: fixture.apiKey, baseUrl: fixture.baseUrl }, context().signal);
    expect(checks.map((c) => c.ok)).toEqual([true, true]);
    expect(checks[1]?.detail).toBe('1 completed web_search_call(s), 1 cited URL(s)');
    const bodies = fixture.requests.map((r) => r.body as { max_output_tokens: number });
    expect(bodies.map((b) => b.max_output_tokens)).toEqual([32, OPENAI_MAX_OUTPUT_TOKENS]);
  });

  it('stops at level 1 when the key is refused', async () => {
    const checks = await liveProbe(
      { apiKey: 'wrong-key-for-the-fixture-0000', baseUrl: fixture.baseUrl },
      context().signal,
    );
    expect(checks).toHaveLength(1);
    expect(checks[0]?.ok).toBe(false);
    expect(checks[0]?.detail).toContain('HTTP 401');
  });
});
