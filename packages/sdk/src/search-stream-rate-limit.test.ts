// searchStream's rate-limit state against the real server (its handler and node:http adapter) on
// the Brave fixture, with a per-key limit of 2: the state arrives with the event-stream answer, a
// 429 before the stream carries it on the error, and a server with the limit off sends none.
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { createServer, loadServerSettings, type OpenMatesServer } from '@openmates/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenMates, RateLimitError } from './index.ts';

const KEY = 'sdk-stream-rate-limit-key-4f1a9c';
let brave: BraveFixture;
let limited: OpenMatesServer;
let unlimited: OpenMatesServer;

beforeAll(async () => {
  brave = await startBraveFixture();
  const env = (extra: Record<string, string>) =>
    loadServerSettings({
      OPENMATES_PROVIDER: 'brave',
      BRAVE_SEARCH_API_KEY: brave.apiKey,
      BRAVE_SEARCH_BASE_URL: brave.baseUrl,
      OPENMATES_CACHE_TTL_S: '0',
      OPENMATES_LOG_LEVEL: 'silent',
      ...extra,
    });
  [limited, unlimited] = await Promise.all([
    createServer(
      env({ OPENMATES_API_KEYS: KEY, OPENMATES_RATE_LIMIT_PER_MIN: '2', OPENMATES_RATE_LIMIT_WINDOW_S: '120' }),
      { version: 'sdk-tests' },
    ),
    createServer(env({ OPENMATES_RATE_LIMIT_PER_MIN: '0' }), { version: 'sdk-tests' }),
  ]);
});
afterAll(async () => {
  await Promise.all([limited?.close(1_000), unlimited?.close(1_000)]);
  await brave?.close();
});

const request = { requests: [{ id: 'q1', query: 'rust' }] };

describe('searchStream rate-limit state on the real server', () => {
  it('is the answer headers’ state from the first event on, and a 429 before the stream carries it', async () => {
    const client = new OpenMates({ apiKey: KEY, baseURL: limited.url, maxRetries: 0 });
    const stream = client.apps.web.searchStream(request);
    expect(stream.rateLimit).toBeUndefined();
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(event.event);
      const state = stream.rateLimit;
      expect(state).toMatchObject({ limit: 2, remaining: 1, policy: 'per-key' });
      expect(state?.resetSeconds).toBeGreaterThan(0);
      expect(state?.resetSeconds).toBeLessThanOrEqual(120);
    }
    expect(seen).toEqual(['group', 'done']);
    // What the stream's headers said is what the uncounted peek says now.
    expect((await client.apps.web.info()).rate_limit?.remaining).toBe(stream.rateLimit?.remaining);

    const last = await client.apps.web.search(request).withResponse();
    expect(last.rateLimit?.remaining).toBe(0);
    const refused = client.apps.web.searchStream(request);
    const error = await refused.finalResponse().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).rateLimit).toMatchObject({ limit: 2, remaining: 0, policy: 'per-key' });
    expect(String((error as RateLimitError).rateLimit?.resetSeconds)).toBe(
      (error as RateLimitError).headers.get('retry-after'),
    );
    expect(refused.rateLimit).toBeUndefined(); // no stream began
  });

  it('is undefined when the server’s limit is off', async () => {
    const stream = new OpenMates({ apiKey: null, baseURL: unlimited.url }).apps.web.searchStream(request);
    expect((await stream.finalResponse()).results).toHaveLength(1);
    expect(stream.rateLimit).toBeUndefined();
  });
});
