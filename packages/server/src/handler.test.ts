import { readFileSync } from 'node:fs';
import {
  ASSERTION_IDS,
  CONTRACT_FINGERPRINT,
  ERROR_TABLE,
  type ErrorCode,
  ErrorResponseSchema,
  MAX_BODY_BYTES,
  PATHS,
  SkillInfoSchema,
  WebSearchResponseSchema,
} from '@openmates/contract';
import { ProviderNotConfiguredError } from '@openmates/core';
import { type BraveFixture, CANARY_API_KEY, expectedBraveResults, startBraveFixture } from '@openmates/fixtures';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failingProvider, startTestServer, type TestServer } from './testing/index.ts';

const API_KEY = 'test-api-key-0123456789abcdef';
const committedOpenapi: unknown = JSON.parse(
  readFileSync(new URL('../../../contract/openapi.json', import.meta.url), 'utf8'),
);

let brave: BraveFixture;
let server: TestServer;
beforeAll(async () => {
  brave = await startBraveFixture();
  server = await startTestServer(brave);
});
afterAll(async () => {
  await server.close();
  await brave.close();
});
beforeEach(() => brave.reset());

const JSON_TYPE = { 'content-type': 'application/json' };

function search(body: unknown, headers: Record<string, string> = {}, origin = server.url): Promise<Response> {
  return fetch(origin + PATHS.search, {
    method: 'POST',
    headers: { ...JSON_TYPE, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Parses an ErrorResponse and checks status, code, JSON type and the request id header. */
async function expectError(response: Response, code: ErrorCode) {
  expect(response.status).toBe(ERROR_TABLE[code].status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = ErrorResponseSchema.parse(await response.json());
  expect(body.code).toBe(code);
  expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.headers.get('x-request-id')).toBe(body.request_id);
  return body;
}

async function expectSearch(response: Response, status: 200 | 502) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = WebSearchResponseSchema.parse(await response.json());
  expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.headers.get('x-request-id')).toBe(body.request_id);
  return body;
}

describe('POST search', () => {
  it('answers 200 with the fixture results', async () => {
    const body = await expectSearch(await search({ requests: [{ id: 'a', query: 'fetch abort', count: 3 }] }), 200);
    expect(body.provider).toBe('Brave Search');
    expect(body.error).toBeUndefined();
    expect(body.results).toHaveLength(1);
    expect(body.results[0]?.id).toBe('a');
    expect(body.results[0]?.results.map((r) => r.url)).toEqual(
      expectedBraveResults('fetch abort', 3, 0).map((r) => r.url),
    );
  });

  it('answers 200 when one group failed, naming it in error with its code', async () => {
    const body = await expectSearch(
      await search({
        requests: [
          { id: 'ok', query: 'fine' },
          { id: 'bad', query: 'unavailable x' },
        ],
      }),
      200,
    );
    expect(body.results.map((g) => [g.id, g.error?.code])).toEqual([
      ['ok', undefined],
      ['bad', 'provider_unavailable'],
    ]);
    expect(body.results[1]?.results).toEqual([]);
    expect(body.error).toContain('"bad"');
    expect(body.error).not.toContain('"ok"');
    expect(body.code).toBe('provider_unavailable');
  });

  it('answers 502 with a full WebSearchResponse when every group failed', async () => {
    const body = await expectSearch(
      await search({
        requests: [
          { id: 1, query: 'error500 x' },
          { id: 2, query: 'unavailable y' },
        ],
      }),
      502,
    );
    expect(body.results.every((g) => g.error !== undefined && g.results.length === 0)).toBe(true);
    expect(body.code).toBe('provider_error');
    expect(body.error).toContain('1, 2');
  });

  it('answers 400 with issues for an invalid request, without calling the provider', async () => {
    const body = await expectError(await search({ requests: [{ query: 'x', max_results: 3 }] }), 'invalid_request');
    expect(body.issues).toEqual([
      { path: 'requests[0].max_results', message: expect.stringContaining('unknown field') },
    ]);
    expect(brave.requests).toHaveLength(0);
  });

  it('answers 400 with an issue at the body for broken JSON', async () => {
    const body = await expectError(await search('{"requests": ['), 'invalid_request');
    expect(body.issues).toEqual([{ path: '', message: 'the body is not valid JSON' }]);
  });

  it("answers 400 naming Brave's 51-word limit before any call", async () => {
    const query = Array.from({ length: 51 }, (_, i) => `w${i}`).join(' ');
    const body = await expectError(await search({ requests: [{ query }] }), 'invalid_request');
    expect(body.issues?.map((i) => i.path)).toEqual(['requests[0].query']);
    expect(body.issues?.[0]?.message).toMatch(/Brave/);
    expect(brave.requests).toHaveLength(0);
  });
});

describe('request bodies', () => {
  const big = JSON.stringify({ requests: [{ query: 'x'.repeat(70 * 1024) }] });

  it('answers 413 for a 70 KB body with its Content-Length', async () => {
    expect(Buffer.byteLength(big)).toBeGreaterThan(MAX_BODY_BYTES);
    await expectError(await search(big), 'payload_too_large');
    expect(brave.requests).toHaveLength(0);
  });

  it('answers 413 for a 70 KB chunked body without Content-Length', async () => {
    const bytes = new TextEncoder().encode(big);
    let sentContentLength: string | null = 'unknown';
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192));
        controller.close();
      },
    });
    const request = new Request(server.url + PATHS.search, {
      method: 'POST',
      headers: JSON_TYPE,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    sentContentLength = request.headers.get('content-length');
    expect(sentContentLength).toBeNull();
    await expectError(await fetch(request), 'payload_too_large');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const body = await expectError(
      await search(JSON.stringify({ requests: [{ query: 'x' }] }), { 'content-type': 'text/plain' }),
      'unsupported_media_type',
    );
    expect(body.error).toMatch(/application\/json/);
  });

  it('accepts application/json with a charset parameter', async () => {
    await expectSearch(
      await search({ requests: [{ query: 'x' }] }, { 'content-type': 'application/json; charset=utf-8' }),
      200,
    );
  });
});

