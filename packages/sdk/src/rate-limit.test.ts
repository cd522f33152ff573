import { rateLimitHeaders, type WebSearchResponse, WebSearchResponseSchema } from '@openmates/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopbackServer, loopbackServer, type Reply } from '../test/loopback-server.ts';
import { APIPromise, OpenMates, RateLimitError } from './index.ts';

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
    expect(rateLimit).toEqual({ limit: 5, remaining: 4, resetSeconds: 57, policy: 'per-key' });
    expect(requestId).toBe('req-1');
    // Both read the one answer: the call was sent once.
    expect(await call).toEqual(ok);
    expect(server.received).toHaveLength(1);
  });

  it('carries the state on an error', async () => {
    const { openmates } = await client({
      status: 429,
      body: { error: 'Too many requests.', code: 'rate_limited', request_id: 'r' },
      headers: { ...headers(0, 30), 'retry-after': '30' },
    });
    const error = await openmates.apps.web.search(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).rateLimit).toEqual({
      limit: 5,
      remaining: 0,
      resetSeconds: 30,
      policy: 'per-key',
    });
    await expect(openmates.apps.web.search(request).withResponse()).rejects.toBeInstanceOf(RateLimitError);
  });

  it('is undefined when the server sends no state (its limit off)', async () => {
    const { openmates } = await client({ status: 200, body: ok });
    expect((await openmates.apps.web.search(request).withResponse()).rateLimit).toBeUndefined();
  });
});
