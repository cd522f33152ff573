import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { REQUEST_OPTIONS } from '@openmates/contract';
import {
  type BraveFixture,
  CANARY_API_KEY,
  expectedBraveNews,
  expectedBraveResults,
  loadRecordings,
  rejectionOf,
  startBraveFixture,
  startRecordingServer,
} from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { optionLists, providerIssues } from '../../capabilities.ts';
import { type QueryOptions, queryProvider } from '../../pipeline/query-provider.ts';
import { CallTimeout } from '../../pipeline/timed.ts';
import { ProviderError, ProviderNotConfiguredError } from '../../provider.ts';
import { testQuery } from '../../testing/index.ts';
import { createMemoryUpstreamGate } from '../../upstream-gate.ts';
import { BRAVE_DEFAULT_RETRY_DELAY_MS, BRAVE_MAX_RETRIES } from './limits.ts';
import { createBraveProvider } from './provider.ts';

let fixture: BraveFixture;

beforeAll(async () => {
  fixture = await startBraveFixture();
});
afterAll(async () => {
  await fixture.close();
});
beforeEach(() => {
  fixture.reset();
});

/** How a query runs: a clock at 0 whose sleep records the delays it was asked for and returns at once. */
/** A shared rate in process whose clock stands still and whose waits return at once: pauses are read, never waited. */
const stoppedClockGate = () =>
  createMemoryUpstreamGate(
    undefined,
    () => 0,
    async () => {},
  );

function context(signal: AbortSignal = new AbortController().signal): { context: QueryOptions; sleeps: number[] } {
  const sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
  };
  return { sleeps, context: { signal, clock: { now: () => 0, sleep } } };
}

const query = testQuery;

function provider(overrides: { apiKey?: string; baseUrl?: string } = {}) {
  return createBraveProvider({ apiKey: fixture.apiKey, baseUrl: fixture.baseUrl, ...overrides });
}

/** The rejection of `promise`, which must reject. */
const failure = (promise: Promise<unknown>) => rejectionOf(promise, Error);
const providerFailure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderError);

describe('Brave provider: requests', () => {
  it('sends the query with mapped options, the token header and Accept: application/json', async () => {
    await queryProvider(
      provider(),
      query('rust traits', { country: 'DE', search_lang: 'ja', safesearch: 'strict' }),
      context().context,
    );
    expect(fixture.requests).toHaveLength(1);
    const [request] = fixture.requests;
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe('/res/v1/web/search');
    expect(request?.query).toEqual({
      q: 'rust traits',
      count: '10',
      country: 'DE',
      search_lang: 'jp',
      safesearch: 'strict',
      text_decorations: 'false',
      result_filter: 'web',
    });
    expect(request?.headers['x-subscription-token']).toBe(CANARY_API_KEY);
    expect(request?.headers.accept).toBe('application/json');
  });

  it("maps ISO 639-1 codes to Brave's own where they differ, and omits search_lang when none was given", async () => {
    const brave = provider();
    for (const lang of ['zh', 'pt', 'no', 'en', 'de']) {
      await queryProvider(brave, query('x', { search_lang: lang }), context().context);
    }
    await queryProvider(brave, query('x', { country: 'ALL' }), context().context);
    expect(fixture.requests.map((r) => r.query.search_lang)).toEqual(['zh-hans', 'pt-pt', 'nb', 'en', 'de', undefined]);
    expect(fixture.requests.at(-1)?.query.country).toBe('ALL');
  });

  it('asks for fetchCount results, paging in 20s with offset beyond Brave’s per-call maximum', async () => {
    const brave = provider();
    const small = await queryProvider(brave, query('tabloids a', { fetchCount: 15 }), context().context);
    expect(small.candidates).toHaveLength(15);
    expect(fixture.requests.map((r) => [r.query.count, r.query.offset])).toEqual([['15', undefined]]);
    fixture.reset();
    const large = await queryProvider(brave, query('tabloids a', { count: 20, fetchCount: 40 }), context().context);
    expect(fixture.requests.map((r) => [r.query.count, r.query.offset])).toEqual([
      ['20', undefined],
      ['20', '1'],
    ]);
    expect(large.candidates).toHaveLength(40);
    expect(new Set(large.candidates.map((c) => c.url)).size).toBe(40);
  });

  it('keeps the first page when a later page fails', async () => {
    // Every fixture result is on example.org: the scope leaves none, so a second page is asked for.
    const scoped = query('pagefail', { count: 20, fetchCount: 40, exclude_domains: ['example.org'] });
    const answer = await queryProvider(provider(), scoped, context().context);
    expect(answer.candidates).toHaveLength(20);
    expect(fixture.requests.map((r) => r.query.offset)).toEqual([undefined, '1']);
  });

  it('stops paging once count results pass the tabloid filter, not at twice count gathered', async () => {
    const brave = provider();
    // Half of every page of the `tabloids` scenario is on tabloid domains.
    const ten = await queryProvider(brave, query('tabloids a', { count: 10, fetchCount: 20 }), context().context);
    expect(fixture.requests.map((r) => [r.query.count, r.query.offset])).toEqual([['20', undefined]]);
    expect(ten.candidates).toHaveLength(20);
    fixture.reset();
    const plain = query('rust', { count: 20, fetchCount: 40 });
    expect((await queryProvider(brave, plain, context().context)).candidates).toHaveLength(20);
    expect(fixture.requests.map((r) => [r.query.count, r.query.offset])).toEqual([['20', undefined]]);
  });

  it('stops paging when Brave has no more results', async () => {
    const answer = await queryProvider(provider(), query('empty', { count: 20, fetchCount: 40 }), context().context);
    expect(answer.candidates).toHaveLength(0);
    expect(fixture.requests).toHaveLength(1);
  });
});

