import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { PATHS } from '@openmates/contract';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { createServer, loadServerSettings, type OpenMatesServer } from '@openmates/server';
import { expect, type Page, test } from '@playwright/test';

// A browser app on another origin calling the API through the built npm SDK (packages/sdk/dist):
// pages served from loopback origins of their own, one listed in OPENMATES_ALLOWED_ORIGINS, one not.

const KEY = 'e2e-cors-key-0123456789abcdef';
const SDK = readFileSync(fileURLToPath(import.meta.resolve('@openmates/sdk')), 'utf8');
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>app</title></head><body>
<script type="module">
import { OpenMates } from '/sdk.js';
window.search = async (baseURL, apiKey) => {
  const client = new OpenMates({ baseURL, apiKey, maxRetries: 0 });
  try {
    const { data, rateLimit } = await client.apps.web.search({ requests: [{ query: 'rust vec', count: 2 }] }).withResponse();
    return { ok: true, provider: data.provider, results: data.results[0].results.length, rateLimit };
  } catch (error) {
    return { ok: false, name: error.name };
  }
};
window.ready = true;
</script></body></html>`;

interface PageServer {
  origin: string;
  close(): Promise<void>;
}

/** A static server for the app page and the SDK bundle, on its own loopback port (its own origin). */
async function startPageServer(): Promise<PageServer> {
  const server: Server = createHttpServer((request, response) => {
    const body = request.url === '/sdk.js' ? SDK : PAGE;
    response.writeHead(200, {
      'content-type': request.url === '/sdk.js' ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8',
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let brave: BraveFixture;
let allowed: PageServer;
let other: PageServer;
let api: OpenMatesServer;
let closed: OpenMatesServer;

async function startApi(origins: string): Promise<OpenMatesServer> {
  const env = {
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    OPENMATES_CACHE_TTL_S: '0',
    OPENMATES_LOG_LEVEL: 'silent',
    OPENMATES_API_KEYS: KEY,
    OPENMATES_RATE_LIMIT_PER_MIN: '5',
    OPENMATES_ALLOWED_ORIGINS: origins,
  };
  return createServer(loadServerSettings(env), { version: '0.0.0-e2e' });
}

test.beforeAll(async () => {
  brave = await startBraveFixture();
  [allowed, other] = await Promise.all([startPageServer(), startPageServer()]);
  [api, closed] = await Promise.all([startApi(allowed.origin), startApi('')]);
});
test.afterAll(async () => {
  await Promise.all([api?.close(1_000), closed?.close(1_000), allowed?.close(), other?.close()]);
  await brave?.close();
});
test.beforeEach(() => brave.reset());

/** Opens the app page at `origin` and runs one search through the SDK against `apiUrl`. */
async function searchFrom(page: Page, origin: string, apiUrl: string): Promise<Record<string, unknown>> {
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
  return page.evaluate(
    ([url, key]) =>
      (window as unknown as { search: (u: string, k: string) => Promise<Record<string, unknown>> }).search(
        url as string,
        key as string,
      ),
    [apiUrl, KEY],
  );
}

test('a page on an allowed origin searches through the npm SDK and reads the rate-limit state', async ({ page }) => {
  const answer = await searchFrom(page, allowed.origin, api.url);
  expect(answer).toEqual({
    ok: true,
    provider: 'Brave Search',
    results: 2,
    rateLimit: { limit: 5, remaining: 4, resetSeconds: expect.any(Number), policy: 'per-key' },
  });
  expect(brave.requests).toHaveLength(1);
});

test('the browser blocks the call from an origin that is not listed, before any search runs', async ({ page }) => {
  const answer = await searchFrom(page, other.origin, api.url);
  expect(answer).toEqual({ ok: false, name: 'APIConnectionError' });
  expect(brave.requests).toHaveLength(0);
});

test('with OPENMATES_ALLOWED_ORIGINS empty, a preflight answers 405 as before and the browser blocks the call', async ({
  page,
}) => {
  const preflight = await fetch(`${closed.url}${PATHS.search}`, {
    method: 'OPTIONS',
    headers: { origin: allowed.origin, 'access-control-request-method': 'POST' },
  });
  expect(preflight.status).toBe(405);
  expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  const answer = await searchFrom(page, allowed.origin, closed.url);
  expect(answer).toEqual({ ok: false, name: 'APIConnectionError' });
  expect(brave.requests).toHaveLength(0);
});
