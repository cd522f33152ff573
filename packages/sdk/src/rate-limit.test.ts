import { rateLimitHeaders, type WebSearchResponse, WebSearchResponseSchema } from '@openmates/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopbackServer, loopbackServer, type Reply } from '../test/loopback-server.ts';
import { APIPromise, OpenMates, QuotaExceededError, RateLimitError, ServiceUnavailableError } from './index.ts';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function client(...replies: Reply[]) {
  const server = await loopbackServer(replies);
  servers.push(server);
  return { server, openmates: new OpenMates({ apiKey: null, baseURL: server.baseURL, maxRetries: 0 }) };
}

const ok: WebSearchResponse = WebSearchResponseSchema.parse({
  provider: 'Local index',
  results: [{ id: 'q1', results: [] }],
});
const request = { requests: [{ id: 'q1', query: 'rate limits' }] };
/** The headers the server sends, built by the contract's own function. */
const headers = (remaining: number, reset: number) =>
  rateLimitHeaders({ limit: 5, remaining, reset_seconds: reset, policy: 'per-key' }, 60);
/** The typed state the SDK reads from `headers(remaining, reset)`. */
const state = (remaining: number, resetSeconds: number) => ({ limit: 5, remaining, resetSeconds, policy: 'per-key' });
/** The server's 429 for a key whose limit is spent, 30 s before its window resets. */
const tooMany: Reply = {
  status: 429,
  body: { error: 'Too many requests.', code: 'rate_limited', request_id: 'r' },
  headers: { ...headers(0, 30), 'retry-after': '30' },
};

describe('rate-limit state', () => {
  it('reads the state of a result with .withResponse(), and awaiting alone still gives the body', async () => {
    const { openmates, server } = await client({
      status: 200,
      body: ok,
      headers: { ...headers(4, 57), 'x-request-id': 'req-1' },
    });
    const call = openmates.apps.web.search(request);
    expect(call).toBeInstanceOf(APIPromise);
    const { data, response, rateLimit, requestId } = await call.withResponse();
    expect(data).toEqual(ok);
    expect(response.status).toBe(200);
    expect(rateLimit).toEqual(state(4, 57));
    expect(requestId).toBe('req-1');
    // Both read the one answer: the call was sent once.
    expect(await call).toEqual(ok);
    expect(server.received).toHaveLength(1);
  });

  it('carries the state on an error', async () => {
    const { openmates } = await client(tooMany);
    const error = await openmates.apps.web.search(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).rateLimit).toEqual(state(0, 30));
    await expect(openmates.apps.web.search(request).withResponse()).rejects.toBeInstanceOf(RateLimitError);
  });

  it('is undefined when the server sends no state (its limit off)', async () => {
    const { openmates } = await client({ status: 200, body: ok });
    expect((await openmates.apps.web.search(request).withResponse()).rateLimit).toBeUndefined();
  });
});

/** An event-stream reply with `headers`, its events as the server writes them. */
const stream = (extra: Record<string, string>, ...events: { event: string; data: unknown }[]): Reply => ({
  status: 200,
  text: events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join(''),
  headers: { 'content-type': 'text/event-stream; charset=utf-8', ...extra },
});

describe('rate-limit state of a stream', () => {
  it("is undefined before the answer and the headers' state from the first event on", async () => {
    const { openmates } = await client(
      stream(headers(3, 42), { event: 'group', data: ok.results[0] }, { event: 'done', data: ok }),
    );
    const search = openmates.apps.web.searchStream(request);
    expect(search.rateLimit).toBeUndefined();
    const seen: (typeof search.rateLimit)[] = [];
    for await (const _ of search) seen.push(search.rateLimit);
    expect(seen).toEqual([state(3, 42), state(3, 42)]);
    expect(await search.finalResponse()).toEqual(ok);
  });

  it("is carried by an error event's error, and by a 429 before the stream began", async () => {
    const failed = await client(
      stream(headers(2, 10), { event: 'error', data: { error: 'Not configured.', code: 'not_configured' } }),
    );
    const error = await failed.openmates.apps.web
      .searchStream(request)
      .finalResponse()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).rateLimit).toEqual(state(2, 10));

    const refused = await client(tooMany);
    const search = refused.openmates.apps.web.searchStream(request);
    const refusal = await search.finalResponse().catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(RateLimitError);
    expect((refusal as RateLimitError).rateLimit).toEqual(state(0, 30));
    // No stream began: there is no answer of a stream to take the state from.
    expect(search.rateLimit).toBeUndefined();
  });

  it('stays undefined when the server sends no state (its limit off)', async () => {
    const { openmates } = await client(stream({}, { event: 'done', data: ok }));
    const search = openmates.apps.web.searchStream(request);
    expect(await search.finalResponse()).toEqual(ok);
    expect(search.rateLimit).toBeUndefined();
  });
});

describe('a spent quota', () => {
  it('raises QuotaExceededError with the time its window ends, and never retries it', async () => {
    const server = await loopbackServer([
      {
        status: 429,
        body: { error: "This API key's calls-per-day quota is spent.", code: 'quota_exceeded', request_id: 'r' },
        headers: {
          'retry-after': '3600',
          'ratelimit-policy': '"per-key";q=5;w=60, "calls-per-day";q=3;w=86400',
          ratelimit: '"per-key";r=4;t=60, "calls-per-day";r=0;t=3600',
        },
      },
    ]);
    servers.push(server);
    const openmates = new OpenMates({ apiKey: null, baseURL: server.baseURL, maxRetries: 2 });
    const before = Date.now();
    const error = await openmates.apps.web.search(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).not.toBeInstanceOf(RateLimitError);
    const refused = error as QuotaExceededError;
    expect(refused.code).toBe('quota_exceeded');
    expect(refused.status).toBe(429);
    const resetAt = refused.resetAt?.getTime() ?? 0;
    expect(resetAt).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(resetAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(server.received).toHaveLength(1);
  });
});

describe('client.usage()', () => {
  it("asks GET /v1/usage and resolves to the key's usage", async () => {
    const window = { window: '2026-12-07', reset_seconds: 60, calls: 3, billed: 3, cost_usd: 0.015, providers: {} };
    const body = { name: 'agent-a', today: window, month: { ...window, window: '2026-12' }, quotas: [] };
    const server = await loopbackServer([{ status: 200, body }]);
    servers.push(server);
    const openmates = new OpenMates({ apiKey: null, baseURL: server.baseURL, maxRetries: 0 });
    expect(await openmates.usage()).toEqual(body);
    expect(server.received.map((r) => [r.method, r.url])).toEqual([['GET', '/v1/usage']]);
  });
});