describe('routes', () => {
  it('answers JSON 404 for an unknown route', async () => {
    for (const path of ['/nope', '/v1/apps/web/skills/other', `${PATHS.docs}/assets/missing.js`])
      await expectError(await fetch(server.url + path), 'not_found');
  });

  it('answers JSON 405 with Allow for a wrong method', async () => {
    const cases: [string, string, string][] = [
      ['DELETE', PATHS.search, 'GET, HEAD, POST'],
      ['POST', PATHS.openapi, 'GET, HEAD'],
      ['PUT', PATHS.health, 'GET, HEAD'],
      ['POST', PATHS.docs, 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await fetch(server.url + path, { method });
      await expectError(response, 'method_not_allowed');
      expect(response.headers.get('allow')).toBe(allow);
    }
  });

  it('answers HEAD like GET, without a body', async () => {
    const response = await fetch(server.url + PATHS.health, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.text()).toBe('');
  });

  it('answers /healthz', async () => {
    const response = await fetch(server.url + PATHS.health);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', provider: 'brave', providers: ['brave'] });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets Retry-After on a 502 only when every group failed as provider_rate_limited', async () => {
    const limited = await search({ requests: [{ query: 'ratelimit one' }, { query: 'ratelimit two' }] });
    expect(limited.status).toBe(502);
    expect(((await limited.json()) as { code: string }).code).toBe('provider_rate_limited');
    expect(limited.headers.get('retry-after')).toBe('1');
    const failed = await search({ requests: [{ query: 'unavailable x' }] });
    expect(failed.status).toBe(502);
    expect(failed.headers.get('retry-after')).toBeNull();
  });

  it('serves the committed OpenAPI document', async () => {
    const response = await fetch(server.url + PATHS.openapi);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual(committedOpenapi);
  });

  it('serves skill info with the fingerprint and every assertion id of the catalogue', async () => {
    const response = await fetch(server.url + PATHS.search);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const info = SkillInfoSchema.parse(await response.json());
    expect(info.fingerprint).toBe(CONTRACT_FINGERPRINT);
    expect(info.assertions).toEqual([...ASSERTION_IDS]);
    expect(info.assertions.length).toBeGreaterThan(0);
    expect(info.provider.id).toBe('brave');
    expect(info.limits.max_query_words).toBe(50);
    expect(info.version).toBe('0.0.0-test');
  });

  it('serves /docs as HTML whose assets all load from /docs/assets', async () => {
    const response = await fetch(server.url + PATHS.docs);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).not.toMatch(/https?:\/\//);
    const refs = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1] as string);
    const assets = refs.filter((ref) => ref !== PATHS.openapi);
    expect(assets.length).toBeGreaterThanOrEqual(1);
    for (const ref of assets) {
      expect(ref.startsWith(`${PATHS.docs}/assets/`)).toBe(true);
      const asset = await fetch(server.url + ref);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/^text\/(css|javascript); charset=utf-8$/);
      expect((await asset.text()).length).toBeGreaterThan(0);
    }
  });
});

