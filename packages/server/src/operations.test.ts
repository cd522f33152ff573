import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ErrorResponseSchema,
  PATHS,
  ReadinessSchema,
  TRPC_SEARCH_PROCEDURE,
  WebSearchResponseSchema,
} from '@openmates/contract';
import { createLocalProvider, type SearchProvider } from '@openmates/core';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/index.ts';

let brave: BraveFixture;
beforeAll(async () => {
  brave = await startBraveFixture();
});
afterAll(() => brave.close());
beforeEach(() => brave.reset());

function search(url: string, requests: unknown[], headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url + PATHS.search, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ requests }),
  });
}

/** The samples of the Prometheus text: `name{labels}` → value. */
async function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<Map<string, number>> {
  const response = await fetch(server.url + PATHS.metrics, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const route = (path: string, status: number) => `openmates_http_requests_total{route="${path}",status="${status}"}`;

describe('GET /metrics', () => {
  it('counts exactly the requests, groups, provider calls and cache lookups of a scripted run', async () => {
    const server = await startTestServer(brave, { engineEnv: { OPENMATES_CACHE_TTL_S: '60' } });
    try {
      expect((await search(server.url, [{ query: 'alpha' }, { query: 'error500 beta' }])).status).toBe(200);
      expect((await search(server.url, [{ query: 'alpha' }])).status).toBe(200); // a cache hit
      expect((await search(server.url, [{ query: 'unavailable gamma' }])).status).toBe(502);
      expect((await search(server.url, [{ query: '' }])).status).toBe(400);
      expect((await fetch(server.url + PATHS.search)).status).toBe(200);
      expect((await fetch(`${server.url}/nothing-here`)).status).toBe(404);
      expect((await fetch(server.url + PATHS.ready)).status).toBe(200);
      const samples = await scrape(server);
      expect(samples.get(route(PATHS.search, 200))).toBe(3); // two searches and skill info
      expect(samples.get(route(PATHS.search, 502))).toBe(1);
      expect(samples.get(route(PATHS.search, 400))).toBe(1);
      expect(samples.get(route('other', 404))).toBe(1);
      expect(samples.get(route(PATHS.ready, 200))).toBe(1);
      expect(samples.get('openmates_search_groups_total{code="ok"}')).toBe(2);
      expect(samples.get('openmates_search_groups_total{code="provider_error"}')).toBe(1);
      expect(samples.get('openmates_search_groups_total{code="provider_unavailable"}')).toBe(1);
      expect(samples.get('openmates_provider_call_seconds_count{provider="brave",outcome="ok"}')).toBe(1);
      expect(samples.get('openmates_provider_call_seconds_count{provider="brave",outcome="provider_error"}')).toBe(1);
      expect(
        samples.get('openmates_provider_call_seconds_count{provider="brave",outcome="provider_unavailable"}'),
      ).toBe(1);
      expect(brave.requests.length).toBe(3);
      expect(samples.get('openmates_cache_total{result="hit"}')).toBe(1);
      expect(samples.get('openmates_cache_total{result="miss"}')).toBe(3);
      expect(samples.get('openmates_rate_limited_total')).toBe(0);
      expect(samples.get('openmates_redis_up')).toBe(0);
      // Process readings for the soak.
      expect(samples.get('process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(samples.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      // The scrape itself is counted by the next one.
      expect((await scrape(server)).get(route(PATHS.metrics, 200))).toBe(1);
      server.metrics.setRedisUp(true);
      expect((await scrape(server)).get('openmates_redis_up')).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('keeps one `other` label however many unknown paths are scanned', async () => {
    const server = await startTestServer(brave);
    try {
      for (let i = 0; i < 40; i += 1)
        expect((await fetch(`${server.url}/scan/${i}/wp-admin.php?x=${i}`)).status).toBe(404);
      await fetch(`${server.url}/v1/unknown-${Math.random()}`);
      const routes = [...(await scrape(server)).keys()].filter((k) => k.startsWith('openmates_http_requests_total'));
      expect(routes).toEqual([route('other', 404)]);
      expect((await scrape(server)).get(route('other', 404))).toBe(41);
    } finally {
      await server.close();
    }
  });

  it('holds no query text, key or address, sits behind the API keys and is not rate limited', async () => {
    const key = 'canary-metrics-key-5c1e0a9d77';
    const server = await startTestServer(brave, {
      env: { OPENMATES_API_KEYS: key, OPENMATES_RATE_LIMIT_PER_MIN: '1' },
    });
    try {
      const auth = { authorization: `Bearer ${key}` };
      const canaryQuery = 'canaryquery7f3a zebra';
      const canaryAddress = '203.0.113.77';
      expect(
        (await search(server.url, [{ query: canaryQuery }], { ...auth, 'x-forwarded-for': canaryAddress })).status,
      ).toBe(200);
      expect((await search(server.url, [{ query: canaryQuery }], auth)).status).toBe(429);
      expect(
        (await search(server.url, [{ query: canaryQuery }], { authorization: 'Bearer wrong-key-canary-9d' })).status,
      ).toBe(401);
      expect((await fetch(server.url + PATHS.metrics)).status).toBe(401);
      // Scraped three times under a limit of one search a minute: never refused.
      await scrape(server, auth);
      await scrape(server, auth);
      const response = await fetch(server.url + PATHS.metrics, { headers: auth });
      expect(response.status).toBe(200);
      const text = await response.text();
      for (const canary of ['canaryquery7f3a', 'zebra', key, 'wrong-key-canary', canaryAddress, '127.0.0.1'])
        expect(text).not.toContain(canary);
      expect(text).toContain('openmates_rate_limited_total 1');
      expect(text).toContain(`${route(PATHS.search, 401)} 1`);
    } finally {
      await server.close();
    }
  });
});

describe('GET /readyz', () => {
  it('answers 503 until the local index is ready, then 200, with no provider call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openmates-ready-'));
    const local = createLocalProvider({ indexPath: join(dir, 'index.db'), demo: false });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    // A causal gate in front of the real index's preparation.
    const provider: SearchProvider = {
      ...local,
      async ready() {
        await gate;
        await local.ready();
      },
    };
    const server = await startTestServer(brave, { provider });
    try {
      const before = await fetch(server.url + PATHS.ready);
      expect(before.status).toBe(503);
      expect(ErrorResponseSchema.parse(await before.json())).toMatchObject({ code: 'not_configured' });
      expect((await fetch(server.url + PATHS.health)).status).toBe(200);
      open();
      expect(await server.handler.prepared).toBe(true);
      const after = await fetch(server.url + PATHS.ready);
      expect(after.status).toBe(200);
      expect(ReadinessSchema.parse(await after.json())).toEqual({
        status: 'ready',
        provider: 'local',
        providers: ['local'],
      });
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never reaches a paid provider, and turns 503 first when the server drains', async () => {
    const server = await startTestServer(brave);
    try {
      for (let i = 0; i < 5; i += 1) expect((await fetch(server.url + PATHS.ready)).status).toBe(200);
      expect(brave.requests).toEqual([]);
      server.handler.drain();
      const draining = await fetch(server.url + PATHS.ready);
      expect(draining.status).toBe(503);
      expect(draining.headers.get('connection')).toBe('close');
      expect((await fetch(server.url + PATHS.health)).status).toBe(200);
      // New searches are refused on both transports, before any provider call.
      const rest = await search(server.url, [{ query: 'after drain' }]);
      expect([rest.status, rest.headers.get('connection')]).toEqual([503, 'close']);
      const trpc = await fetch(`${server.url}${PATHS.trpc}/${TRPC_SEARCH_PROCEDURE}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requests: [{ query: 'after drain' }] }),
      });
      expect([trpc.status, trpc.headers.get('connection')]).toEqual([503, 'close']);
      expect(brave.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

/** Sends a search by hand, so the test can drop the connection; resolves once the body is sent. */
function rawSearch(url: string, query: string): { sent: Promise<void>; destroy(): void; done: Promise<unknown> } {
  const body = JSON.stringify({ requests: [{ query }] });
  const req = httpRequest(url + PATHS.search, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const done = new Promise((resolve) => {
    req.on('response', (res) => res.resume().on('end', () => resolve(res.statusCode)));
    req.on('error', resolve);
  });
  const sent = new Promise<void>((resolve) => req.end(body, resolve));
  return { sent, destroy: () => req.destroy(), done };
}

/** A socket that sends `chunks` one at a time, each after the previous write went out, then stalls. */
function trickle(url: string, chunks: string[]): Promise<{ received: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(Number(port), hostname, async () => {
      for (const chunk of chunks) await new Promise<void>((done) => socket.write(chunk, () => done()));
    });
    socket.setEncoding('utf8').on('data', (data: string) => (received += data));
    socket.on('error', () => {}); // a reset counts as being cut off, like an orderly close
    socket.on('close', () => resolve({ received }));
    socket.on('timeout', () => reject(new Error('no timeout')));
  });
}

/**
 * The slow-client tests set 300/600 ms deadlines and allow 8 s (over 10x slack): below the server's
 * 10 s default, so a test fails if the options stopped reaching node:http, not only if the
 * deadlines were gone.
 */
const SLOW_CLIENT_TEST = { timeout: 8_000 };

describe('faults over real HTTP', () => {
  it('a client that disconnects mid-search aborts its provider call', async () => {
    const server = await startTestServer(brave);
    try {
      const client = rawSearch(server.url, 'hold disconnect me');
      await client.sent;
      await brave.waitForHeld(1);
      client.destroy();
      // The fixture still holds the answer: only an abort passed on by the server ends the call.
      await brave.waitForAborted(1);
      expect(brave.heldAborted).toBe(1);
      const samples = await scrape(server);
      expect(samples.get('openmates_provider_call_seconds_count{provider="brave",outcome="aborted"}')).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('cuts off a client that sends its headers byte by byte, without holding others up', SLOW_CLIENT_TEST, async () => {
    const server = await startTestServer(brave, { listen: { headersTimeoutMs: 300, bodyTimeoutMs: 600 } });
    try {
      const head = `POST ${PATHS.search} HTTP/1.1\r\nHost: x\r\n`;
      const slow = trickle(server.url, [...head]);
      // Others are served while it trickles.
      const other = await search(server.url, [{ query: 'served meanwhile' }]);
      expect(other.status).toBe(200);
      WebSearchResponseSchema.parse(await other.json());
      const { received } = await slow;
      expect(received).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await server.close();
    }
  });

  it('cuts off a client that sends its body byte by byte, without holding others up', SLOW_CLIENT_TEST, async () => {
    const server = await startTestServer(brave, { listen: { headersTimeoutMs: 300, bodyTimeoutMs: 600 } });
    try {
      const body = JSON.stringify({ requests: [{ query: 'never finished' }] });
      const head = `POST ${PATHS.search} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const slow = trickle(server.url, [head, ...body.slice(0, 10)]);
      const other = await search(server.url, [{ query: 'served meanwhile' }]);
      expect(other.status).toBe(200);
      const { received } = await slow;
      // Cut off with no search answer; the provider never saw the unfinished request.
      expect(received).not.toContain('"results"');
      expect(brave.requests.some((r) => r.query.q === 'never finished')).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('a provider that resets mid-answer is a visible group error, and the server serves on', async () => {
    const server = await startTestServer(brave);
    try {
      const broken = await search(server.url, [
        { id: 'r', query: 'reset midway' },
        { id: 'ok', query: 'fine' },
      ]);
      expect(broken.status).toBe(200);
      const body = WebSearchResponseSchema.parse(await broken.json());
      expect(body.results[0]?.error?.code).toMatch(/^provider_(unavailable|error)$/);
      expect(body.results[0]?.results).toEqual([]);
      expect(body.results[1]?.results.length).toBe(10);
      const alone = await search(server.url, [{ query: 'reset again' }]);
      expect(alone.status).toBe(502);
      WebSearchResponseSchema.parse(await alone.json());
      expect((await search(server.url, [{ query: 'after' }])).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
