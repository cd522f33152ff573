import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  CORS_ALLOWED_REQUEST_HEADERS,
  CORS_MAX_AGE_S,
  PATHS,
  parseRateLimitHeaders,
  SkillInfoSchema,
} from '@openmates/contract';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadServerConfig } from './env.ts';
import { startTestServer, type TestServer } from './testing/index.ts';

const KEY = 'rate-limit-test-key-0123456789';
const OTHER_KEY = 'rate-limit-other-key-0123456789';
const ALLOWED = 'https://app.example.com';
const JSON_TYPE = { 'content-type': 'application/json' };
const AUTH = { authorization: `Bearer ${KEY}` };

let brave: BraveFixture;
beforeAll(async () => {
  brave = await startBraveFixture();
});
afterAll(() => brave.close());
beforeEach(() => brave.reset());

/** The state an answer carries, `undefined` without the headers. */
function stateOf(response: Response) {
  return parseRateLimitHeaders(response.headers.get('ratelimit-policy'), response.headers.get('ratelimit'));
}

function search(url: string, headers: Record<string, string> = {}, body: unknown = { requests: [{ query: 'rust' }] }) {
  return fetch(url + PATHS.search, {
    method: 'POST',
    headers: { ...JSON_TYPE, ...AUTH, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function skillInfo(url: string, key = KEY) {
  const response = await fetch(url + PATHS.search, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  return SkillInfoSchema.parse(await response.json());
}

describe('rate-limit headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(brave, {
      env: {
        OPENMATES_API_KEYS: `${KEY},${OTHER_KEY}`,
        OPENMATES_RATE_LIMIT_PER_MIN: '3',
        OPENMATES_RATE_LIMIT_WINDOW_S: '90',
      },
    });
  });
  afterAll(() => server.close());

  it('counts down on REST answers, names the window, and carries the state on the 429', async () => {
    const first = await search(server.url);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"per-key";q=3;w=90');
    expect(first.headers.get('ratelimit')).toMatch(/^"per-key";r=2;t=\d+$/);
    // The limiter's own window: past a minute, so not the default.
    const reset = stateOf(first)?.reset_seconds ?? -1;
    expect(reset).toBeGreaterThan(60);
    expect(reset).toBeLessThanOrEqual(90);
    // A body refused after the count still says what it cost.
    const refused = await search(server.url, {}, 'not json');
    expect(refused.status).toBe(400);
    expect(stateOf(refused)).toMatchObject({ limit: 3, remaining: 1, policy: 'per-key' });
    const stream = await search(server.url, { accept: 'text/event-stream' });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stateOf(stream)).toMatchObject({ limit: 3, remaining: 0 });
    await stream.text();
    const limited = await search(server.url);
    expect(limited.status).toBe(429);
    expect(stateOf(limited)).toMatchObject({ limit: 3, remaining: 0 });
    expect(stateOf(limited)?.reset_seconds).toBe(Number(limited.headers.get('retry-after')));
  });

  it('peeks in skill info without consuming, and keeps keys apart', async () => {
    const fresh = await skillInfo(server.url, OTHER_KEY);
    expect(fresh.rate_limit).toEqual({ limit: 3, remaining: 3, reset_seconds: 0, policy: 'per-key' });
    const skill = await fetch(server.url + PATHS.search, { headers: { authorization: `Bearer ${OTHER_KEY}` } });
    // Skill info is not counted: no headers.
    expect(skill.headers.get('ratelimit')).toBeNull();
    await skill.text();
    expect((await skillInfo(server.url, OTHER_KEY)).rate_limit?.remaining).toBe(3);
    const counted = await search(server.url, { authorization: `Bearer ${OTHER_KEY}` });
    expect(stateOf(counted)?.remaining).toBe(2);
    const after = await skillInfo(server.url, OTHER_KEY);
    expect(after.rate_limit?.remaining).toBe(2);
    expect(after.rate_limit?.reset_seconds).toBeGreaterThan(0);
  });

  it('carries the headers on tRPC answers', async () => {
    const response = await fetch(`${server.url}${PATHS.trpc}/webSearch.search`, {
      method: 'POST',
      headers: { ...JSON_TYPE, authorization: `Bearer ${OTHER_KEY}` },
      body: JSON.stringify({ requests: [{ query: 'rust' }] }),
    });
    expect(response.status).toBe(200);
    expect(stateOf(response)).toMatchObject({ limit: 3, remaining: 1 });
  });

  it('carries the headers on the /mcp answer of a tools/call, and not on other MCP calls', async () => {
    const seen: Response[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}${PATHS.mcp}`), {
      requestInit: { headers: { authorization: `Bearer ${OTHER_KEY}` } },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        seen.push(response);
        return response;
      },
    });
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(transport);
    try {
      await client.listTools();
      expect(seen.some((r) => r.headers.has('ratelimit'))).toBe(false);
      seen.length = 0;
      const result = (await client.callTool({
        name: 'web_search',
        arguments: { requests: [{ query: 'rust' }] },
      })) as CallToolResult;
      expect(result.isError).toBeUndefined();
      expect(seen.map(stateOf).find((s) => s !== undefined)).toMatchObject({ limit: 3, remaining: 0 });
      // A refused call says so in its own answer's headers too.
      seen.length = 0;
      const refused = (await client.callTool({
        name: 'web_search',
        arguments: { requests: [{ query: 'rust' }] },
      })) as CallToolResult;
      expect(refused.structuredContent).toMatchObject({ code: 'rate_limited' });
      expect(seen.map(stateOf).find((s) => s !== undefined)).toMatchObject({ limit: 3, remaining: 0 });
    } finally {
      await client.close();
    }
  });
});

describe('OPENMATES_RATE_LIMIT_WINDOW_S', () => {
  it('defaults to a minute and refuses anything but whole seconds from 1 to 86400, by name', () => {
    expect(loadServerConfig({}).rateLimitWindowS).toBe(60);
    expect(loadServerConfig({ OPENMATES_RATE_LIMIT_WINDOW_S: '5' }).rateLimitWindowS).toBe(5);
    for (const bad of ['0', '1.5', 'soon', '86401'])
      expect(() => loadServerConfig({ OPENMATES_RATE_LIMIT_WINDOW_S: bad })).toThrow(/OPENMATES_RATE_LIMIT_WINDOW_S/);
  });
});

describe('with the limit off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(brave, { env: { OPENMATES_API_KEYS: KEY } });
  });
  afterAll(() => server.close());

  it('sends no rate-limit headers and no state in skill info', async () => {
    const response = await search(server.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toBeNull();
    expect(response.headers.get('ratelimit-policy')).toBeNull();
    expect((await skillInfo(server.url)).rate_limit).toBeUndefined();
  });

  it('answers a preflight 405 and sends no CORS headers without allowed origins', async () => {
    const preflight = await fetch(server.url + PATHS.search, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(405);
    expect([...preflight.headers.keys()].filter((h) => h.startsWith('access-control-') || h === 'vary')).toEqual([]);
    const response = await search(server.url, { origin: ALLOWED });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('vary')).toBeNull();
  });
});

describe('CORS for the allowed origins', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(brave, {
      env: { OPENMATES_API_KEYS: KEY, OPENMATES_RATE_LIMIT_PER_MIN: '10', OPENMATES_ALLOWED_ORIGINS: ALLOWED },
    });
  });
  afterAll(() => server.close());

  const preflight = (path: string, origin: string) =>
    fetch(server.url + path, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  /** A header's comma-separated list (HTTP allows any spacing after the commas). */
  const list = (value: string | null) => value?.split(/,\s*/);

  it('answers a preflight from an allowed origin with the route table’s methods', async () => {
    const response = await preflight(PATHS.search, ALLOWED);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(list(response.headers.get('access-control-allow-methods'))).toEqual(['GET', 'HEAD', 'POST']);
    expect(list(response.headers.get('access-control-allow-headers'))).toEqual([...CORS_ALLOWED_REQUEST_HEADERS]);
    expect(response.headers.get('access-control-max-age')).toBe(String(CORS_MAX_AGE_S));
    expect(list(response.headers.get('vary'))).toContain('Origin');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    const trpc = await preflight(`${PATHS.trpc}/webSearch.search`, ALLOWED);
    expect(trpc.status).toBe(204);
    expect(list(trpc.headers.get('access-control-allow-methods'))).toEqual(['POST']);
    expect(list((await preflight('/healthz', ALLOWED)).headers.get('access-control-allow-methods'))).toEqual([
      'GET',
      'HEAD',
    ]);
  });

  it('refuses a preflight from an origin not listed as before, with no CORS headers', async () => {
    const response = await preflight(PATHS.search, 'https://evil.example.com');
    expect(response.status).toBe(405);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('echoes an allowed origin on actual answers and exposes the headers a page reads', async () => {
    for (const response of [
      await search(server.url, { origin: ALLOWED }),
      await fetch(`${server.url}/healthz`, { headers: { origin: ALLOWED } }),
    ]) {
      expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(list(response.headers.get('access-control-expose-headers'))).toEqual([
        'RateLimit',
        'RateLimit-Policy',
        'Retry-After',
        'X-Request-Id',
      ]);
      expect(response.headers.get('vary')).toBe('Origin');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      await response.text();
    }
    const stream = await search(server.url, { origin: ALLOWED, accept: 'text/event-stream' });
    expect(stream.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    await stream.text();
  });

  it('sends no CORS headers to an origin not listed', async () => {
    const response = await search(server.url, { origin: 'https://evil.example.com' });
    expect(response.status).toBe(200);
    expect([...response.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    // Caches must still keep the answers per origin apart.
    expect(response.headers.get('vary')).toBe('Origin');
  });
});