describe('API keys', () => {
  let keyed: TestServer;
  beforeAll(async () => {
    keyed = await startTestServer(brave, { env: { OPENMATES_API_KEYS: `other-key-0123456789abcd,${API_KEY}` } });
  });
  afterAll(() => keyed.close());

  it('answers 401 with WWW-Authenticate without a key, or with a wrong one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-key-0123456789abcdef' }, { authorization: API_KEY }]) {
      const response = await search({ requests: [{ query: 'x' }] }, headers, keyed.url);
      await expectError(response, 'unauthorized');
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="openmates"/);
    }
    expect(brave.requests).toHaveLength(0);
  });

  it('answers 200 with a configured key', async () => {
    await expectSearch(
      await search({ requests: [{ query: 'x' }] }, { authorization: `Bearer ${API_KEY}` }, keyed.url),
      200,
    );
    await expectSearch(
      await search({ requests: [{ query: 'x' }] }, { authorization: 'bearer other-key-0123456789abcd' }, keyed.url),
      200,
    );
  });

  it('keeps the OpenAPI document, /docs and /healthz public, and keys skill info like searches', async () => {
    for (const path of [PATHS.openapi, PATHS.docs, PATHS.health]) {
      const response = await fetch(keyed.url + path);
      expect([path, response.status]).toEqual([path, 200]);
    }
    const anonymous = await fetch(keyed.url + PATHS.search);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const wrong = await fetch(keyed.url + PATHS.search, {
      headers: { authorization: 'Bearer wrong-key-0123456789abcdef' },
    });
    expect(wrong.status).toBe(401);
    const keyedInfo = await fetch(keyed.url + PATHS.search, { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(keyedInfo.status).toBe(200);
  });

  it('checks the key before reading the body', async () => {
    await expectError(await search('not json', {}, keyed.url), 'unauthorized');
  });
});

describe('rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer(brave, { env: { OPENMATES_RATE_LIMIT_PER_MIN: '2' } });
  });
  afterAll(() => limited.close());

  it('answers 429 with Retry-After on the third search in a minute', async () => {
    await expectSearch(await search({ requests: [{ query: 'one' }] }, {}, limited.url), 200);
    // Skill info is not metered.
    expect((await fetch(limited.url + PATHS.search)).status).toBe(200);
    await expectSearch(await search({ requests: [{ query: 'two' }] }, {}, limited.url), 200);
    const response = await search({ requests: [{ query: 'three' }] }, {}, limited.url);
    await expectError(response, 'rate_limited');
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(brave.requests).toHaveLength(2);
  });
});