describe('Brave provider: answers', () => {
  it('maps results to raw candidates, in order', async () => {
    const answer = await queryProvider(provider(), query('rust traits'), context().context);
    expect(answer.candidates.map((c) => ({ title: c.title, url: c.url, description: c.description }))).toEqual(
      expectedBraveResults('rust traits', 10),
    );
    expect(answer.candidates[0]).toMatchObject({
      age: 'January 5, 2025',
      language: 'en',
      family_friendly: true,
      favicon: 'https://imgs.search.brave.com/fixture/favicon/example.org',
    });
    expect(answer.suggestions).toBeUndefined();
  });

  it('passes hostile text and bad URLs through untouched, declared as HTML: hygiene is the engine’s', async () => {
    const hostile = await queryProvider(provider(), query('hostile'), context().context);
    expect(String(hostile.candidates[0]?.title)).toContain('<script>');
    expect(new Set(hostile.candidates.map((c) => c.format))).toEqual(new Set(['html']));
    const bad = await queryProvider(provider(), query('badurls'), context().context);
    expect(bad.candidates.map((c) => c.url)).toContain('javascript:alert(1)');
    expect(bad.candidates.map((c) => c.favicon)).toContain('http://example.org/favicon.ico');
  });

  it('answers zero candidates when web.results is empty or web is absent', async () => {
    expect(await queryProvider(provider(), query('empty'), context().context)).toEqual({ candidates: [], more: false });
    expect(await queryProvider(provider(), query('noweb'), context().context)).toEqual({ candidates: [], more: false });
  });

  it('answers query.altered as what Brave searched for instead, not as a suggestion', async () => {
    const answer = await queryProvider(provider(), query('altered rust traits'), context().context);
    expect(answer.altered).toBe('rust traits');
    expect(answer.suggestions).toBeUndefined();
    expect(answer.candidates[0]?.url).toBe('https://example.org/rust-traits/1');
  });

  it('says more when Brave says more results are available past a full page, and not on its last page', async () => {
    expect((await queryProvider(provider(), query('rust', { fetchCount: 10 }), context().context)).more).toBe(true);
    const last = query('rust', { count: 20, fetchCount: 20, filter_tabloids: false, page: 10 });
    expect(fixture.requests.length).toBe(1);
    const answer = await queryProvider(provider(), last, context().context);
    expect(fixture.requests.at(-1)?.query.offset).toBe('9');
    expect(answer.more).toBe(false);
  });
});

