import { request as httpRequest } from 'node:http';
import { API_NAMESPACE, PATHS, ROUTES, WebSearchResponseSchema } from '@openmates/contract';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './testing/index.ts';

let brave: BraveFixture;
beforeAll(async () => {
  brave = await startBraveFixture();
});
afterAll(() => brave.close());

/** Resolves with the error code of a request on a new connection (no keep-alive pool). */
function connectError(url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = httpRequest(url + PATHS.health, { agent: false }, (res) => {
      res.resume();
      resolve(undefined);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code));
    req.end();
  });
}

describe('listen()', () => {
  it('finishes an in-flight search on close(), answers new requests 503 with Connection: close meanwhile, then stops listening', async () => {
    const server = await startTestServer(brave);
    try {
      const pending = fetch(server.url + PATHS.search, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requests: [{ query: 'hold slow shutdown' }] }),
      });
      await brave.waitForHeld(1);
      const closed = server.running.close();
      const refused = await fetch(server.url + PATHS.search, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requests: [{ query: 'new work' }] }),
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('connection')).toBe('close');
      expect(await refused.json()).toMatchObject({ code: 'not_configured' });
      expect(brave.requests.some((r) => r.query.q === 'new work')).toBe(false);
      brave.release();
      const response = await pending;
      expect(response.status).toBe(200);
      // The finished request's connection is closed with it, so close() need not wait for keep-alive.
      expect(response.headers.get('connection')).toBe('close');
      const body = WebSearchResponseSchema.parse(await response.json());
      expect(body.results[0]?.results.length).toBe(10);
      await closed;
      expect(server.running.server.listening).toBe(false);
      expect(await connectError(server.url)).toBe('ECONNREFUSED');
    } finally {
      await server.close().catch(() => {});
    }
  });

  it('reports the origin it listens on', async () => {
    const server = await startTestServer(brave);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(server.url + PATHS.health)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('request bodies through node:http', () => {
  /** POSTs raw bytes with an exact Content-Length (or chunked without one) and reads the answer. */
  function post(url: string, body: string, declared: boolean): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (declared) headers['content-length'] = String(Buffer.byteLength(body));
      const req = httpRequest(url + PATHS.search, { method: 'POST', headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('reads a declared or chunked body alike: results, 400 for bad JSON, 413 over 64 KiB', async () => {
    const server = await startTestServer(brave);
    try {
      for (const declared of [true, false]) {
        const ok = await post(server.url, JSON.stringify({ requests: [{ query: 'bodies ünïcode' }] }), declared);
        expect(ok.status, `declared ${declared}`).toBe(200);
        expect(WebSearchResponseSchema.parse(JSON.parse(ok.body)).results[0]?.results.length).toBe(10);
        const bad = await post(server.url, '{"requests": [', declared);
        expect(bad.status).toBe(400);
        expect(JSON.parse(bad.body).code).toBe('invalid_request');
        const big = await post(server.url, JSON.stringify({ requests: [{ query: 'x'.repeat(70_000) }] }), declared);
        expect(big.status).toBe(413);
      }
    } finally {
      await server.close();
    }
  });
});

describe('the one request path', () => {
  it('answers results, 400, 401, 415 and 429 with one log line each, in order', async () => {
    // The 415 is refused at the body's limits, before the key and the count: two counted requests
    // (the 200 and the 400) use up the limit.
    const env = { OPENMATES_API_KEYS: 'key-for-the-node-path-test', OPENMATES_RATE_LIMIT_PER_MIN: '2' };
    const server = await startTestServer(brave, { env });
    try {
      const cases: { body: string; headers: Record<string, string> }[] = [
        { body: JSON.stringify({ requests: [{ query: 'same answer', id: 'a' }] }), headers: {} },
        { body: JSON.stringify({ requests: [{ query: 'x', count: 99 }] }), headers: {} },
        { body: '{}', headers: { authorization: 'Bearer wrong' } },
        { body: '{}', headers: { 'content-type': 'text/plain' } },
        { body: '{}', headers: {} },
      ];
      const statuses: number[] = [];
      for (const { body, headers } of cases) {
        const response = await fetch(server.url + PATHS.search, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: 'Bearer key-for-the-node-path-test',
            ...headers,
          },
          body,
        });
        const answer = (await response.json()) as { request_id?: string };
        if (response.status !== 200) expect(response.headers.get('x-request-id')).toBe(answer.request_id);
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 400, 401, 415, 429]);
      await expect
        .poll(() =>
          server.logs.filter((line) => line.includes('"event":"http"')).map((line) => JSON.parse(line).status),
        )
        .toEqual(statuses);
    } finally {
      await server.close();
    }
  });
});

describe('listen with a fallback (the GUI on the same origin)', () => {
  it('hands every path of the route table to the API and the rest to the fallback', async () => {
    const server = await startTestServer(brave, {
      gui: (_request, response) => response.writeHead(200, { 'x-fallback': 'gui' }).end('gui'),
    });
    try {
      const api = [...new Set(ROUTES.flatMap((r) => [r.path, ...(r.prefix ? [r.prefix, `${r.prefix}/x`] : [])]))];
      for (const path of [...api, `${API_NAMESPACE}/nope`]) {
        const response = await fetch(server.url + path);
        await response.body?.cancel();
        expect([path, response.headers.get('x-fallback'), response.headers.has('x-request-id')]).toEqual([
          path,
          null,
          true,
        ]);
      }
      for (const path of ['/', '/search', '/docsx', '/trpcx', '/mcp/x', API_NAMESPACE]) {
        const response = await fetch(server.url + path);
        expect([path, response.headers.get('x-fallback'), await response.text()]).toEqual([path, 'gui', 'gui']);
      }
    } finally {
      await server.close();
    }
  });
});