describe('provider failures outside the groups', () => {
  it('answers 503 not_configured when the provider becomes unusable', async () => {
    const broken = await startTestServer(brave, {
      provider: failingProvider(() => new ProviderNotConfiguredError('The index file cannot be read.')),
    });
    try {
      const body = await expectError(await search({ requests: [{ query: 'x' }] }, {}, broken.url), 'not_configured');
      expect(body.error).toBe('The index file cannot be read.');
    } finally {
      await broken.close();
    }
  });

  it('answers 500 internal_error without any detail', async () => {
    const buggy = await startTestServer(brave, {
      provider: failingProvider(() => new TypeError('secret detail: cannot read properties of undefined')),
    });
    try {
      const response = await search({ requests: [{ query: 'x' }] }, {}, buggy.url);
      const text = await response.clone().text();
      const body = await expectError(response, 'internal_error');
      expect(body.error).toBe(ERROR_TABLE.internal_error.message);
      expect(Object.keys(body).sort()).toEqual(['code', 'error', 'request_id']);
      expect(text).not.toMatch(/secret detail|TypeError|at /);
      // The request id in the body finds the log line.
      expect(
        buggy.logs.some((line) => line.includes(body.request_id as string) && line.includes('internal error')),
      ).toBe(true);
      expect(buggy.logs.join('')).not.toContain('secret detail');
    } finally {
      await buggy.close();
    }
  });
});

describe('secrets', () => {
  it('never lets the Brave key reach a response body, header or log line', async () => {
    const requests = [
      { requests: [{ query: 'error500 x' }] },
      { requests: [{ query: 'leak x' }] },
      { requests: [{ query: 'leak x' }, { query: 'error500 y' }, { query: 'badkey z' }] },
    ];
    for (const body of requests) {
      for (const path of [PATHS.search, `${PATHS.trpc}/webSearch.search`]) {
        const response = await fetch(server.url + path, {
          method: 'POST',
          headers: JSON_TYPE,
          body: JSON.stringify(body),
        });
        const text = await response.text();
        expect(text.length).toBeGreaterThan(0);
        expect(text).not.toContain(CANARY_API_KEY);
        for (const [name, value] of response.headers) expect(`${name}: ${value}`).not.toContain(CANARY_API_KEY);
      }
    }
    // The fixture did see the key and echo it: the test would catch a leak.
    expect(brave.requests.some((r) => r.headers['x-subscription-token'] === CANARY_API_KEY)).toBe(true);
    expect(server.logs.join('')).not.toContain(CANARY_API_KEY);
  });
});

describe('request ids', () => {
  it("sets x-request-id on the GUI's own answers, logged once under the GUI's route", async () => {
    const withGui = await startTestServer(brave, {
      gui: (_request, response) => response.writeHead(302, { location: '/elsewhere' }).end(),
    });
    try {
      const response = await fetch(`${withGui.url}/gui/page`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/elsewhere');
      const id = response.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      await expect.poll(() => withGui.logs.filter((line) => line.includes(`"request_id":"${id}"`))).toHaveLength(1);
      const line = JSON.parse(withGui.logs.find((l) => l.includes(`"request_id":"${id}"`)) ?? '{}');
      expect([line.route, line.status]).toEqual(['/*', 302]);
    } finally {
      await withGui.close();
    }
  });

  it('sets a distinct x-request-id on every response', async () => {
    const responses = await Promise.all([
      fetch(server.url + PATHS.health),
      fetch(server.url + PATHS.openapi),
      fetch(server.url + PATHS.docs),
      fetch(`${server.url}/nope`),
      search({ requests: [{ query: 'x' }] }),
      search('{'),
    ]);
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
    await Promise.all(responses.map((r) => r.arrayBuffer()));
  });
});

afterEach(() => {
  // Nothing here may leave the fixture slowed down for the next test.
  brave.setLatency(0);
});