describe('Brave provider: pages and news', () => {
  it('asks result page 2 of count 10 without tabloids as count=10&offset=1', async () => {
    const item = query('rust', { count: 10, fetchCount: 10, filter_tabloids: false, page: 2 });
    const answer = await queryProvider(provider(), item, context().context);
    expect(fixture.requests.map((r) => [r.query.count, r.query.offset])).toEqual([['10', '1']]);
    expect(answer.candidates.map((c) => c.url)).toEqual(expectedBraveResults('rust', 10, 1).map((r) => r.url));
  });

  it('starts page N of a two-page window at offset 2(N − 1), and stops there once count results pass admission', async () => {
    const item = query('rust', { count: 20, fetchCount: 40, page: 3 });
    await queryProvider(provider(), item, context().context);
    // The fixture's page at offset 4 holds 20 clean results: the window's second page is not asked.
    expect(fixture.requests.map((r) => r.query.offset)).toEqual(['4']);
  });

  it('refuses a page past offset 9 before any call, naming page and Brave', () => {
    const brave = provider();
    expect(providerIssues(brave, query('x', { count: 20, page: 5 }), 0)).toEqual([]);
    expect(providerIssues(brave, query('x', { count: 20, page: 10 }), 1)).toEqual([
      {
        path: 'requests[1].page',
        message: expect.stringMatching(/^page 10 is not supported by the Brave Search provider: .*up to page 5$/),
      },
    ]);
    expect(providerIssues(brave, query('x', { count: 10, filter_tabloids: true, page: 10 }), 0)).toEqual([]);
  });

  it('reads the news endpoint for topic news, with the parameters that apply there', async () => {
    const item = query('rust', {
      topic: 'news',
      count: 5,
      fetchCount: 5,
      filter_tabloids: false,
      extra_snippets: true,
    });
    const answer = await queryProvider(provider(), item, context().context);
    const [request] = fixture.requests;
    expect(request?.path).toBe('/res/v1/news/search');
    expect(request?.query).toEqual({
      q: 'rust',
      count: '5',
      country: 'US',
      safesearch: 'moderate',
      extra_snippets: 'true',
    });
    expect(answer.candidates.map((c) => c.url)).toEqual(expectedBraveNews('rust', 5).map((n) => n.url));
    expect(answer.candidates[0]).toMatchObject({
      published: expectedBraveNews('rust', 1)[0]?.published,
      age: '1 hour ago',
    });
    expect(JSON.stringify(answer)).not.toContain('thumbnail');
    expect(answer.more).toBe(true);
  });

  it('reads every recorded news answer of the real service as news results, thumbnails left out', async () => {
    const recordings = loadRecordings({ provider: 'brave', kind: 'news' });
    expect(recordings.length).toBeGreaterThan(0);
    for (const recording of recordings) {
      const server = await startRecordingServer([recording]);
      try {
        const brave = createBraveProvider({ apiKey: 'k', baseUrl: `${server.baseUrl}/res/v1` });
        const item = query('hello world', { topic: 'news', filter_tabloids: false });
        const answer = await queryProvider(brave, item, context().context);
        const results = (JSON.parse(recording.body) as { results: { url: string; page_age?: string }[] }).results;
        expect(server.requests[0]?.path).toBe('/res/v1/news/search');
        expect(answer.candidates.map((c) => c.url)).toEqual(results.map((r) => r.url));
        expect(answer.candidates.map((c) => c.published)).toEqual(results.map((r) => r.page_age));
        expect(JSON.stringify(answer.candidates)).not.toContain('imgs.search.brave.com/Yf');
      } finally {
        await server.close();
      }
    }
  });
});

