import { request as httpRequest } from 'node:http';
import { PATHS, WebSearchResponseSchema } from '@openmates/contract';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baseEnv, requireBuild, type ServeProcess, startServe } from './run-cli.ts';

let brave: BraveFixture;
let env: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  brave = await startBraveFixture();
  env = baseEnv({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    OPENMATES_LOG_LEVEL: 'silent',
    OPENMATES_RATE_LIMIT_PER_MIN: '0',
  });
});
afterAll(() => brave?.close());
beforeEach(() => brave.reset());

/** Resolves once the server's stderr holds `text` (it prints when SIGTERM was taken in). */
function stderrShows(server: ServeProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!server.stderr().includes(text)) return;
      server.child.stderr?.off('data', check);
      resolve();
    };
    server.child.stderr?.on('data', check);
    check();
  });
}

/**
 * One request on a connection of its own. After SIGTERM the server closes idle keep-alive
 * connections, and a pooled client (fetch) could pick one as it closes: a race of the client's, not
 * the drain's.
 */
function fresh(
  url: string,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        agent: false,
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function search(url: string, query: string): Promise<Response> {
  return fetch(url + PATHS.search, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ requests: [{ query }] }),
  });
}

describe('openmates serve on SIGTERM', () => {
  it('turns /readyz 503, refuses new searches, finishes the searches in flight and exits 0', async () => {
    const server = await startServe(['--port', '0', '--no-gui'], { ...env, OPENMATES_DRAIN_MS: '60000' });
    try {
      expect((await fetch(server.url + PATHS.ready)).status).toBe(200);
      const inFlight = Array.from({ length: 6 }, (_, i) => search(server.url, `hold in flight ${i}`));
      await brave.waitForHeld(6);
      server.child.kill('SIGTERM');
      await stderrShows(server, 'refusing new work');
      const ready = await fresh(server.url + PATHS.ready);
      expect(ready.status).toBe(503);
      const refused = await fresh(server.url + PATHS.search, JSON.stringify({ requests: [{ query: 'new work' }] }));
      expect(refused.status).toBe(503);
      expect(refused.headers.connection).toBe('close');
      expect(JSON.parse(refused.text)).toMatchObject({ code: 'not_configured' });
      expect(brave.requests.some((r) => r.query.q === 'new work')).toBe(false);
      brave.release();
      for (const answer of await Promise.all(inFlight)) {
        expect(answer.status).toBe(200);
        expect(WebSearchResponseSchema.parse(await answer.json()).results[0]?.results.length).toBe(10);
      }
      expect(await server.exited).toBe(0);
      expect(brave.heldAborted).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('cuts off what is still running at the drain deadline, aborting its provider calls, and exits 0', async () => {
    const server = await startServe(['--port', '0', '--no-gui'], { ...env, OPENMATES_DRAIN_MS: '200' });
    try {
      const stuck = search(server.url, 'hold past the deadline').then(
        (response) => response.status,
        () => 'cut off',
      );
      await brave.waitForHeld(1);
      server.child.kill('SIGTERM');
      await stderrShows(server, 'up to 200 ms');
      // Never released: only the deadline ends it, and the provider sees the call aborted.
      expect(await server.exited).toBe(0);
      expect(await stuck).toBe('cut off');
      await brave.waitForAborted(1);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
