import {
  ERROR_TABLE,
  type ErrorCode,
  ErrorResponseSchema,
  PATHS,
  TRPC_SEARCH_PROCEDURE,
  WebSearchResponseSchema,
  z,
} from '@openmates/contract';
import { ProviderNotConfiguredError } from '@openmates/core';
import { type BraveFixture, expectedBraveResults, startBraveFixture } from '@openmates/fixtures';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failingProvider, startTestServer, type TestServer } from './testing/index.ts';
import { TRPC_CODES } from './trpc-router.ts';

const API_KEY = 'test-api-key-0123456789abcdef';
const JSON_TYPE = { 'content-type': 'application/json' };

const SuccessEnvelope = z.strictObject({ result: z.strictObject({ data: WebSearchResponseSchema }) });
const ErrorEnvelope = z.strictObject({
  error: z.strictObject({
    message: z.string().min(1),
    code: z.int(),
    data: z.strictObject({ ...ErrorResponseSchema.shape, httpStatus: z.int() }),
  }),
});

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

function call(
  body: unknown,
  options: { headers?: Record<string, string>; origin?: string; query?: string; method?: string } = {},
): Promise<Response> {
  const url = `${options.origin ?? server.url}${PATHS.trpc}/${TRPC_SEARCH_PROCEDURE}${options.query ?? ''}`;
  const method = options.method ?? 'POST';
  return fetch(url, {
    method,
    headers: { ...JSON_TYPE, ...options.headers },
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

/** Parses tRPC's error envelope and checks the contract error inside it against the HTTP answer. */
async function expectError(response: Response, code: ErrorCode) {
  expect(response.status).toBe(ERROR_TABLE[code].status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const { error } = ErrorEnvelope.parse(await response.json());
  expect(error.data.code).toBe(code);
  expect(error.data.httpStatus).toBe(response.status);
  expect(error.message).toBe(error.data.error);
  expect(error.data.request_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.headers.get('x-request-id')).toBe(error.data.request_id);
  return error;
}

async function expectSuccess(response: Response) {
  expect(response.status).toBe(200);
  const { result } = SuccessEnvelope.parse(await response.json());
  expect(response.headers.get('x-request-id')).toBe(result.data.request_id);
  return result.data;
}

describe('TRPC_CODES', () => {
  it("gives every contract code the tRPC code of the error table's status", () => {
    for (const [code, { status }] of Object.entries(ERROR_TABLE) as [ErrorCode, { status: number }][])
      expect([code, getHTTPStatusCodeFromError(new TRPCError({ code: TRPC_CODES[code] }))]).toEqual([code, status]);
    expect(TRPC_CODES.invalid_request).toBe('BAD_REQUEST');
  });
});

describe('tRPC webSearch.search', () => {
  it('answers the success envelope with a WebSearchResponse', async () => {
    const data = await expectSuccess(await call({ requests: [{ id: 'a', query: 'trpc works', count: 2 }] }));
    expect(data.results[0]?.results.map((r) => r.url)).toEqual(
      expectedBraveResults('trpc works', 2, 0).map((r) => r.url),
    );
  });

  it('answers a batch where every group failed in the success envelope, every group carrying its error', async () => {
    const data = await expectSuccess(await call({ requests: [{ query: 'error500 x' }] }));
    expect(data.results[0]?.error?.code).toBe('provider_error');
    expect(data.code).toBe('provider_error');
  });

  it('answers 400 with the same issues as REST for an invalid request', async () => {
    const body = { requests: [{ query: '', count: 40, max_results: 1 }] };
    const error = await expectError(await call(body), 'invalid_request');
    const rest = ErrorResponseSchema.parse(
      await (
        await fetch(server.url + PATHS.search, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(body) })
      ).json(),
    );
    expect(error.data.issues).toEqual(rest.issues);
    expect(error.data.error).toBe(rest.error);
    expect(error.data.issues?.map((i) => i.path).sort()).toEqual([
      'requests[0].count',
      'requests[0].max_results',
      'requests[0].query',
    ]);
    expect(brave.requests).toHaveLength(0);
  });

  it('answers 400 for broken JSON', async () => {
    const error = await expectError(await call('{"requests":'), 'invalid_request');
    expect(error.data.issues).toEqual([{ path: '', message: 'the body is not valid JSON' }]);
  });

  it("answers 400 naming Brave's word limit", async () => {
    const query = Array.from({ length: 51 }, (_, i) => `w${i}`).join(' ');
    const error = await expectError(await call({ requests: [{ query }] }), 'invalid_request');
    expect(error.data.issues?.map((i) => i.path)).toEqual(['requests[0].query']);
    expect(brave.requests).toHaveLength(0);
  });

  it('answers 413 for a 70 KB body', async () => {
    await expectError(await call({ requests: [{ query: 'x'.repeat(70 * 1024) }] }), 'payload_too_large');
  });

  it('answers 415 for a body that is not JSON', async () => {
    await expectError(
      await call({ requests: [{ query: 'x' }] }, { headers: { 'content-type': 'text/plain' } }),
      'unsupported_media_type',
    );
  });

  it('refuses batching', async () => {
    const error = await expectError(
      await call({ 0: { requests: [{ query: 'x' }] } }, { query: '?batch=1' }),
      'invalid_request',
    );
    expect(error.message).toMatch(/batch/i);
    expect(brave.requests).toHaveLength(0);
  });

  it('refuses GET and HEAD with 405 and Allow: POST', async () => {
    const input = encodeURIComponent(JSON.stringify({ requests: [{ query: 'x' }] }));
    const response = await call(undefined, { method: 'GET', query: `?input=${input}` });
    await expectError(response, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('POST');
    const head = await call(undefined, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST');
    expect(brave.requests).toHaveLength(0);
  });

  it('answers 404 for an unknown procedure', async () => {
    const response = await fetch(`${server.url}${PATHS.trpc}/webSearch.nope`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: '{}',
    });
    await expectError(response, 'not_found');
  });
});

describe('tRPC with keys and a rate limit', () => {
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startTestServer(brave, {
      env: { OPENMATES_API_KEYS: API_KEY, OPENMATES_RATE_LIMIT_PER_MIN: '2' },
    });
  });
  afterAll(() => guarded.close());

  it('answers 401 with WWW-Authenticate without a key', async () => {
    const response = await call({ requests: [{ query: 'x' }] }, { origin: guarded.url });
    await expectError(response, 'unauthorized');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="openmates"/);
  });

  it('answers 429 with Retry-After on the third call', async () => {
    const headers = { authorization: `Bearer ${API_KEY}` };
    await expectSuccess(await call({ requests: [{ query: 'one' }] }, { origin: guarded.url, headers }));
    await expectSuccess(await call({ requests: [{ query: 'two' }] }, { origin: guarded.url, headers }));
    const response = await call({ requests: [{ query: 'three' }] }, { origin: guarded.url, headers });
    await expectError(response, 'rate_limited');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(brave.requests).toHaveLength(2);
  });
});

describe('tRPC provider failures', () => {
  it('answers 503 not_configured', async () => {
    const broken = await startTestServer(brave, {
      provider: failingProvider(() => new ProviderNotConfiguredError('The index file cannot be read.')),
    });
    try {
      const error = await expectError(
        await call({ requests: [{ query: 'x' }] }, { origin: broken.url }),
        'not_configured',
      );
      expect(error.data.error).toBe('The index file cannot be read.');
    } finally {
      await broken.close();
    }
  });

  it('answers 500 internal_error without any detail', async () => {
    const buggy = await startTestServer(brave, {
      provider: failingProvider(() => new TypeError('secret detail: undefined is not a function')),
    });
    try {
      const response = await call({ requests: [{ query: 'x' }] }, { origin: buggy.url });
      const text = await response.clone().text();
      const error = await expectError(response, 'internal_error');
      expect(error.data.error).toBe(ERROR_TABLE.internal_error.message);
      expect(text).not.toMatch(/secret detail|TypeError|stack/);
    } finally {
      await buggy.close();
    }
  });
});