describe('Brave provider: errors', () => {
  it('a rejected token is provider_auth with a message of our own', async () => {
    for (const [brave, text] of [
      [provider({ apiKey: 'some-wrong-key' }), 'rust'],
      [provider(), 'badkey rust'],
    ] as const) {
      const error = await providerFailure(queryProvider(brave, query(text), context().context));
      expect(error.code).toBe('provider_auth');
      expect(error.status).toBe(422);
      expect(error.message).toBe('Brave Search rejected the API key (HTTP 422).');
      expect(error.message).not.toMatch(/subscription token/i);
    }
  });

  it('a 429 once is retried after Retry-After through context.sleep, then succeeds', async () => {
    const { context: ctx, sleeps } = context();
    const answer = await queryProvider(provider(), query('ratelimit-once x'), ctx);
    expect(fixture.requests).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
    expect(answer.candidates.map((c) => c.url)).toEqual(expectedBraveResults('ratelimit-once x', 10).map((r) => r.url));
  });

  it('a 429 without Retry-After waits for the reset of the exhausted X-RateLimit window', async () => {
    const { context: ctx, sleeps } = context();
    const answer = await queryProvider(provider(), query('ratelimit-reset x'), ctx);
    expect(sleeps).toEqual([2000]);
    expect(answer.candidates).toHaveLength(10);
  });

  it(`a 429 on every call is retried ${BRAVE_MAX_RETRIES} times, then provider_rate_limited`, async () => {
    const { context: ctx, sleeps } = context();
    const error = await providerFailure(queryProvider(provider(), query('ratelimit'), ctx));
    expect(error.code).toBe('provider_rate_limited');
    expect(error.status).toBe(429);
    expect(fixture.requests).toHaveLength(BRAVE_MAX_RETRIES + 1);
    expect(sleeps).toEqual(Array(BRAVE_MAX_RETRIES).fill(1000));
  });

  it('a 429 asking for longer than the cap fails at once, without waiting', async () => {
    const { context: ctx, sleeps } = context();
    const error = await providerFailure(queryProvider(provider(), query('ratelimit-long'), ctx));
    expect(error.code).toBe('provider_rate_limited');
    expect(fixture.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(BRAVE_DEFAULT_RETRY_DELAY_MS).toBeLessThanOrEqual(5000);
  });

  it('a 429 whose Retry-After ends after the call’s time is provider_rate_limited at once, and pauses everyone', async () => {
    const { context: ctx, sleeps } = context();
    const gate = stoppedClockGate();
    const error = await providerFailure(
      queryProvider(provider(), query('ratelimit-3s x'), { ...ctx, timeoutMs: 2_000, gate }),
    );
    expect(error.code).toBe('provider_rate_limited');
    expect(error.retryAfterMs).toBe(3_000);
    expect(fixture.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(await gate.pausedFor()).toBe(3_000);
  });

  it('a retried 429 pauses every replica for the wait it names, then calls again', async () => {
    const { context: ctx, sleeps } = context();
    const gate = stoppedClockGate();
    await queryProvider(provider(), query('ratelimit-once y'), { ...ctx, gate });
    expect(sleeps).toEqual([1000]);
    expect(await gate.pausedFor()).toBe(1000);
    expect(fixture.requests).toHaveLength(2);
  });

  it('a 500 whose body and headers leak the key is provider_error, and nothing thrown carries the key', async () => {
    const error = await providerFailure(queryProvider(provider(), query('error500'), context().context));
    expect(error.code).toBe('provider_error');
    expect(error.status).toBe(500);
    const everything = [error.message, String(error.stack), String(error.cause), JSON.stringify(error)].join('\n');
    expect(everything).not.toContain(CANARY_API_KEY);
    expect(everything).not.toContain('internal.brave.example');
    expect(everything).not.toContain('handler.js');
  });

  it('a 503 is provider_unavailable', async () => {
    const error = await providerFailure(queryProvider(provider(), query('unavailable'), context().context));
    expect(error.code).toBe('provider_unavailable');
    expect(error.status).toBe(503);
  });

  it('malformed JSON, an HTML page or a body of the wrong shape is provider_error', async () => {
    for (const text of ['malformed', 'html']) {
      const error = await providerFailure(queryProvider(provider(), query(text), context().context));
      expect(error.code, text).toBe('provider_error');
    }
    // Brave's own 422 for a parameter it refuses (count over 20 is never sent by us; a bad
    // search_lang is caught by validate, so send one Brave refuses past validation).
    const refused = await providerFailure(
      queryProvider(provider(), query('x', { fetchCount: 10, safesearch: 'maybe' as 'off' }), context().context),
    );
    expect(refused.code).toBe('provider_error');
    expect(refused.status).toBe(422);
  });

  it('a 200 JSON body that is not a search answer is provider_error', async () => {
    let body: unknown;
    const other = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const result = { title: 't', url: 'https://example.com/' };
    try {
      const { port } = other.address() as AddressInfo;
      const brave = createBraveProvider({ apiKey: 'k', baseUrl: `http://127.0.0.1:${port}/res/v1` });
      const wrong: unknown[] = [
        { type: 'search', web: { results: 'not a list' } },
        null,
        [],
        'search',
        { web: { results: [] } },
        { type: 'news', web: { results: [] } },
        { type: 'search', query: 'q' },
        { type: 'search', query: null },
        { type: 'search', query: [] },
        { type: 'search', web: null },
        { type: 'search', web: [] },
        { type: 'search', web: {} },
        { type: 'search', web: { results: [result, 1] } },
        { type: 'search', web: { results: [null] } },
        { type: 'search', web: { results: [[]] } },
      ];
      for (const shape of wrong) {
        body = shape;
        const error = await providerFailure(queryProvider(brave, query('x'), context().context));
        expect(error.code, JSON.stringify(shape)).toBe('provider_error');
        expect(error.message).toBe('Brave Search sent an answer of an unexpected shape.');
      }
      // Extra fields are ignored; `query` and `web` may be absent; results are read as they are.
      const right: [unknown, number][] = [
        [{ type: 'search', extra: 1, query: { original: 'x', other: [] }, web: { results: [result], more: 1 } }, 1],
        [{ type: 'search' }, 0],
        [{ type: 'search', web: { results: [{}, { title: 5 }] } }, 2],
      ];
      for (const [shape, count] of right) {
        body = shape;
        const answer = await queryProvider(brave, query('x'), context().context);
        expect(answer.candidates, JSON.stringify(shape)).toHaveLength(count);
      }
      await brave.close?.();
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('rethrows the engine’s abort as is, for the engine to map', async () => {
    const controller = new AbortController();
    const pending = failure(queryProvider(provider(), query('slow'), context(controller.signal).context));
    await until(() => fixture.requests.length === 1);
    const reason = new DOMException('engine deadline', 'TimeoutError');
    controller.abort(reason);
    const error = await pending;
    expect(error).not.toBeInstanceOf(ProviderError);
    expect(error).toBe(reason);
  });

  it('a call past its timeout rejects with CallTimeout (the engine’s provider_timeout)', async () => {
    const error = await failure(queryProvider(provider(), query('slow'), { ...context().context, timeoutMs: 20 }));
    expect(error).toBeInstanceOf(CallTimeout);
  });
});

// The one HTTP client (undici's pool) opens a second connection for a call made in the same turn as
// the previous one's end (the first has not reported itself free yet), then reuses those two.
describe('Brave provider: the connection', () => {
  const ANSWER = JSON.stringify({ type: 'search', web: { results: [{ title: 't', url: 'https://example.com/' }] } });

  /** A one-off upstream on 127.0.0.1 answering with `listener`; counts its connections. */
  async function upstream(listener: RequestListener) {
    const server = createServer(listener);
    const state = { connections: 0, requests: [] as string[] };
    server.on('connection', () => {
      state.connections += 1;
    });
    server.on('request', (req) => state.requests.push(req.url ?? ''));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const brave = createBraveProvider({ apiKey: 'k', baseUrl: `http://127.0.0.1:${port}/res/v1` });
    return {
      server,
      state,
      brave,
      async close() {
        await brave.close?.();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('a connection refused is provider_unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const brave = createBraveProvider({ apiKey: 'k', baseUrl: `http://127.0.0.1:${port}/res/v1` });
    const error = await providerFailure(queryProvider(brave, query('x'), context().context));
    expect(error.code).toBe('provider_unavailable');
    expect(error.message).toBe('Brave Search could not be reached.');
  });

  it('reuses one kept-alive connection across calls, and closes it with the provider', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(ANSWER);
    });
    try {
      for (let i = 0; i < 5; i += 1) {
        const answer = await queryProvider(up.brave, query('x'), context().context);
        expect(answer.candidates).toHaveLength(1);
      }
      expect(up.state.connections).toBe(2);
    } finally {
      await up.close();
    }
  });

  it('a body that stalls after its headers ends at the call’s timeout; the next call takes a fresh connection', async () => {
    // The call's timeout bounds the body's read too, well before either client's own timeouts.
    const sockets: object[] = [];
    const up = await upstream((req, res) => {
      sockets.push(req.socket);
      res.writeHead(200, { 'content-type': 'application/json' });
      if (sockets.length === 1) res.write(ANSWER.slice(0, 20));
      else res.end(ANSWER);
    });
    try {
      const error = await failure(queryProvider(up.brave, query('x'), { ...context().context, timeoutMs: 50 }));
      expect(error).toBeInstanceOf(CallTimeout);
      const answer = await queryProvider(up.brave, query('x'), context().context);
      expect(answer.candidates).toHaveLength(1);
      expect(sockets).toHaveLength(2);
      expect(sockets[1]).not.toBe(sockets[0]);
    } finally {
      await up.close();
    }
  });

  it('answers on a fresh connection after the server closed the idle one', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(ANSWER);
    });
    try {
      await queryProvider(up.brave, query('x'), context().context);
      up.server.closeIdleConnections();
      const answer = await queryProvider(up.brave, query('x'), context().context);
      expect(answer.candidates).toHaveLength(1);
      expect(up.state.connections).toBe(2);
    } finally {
      await up.close();
    }
  });

  it('sends the GET once more on a fresh connection when a reused one closes without answering', async () => {
    // The race of a server closing an idle connection as a request is sent on it.
    const served = new WeakMap<object, number>();
    const up = await upstream((req, res) => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      if (count > 1) return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(ANSWER);
    });
    try {
      await queryProvider(up.brave, query('x'), context().context);
      // The client takes the idle connection once the previous answer has freed it.
      await new Promise((resolve) => setImmediate(resolve));
      const answer = await queryProvider(up.brave, query('x'), context().context);
      expect(answer.candidates).toHaveLength(1);
      expect(up.state.requests).toHaveLength(3);
      expect(up.state.connections).toBe(2);
    } finally {
      await up.close();
    }
  });

  it('refuses a redirect without following it', async () => {
    const up = await upstream((req, res) => {
      if (req.url?.startsWith('/elsewhere')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(ANSWER);
        return;
      }
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    try {
      const error = await providerFailure(queryProvider(up.brave, query('x'), context().context));
      expect(error.code).toBe('provider_error');
      expect(error.status).toBe(302);
      expect(error.message).toContain('redirect');
      expect(up.state.requests.every((url) => url.startsWith('/res/v1/web/search'))).toBe(true);
    } finally {
      await up.close();
    }
  });

  it('refuses an answer over 4 MiB, declared or streamed', async () => {
    const big = Buffer.alloc(4 * 1024 * 1024 + 1, 0x20);
    for (const declared of [true, false]) {
      const up = await upstream((_req, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(declared ? { 'content-length': String(big.byteLength) } : {}),
        });
        res.end(big);
      });
      try {
        const error = await providerFailure(queryProvider(up.brave, query('x'), context().context));
        expect(error.code, `declared ${declared}`).toBe('provider_error');
        expect(error.message).toBe('Brave Search sent an answer too large to read.');
      } finally {
        await up.close();
      }
    }
  });

  it('reads a gzip answer, and refuses one over 4 MiB once decoded', async () => {
    const small = gzipSync(ANSWER);
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024 + 1, 0x20));
    let body = small;
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(body);
    });
    try {
      const answer = await queryProvider(up.brave, query('x'), context().context);
      expect(answer.candidates).toHaveLength(1);
      body = bomb;
      const error = await providerFailure(queryProvider(up.brave, query('x'), context().context));
      expect(error.code).toBe('provider_error');
      expect(error.message).toBe('Brave Search sent an answer too large to read.');
    } finally {
      await up.close();
    }
  });

  it('a connection closed mid-answer is provider_unavailable', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(ANSWER.length * 2) });
      res.write(ANSWER, () => res.socket?.destroy());
    });
    try {
      const error = await providerFailure(queryProvider(up.brave, query('x'), context().context));
      expect(error.code).toBe('provider_unavailable');
      expect(error.message).toBe('Brave Search closed the connection mid-answer.');
    } finally {
      await up.close();
    }
  });

  it('rethrows the engine’s abort as is while the body is still arriving', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"type":"search",');
    });
    const controller = new AbortController();
    try {
      const pending = failure(queryProvider(up.brave, query('x'), context(controller.signal).context));
      await until(() => up.state.requests.length === 1);
      const reason = new DOMException('engine deadline', 'TimeoutError');
      controller.abort(reason);
      expect(await pending).toBe(reason);
    } finally {
      await up.close();
    }
  });
});

describe('Brave provider: validation and description', () => {
  it('refuses more than 50 words, naming Brave and the count', () => {
    const brave = provider();
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect(providerIssues(brave, query(words(50)), 0)).toEqual([]);
    expect(providerIssues(brave, query(words(51)), 3)).toEqual([
      { path: 'requests[3].query', message: 'Brave Search accepts at most 50 words per query (this one has 51)' },
    ]);
  });

  it('refuses a search_lang Brave does not support, at requests[i].search_lang', () => {
    const brave = provider();
    expect(providerIssues(brave, query('x', { search_lang: 'ja' }), 0)).toEqual([]);
    const issues = providerIssues(brave, query('x', { search_lang: 'fy' }), 2);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe('requests[2].search_lang');
    expect(issues[0]?.message).toMatch(/^Brave Search does not support search_lang "fy"/);
  });

  it('describes itself: languages, word limit, honoured options, recipient', () => {
    const brave = createBraveProvider({ apiKey: 'k' });
    expect(brave.id).toBe('brave');
    expect(brave.name).toBe('Brave Search');
    expect(brave.recipient).toBe('api.search.brave.com');
    expect(brave.capabilities.query?.maxWords).toBe(50);
    expect(brave.capabilities.honoured).toEqual([...REQUEST_OPTIONS]);
    expect(brave.capabilities.languages).toEqual(expect.arrayContaining(['ja', 'zh', 'pt', 'no', 'nb', 'en', 'de']));
    expect(brave.capabilities.languages).not.toContain('fy');
    expect(optionLists(brave).unsupported.map((u) => u.option)).toEqual(['search_lang', 'page']);
  });

  it('is not configured without a key', () => {
    expect(() => createBraveProvider({ apiKey: ' ' })).toThrow(ProviderNotConfiguredError);
  });
});

describe('Brave provider: doctor', () => {
  it('reports the key accepted, with the quota left', async () => {
    const brave = provider();
    const doctor = brave.doctor;
    if (doctor === undefined) throw new Error('doctor is missing');
    const checks = await doctor.call(brave, new AbortController().signal);
    expect(checks).toHaveLength(1);
    expect(checks[0]?.ok).toBe(true);
    expect(checks[0]?.detail).toMatch(/^accepted by 127\.0\.0\.1:\d+ \(\d+ requests left/);
    expect(fixture.requests[0]?.query.count).toBe('1');
  });

  it('reports a rejected key with a fix, never the key', async () => {
    const brave = provider({ apiKey: 'wrong-key-for-doctor' });
    const checks = (await brave.doctor?.(new AbortController().signal)) ?? [];
    expect(checks[0]?.ok).toBe(false);
    expect(checks[0]?.fix).toContain('BRAVE_SEARCH_API_KEY');
    expect(JSON.stringify(checks)).not.toContain('wrong-key-for-doctor');
  });
});

/** Polls a condition on the event loop (no wall-clock sleeps). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000; i += 1) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition never held');
}
