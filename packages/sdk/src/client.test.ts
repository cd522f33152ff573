import {
  ERROR_TABLE,
  type ErrorCode,
  ErrorResponseSchema,
  PATHS,
  type WebSearchResponse,
  WebSearchResponseSchema,
} from '@openmates/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPortURL, type LoopbackServer, loopbackServer, type Reply } from '../test/loopback-server.ts';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  BadRequestError,
  type ClientOptions,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  OpenMates,
  OpenMatesError,
  PayloadTooLargeError,
  PermissionDeniedError,
  ProviderError,
  RateLimitError,
  type RetryInfo,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
  VERSION,
} from './index.ts';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...replies: Reply[]): Promise<LoopbackServer> {
  const server = await loopbackServer(replies);
  servers.push(server);
  return server;
}

/** A client whose waits between attempts are recorded instead of slept. */
function client(baseURL: string, options: ClientOptions = {}) {
  const delays: number[] = [];
  const openmates = new OpenMates({
    apiKey: null,
    baseURL,
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...options,
  });
  return { openmates, delays };
}

const request = { requests: [{ id: 'q1', query: 'fetch abort signal' }] };

const ok: WebSearchResponse = WebSearchResponseSchema.parse({
  provider: 'Local index',
  results: [
    {
      id: 'q1',
      results: [
        { title: 'AbortSignal', url: 'https://developer.mozilla.org/en-US/docs/Web/API/AbortSignal', description: '' },
      ],
    },
  ],
});

const allFailed: WebSearchResponse = WebSearchResponseSchema.parse({
  provider: 'Brave Search',
  results: [
    {
      id: 'q1',
      results: [],
      error: { code: 'provider_timeout', message: 'The search provider did not answer in time.' },
    },
  ],
  error: 'Every search failed at the provider (q1).',
  code: 'provider_timeout',
  request_id: 'req_502',
});

/** A contract ErrorResponse for a code, as the server writes it. */
function errorReply(
  code: ErrorCode,
  extra: Partial<{ issues: { path: string; message: string }[]; request_id: string }> = {},
  headers: Record<string, string> = {},
): Reply {
  const body = ErrorResponseSchema.parse({ error: ERROR_TABLE[code].message, code, ...extra });
  return { status: ERROR_TABLE[code].status, body, headers };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject');
}

describe('client.apps.web.search', () => {
  it('posts the request to the contract path as JSON and resolves to the response', async () => {
    const server = await serve({ status: 200, body: ok });
    const { openmates } = client(`${server.baseURL}/`, { apiKey: 'om_test_key' });
    await expect(openmates.apps.web.search(request)).resolves.toEqual(ok);
    const [received] = server.received;
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe(PATHS.search);
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.headers.authorization).toBe('Bearer om_test_key');
    expect(received?.headers['x-openmates-sdk']).toBe(VERSION);
    expect(JSON.parse(received?.body ?? '')).toEqual(request);
  });

  it('sends no Authorization header without an API key', async () => {
    const server = await serve({ status: 200, body: ok });
    await client(server.baseURL).openmates.apps.web.search(request);
    expect(server.received[0]?.headers.authorization).toBeUndefined();
  });

  it('gets skill info from the same path', async () => {
    const info = { app: 'web', skill: 'search' };
    const server = await serve({ status: 200, body: info });
    await expect(client(server.baseURL).openmates.apps.web.info()).resolves.toEqual(info);
    expect(server.received[0]).toMatchObject({ method: 'GET', url: PATHS.search, body: '' });
  });

  it('rejects a 2xx body that is not JSON with a hint about baseURL', async () => {
    const server = await serve({ status: 200, text: '<!doctype html>' });
    const error = await rejection(client(server.baseURL).openmates.apps.web.search(request));
    expect(error).toBeInstanceOf(OpenMatesError);
    expect((error as Error).message).toMatch(/not JSON.*baseURL/);
  });
});

describe('errors', () => {
  const classes = {
    invalid_request: BadRequestError,
    unauthorized: AuthenticationError,
    forbidden: PermissionDeniedError,
    not_found: NotFoundError,
    method_not_allowed: MethodNotAllowedError,
    payload_too_large: PayloadTooLargeError,
    unsupported_media_type: UnsupportedMediaTypeError,
    rate_limited: RateLimitError,
    internal_error: InternalServerError,
    not_configured: ServiceUnavailableError,
  } as const;

  it.each(Object.entries(classes))('a %s answer throws %o with the contract fields', async (code, ErrorClass) => {
    const errorCode = code as ErrorCode;
    const server = await serve(errorReply(errorCode, { request_id: `req_${code}` }));
    const error = await rejection(client(server.baseURL, { maxRetries: 0 }).openmates.apps.web.search(request));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(OpenMatesError);
    const apiError = error as APIError;
    expect(apiError.name).toBe(ErrorClass.name);
    expect(apiError.status).toBe(ERROR_TABLE[errorCode].status);
    expect(apiError.code).toBe(code);
    expect(apiError.requestId).toBe(`req_${code}`);
    expect(apiError.message).toBe(`${ERROR_TABLE[errorCode].status} ${code}: ${ERROR_TABLE[errorCode].message}`);
    expect(apiError.body).toEqual({ error: ERROR_TABLE[errorCode].message, code, request_id: `req_${code}` });
    expect(apiError.headers.get('content-type')).toBe('application/json');
  });

  it('a 400 carries its issues and names them in a one-line message', async () => {
    const issues = [
      { path: 'requests[0]', message: 'Unrecognized key: "max_results"' },
      { path: 'requests[1].query', message: 'query must not be blank' },
    ];
    const server = await serve(errorReply('invalid_request', { issues }));
    const error = (await rejection(client(server.baseURL).openmates.apps.web.search(request))) as BadRequestError;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.issues).toEqual(issues);
    expect(error.message).toBe(
      '400 invalid_request: The request is invalid. (requests[0]: Unrecognized key: "max_results"; requests[1].query: query must not be blank)',
    );
    expect(error.message).not.toContain('\n');
  });

  it('takes the request id from the x-request-id header when the body has none', async () => {
    const server = await serve(errorReply('unauthorized', {}, { 'x-request-id': 'req_header' }));
    const error = (await rejection(client(server.baseURL).openmates.apps.web.search(request))) as APIError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.requestId).toBe('req_header');
    expect(error.issues).toEqual([]);
  });

  it('a 502 is a ProviderError exposing the full WebSearchResponse', async () => {
    const server = await serve({ status: 502, body: allFailed });
    const error = (await rejection(client(server.baseURL).openmates.apps.web.search(request))) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.response).toEqual(allFailed);
    expect(error.response.results[0]?.error?.code).toBe('provider_timeout');
    expect(error.status).toBe(502);
    expect(error.code).toBe('provider_timeout');
    expect(error.requestId).toBe('req_502');
    expect(error.message).toBe('502 provider_timeout: Every search failed at the provider (q1).');
  });

  it('a 502 that is not a WebSearchResponse (a proxy page) is an InternalServerError', async () => {
    const server = await serve({
      status: 502,
      text: '<html>Bad Gateway</html>',
      headers: { 'content-type': 'text/html' },
    });
    const error = (await rejection(client(server.baseURL).openmates.apps.web.search(request))) as APIError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).not.toBeInstanceOf(ProviderError);
    expect(error.body).toBe('<html>Bad Gateway</html>');
    expect(error.code).toBeUndefined();
  });

  it('an unmapped 4xx is a plain APIError', async () => {
    const server = await serve({ status: 418 });
    const error = (await rejection(client(server.baseURL).openmates.apps.web.search(request))) as APIError;
    expect(error.constructor).toBe(APIError);
    expect(error.status).toBe(418);
    expect(error.message).toBe('418: the server answered without an error message');
  });
});

describe('retries', () => {
  it('retries a 429 after the Retry-After seconds, then resolves', async () => {
    const server = await serve(errorReply('rate_limited', {}, { 'retry-after': '3' }), { status: 200, body: ok });
    const { openmates, delays } = client(server.baseURL);
    await expect(openmates.apps.web.search(request)).resolves.toEqual(ok);
    expect(server.received).toHaveLength(2);
    expect(delays).toEqual([3000]);
  });

  it('honours retry-after-ms over Retry-After', async () => {
    const server = await serve(errorReply('not_configured', {}, { 'retry-after-ms': '250', 'retry-after': '9' }), {
      status: 200,
      body: ok,
    });
    const { openmates, delays } = client(server.baseURL);
    await openmates.apps.web.search(request);
    expect(delays).toEqual([250]);
  });

  it('retries a 503 maxRetries times with jittered exponential backoff, then throws', async () => {
    const server = await serve(errorReply('not_configured'));
    const { openmates, delays } = client(server.baseURL);
    const error = await rejection(openmates.apps.web.search(request));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(server.received).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(375);
    expect(delays[0]).toBeLessThanOrEqual(625);
    expect(delays[1]).toBeGreaterThanOrEqual(750);
    expect(delays[1]).toBeLessThanOrEqual(1250);
  });

  it('ignores a Retry-After over 60 s and backs off instead', async () => {
    const server = await serve(errorReply('rate_limited', {}, { 'retry-after': '3600' }), { status: 200, body: ok });
    const { openmates, delays } = client(server.baseURL);
    await openmates.apps.web.search(request);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeLessThanOrEqual(625);
  });

  it('a per-call maxRetries overrides the client default', async () => {
    const server = await serve(errorReply('rate_limited', {}, { 'retry-after': '1' }));
    const { openmates, delays } = client(server.baseURL, { maxRetries: 5 });
    const error = await rejection(openmates.apps.web.search(request, { maxRetries: 1 }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(server.received).toHaveLength(2);
    expect(delays).toEqual([1000]);
  });

  it.each([
    ['400', errorReply('invalid_request'), BadRequestError],
    ['401', errorReply('unauthorized'), AuthenticationError],
    ['413', errorReply('payload_too_large'), PayloadTooLargeError],
    ['500', errorReply('internal_error'), InternalServerError],
    ['502', { status: 502, body: allFailed } as Reply, ProviderError],
  ])('never retries a %s', async (_status, reply, ErrorClass) => {
    const server = await serve(reply, { status: 200, body: ok });
    const { openmates, delays } = client(server.baseURL, { maxRetries: 5 });
    expect(await rejection(openmates.apps.web.search(request))).toBeInstanceOf(ErrorClass);
    expect(server.received).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('retries a dropped connection, then resolves', async () => {
    const server = await serve({ drop: true }, { status: 200, body: ok });
    const { openmates, delays } = client(server.baseURL);
    await expect(openmates.apps.web.search(request)).resolves.toEqual(ok);
    expect(server.received).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it('throws APIConnectionError after maxRetries when nothing listens', async () => {
    const baseURL = await closedPortURL();
    const { openmates, delays } = client(baseURL);
    const error = await rejection(openmates.apps.web.search(request));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toBe(
      `Could not reach the OpenMates server at ${baseURL}/v1/apps/web/skills/search: ECONNREFUSED.`,
    );
    expect(delays).toHaveLength(2);
  });
});

describe('timeouts and aborts', () => {
  it('throws APITimeoutError when no answer comes within timeout, without retrying', async () => {
    const server = await serve({ hang: true });
    const { openmates, delays } = client(server.baseURL, { timeout: 60_000 });
    const error = await rejection(openmates.apps.web.search(request, { timeout: 50 }));
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      `The OpenMates server at ${server.baseURL}/v1/apps/web/skills/search did not answer within 50 ms.`,
    );
    expect(server.received).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("rejects with the platform's AbortError when the caller aborts mid-request", async () => {
    const server = await serve({ hang: true });
    const controller = new AbortController();
    const pending = rejection(client(server.baseURL).openmates.apps.web.search(request, { signal: controller.signal }));
    await server.arrival(1);
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect(error).not.toBeInstanceOf(OpenMatesError);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const server = await serve({ status: 200, body: ok });
    const error = await rejection(
      client(server.baseURL).openmates.apps.web.search(request, { signal: AbortSignal.abort() }),
    );
    expect((error as DOMException).name).toBe('AbortError');
    expect(server.received).toHaveLength(0);
  });

  it('stops retrying when the caller aborts during the wait', async () => {
    const server = await serve(errorReply('rate_limited', {}, { 'retry-after': '1' }), { status: 200, body: ok });
    const controller = new AbortController();
    const openmates = new OpenMates({
      baseURL: server.baseURL,
      sleep: async () => controller.abort(),
    });
    const error = await rejection(openmates.apps.web.search(request, { signal: controller.signal }));
    expect((error as DOMException).name).toBe('AbortError');
    expect(server.received).toHaveLength(1);
  });
});

describe('options', () => {
  it('reads OPENMATES_API_KEY and OPENMATES_API_URL when no option is given', async () => {
    const server = await serve({ status: 200, body: ok });
    const saved = { key: process.env.OPENMATES_API_KEY, url: process.env.OPENMATES_API_URL };
    process.env.OPENMATES_API_KEY = 'om_env_key';
    process.env.OPENMATES_API_URL = server.baseURL;
    try {
      const openmates = new OpenMates();
      expect(openmates.baseURL).toBe(server.baseURL);
      await openmates.apps.web.search(request);
      expect(server.received[0]?.headers.authorization).toBe('Bearer om_env_key');
      expect(new OpenMates({ apiKey: null }).apiKey).toBeUndefined();
    } finally {
      for (const [name, value] of [
        ['OPENMATES_API_KEY', saved.key],
        ['OPENMATES_API_URL', saved.url],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('defaults to the local server origin, 60 s and 2 retries', () => {
    const saved = process.env.OPENMATES_API_URL;
    delete process.env.OPENMATES_API_URL;
    try {
      const openmates = new OpenMates({ apiKey: null });
      expect(openmates.baseURL).toBe('http://127.0.0.1:8787');
      expect(openmates.timeout).toBe(60_000);
      expect(openmates.maxRetries).toBe(2);
    } finally {
      if (saved !== undefined) process.env.OPENMATES_API_URL = saved;
    }
  });

  it('rejects a baseURL that is not an http(s) URL and a negative timeout', () => {
    expect(() => new OpenMates({ baseURL: '127.0.0.1:8787' })).toThrow(OpenMatesError);
    expect(() => new OpenMates({ baseURL: 'ftp://example.com' })).toThrow(/http\(s\)/);
    expect(() => new OpenMates({ timeout: -1 })).toThrow('timeout must be a non-negative integer, not -1.');
  });

  it('calls the fetch it is given', async () => {
    const server = await serve({ status: 200, body: ok });
    const seen: string[] = [];
    const openmates = new OpenMates({
      baseURL: server.baseURL,
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    });
    await openmates.apps.web.search(request);
    expect(seen).toEqual([`${server.baseURL}${PATHS.search}`]);
  });
});

describe('onRetry', () => {
  const rateLimited: WebSearchResponse = WebSearchResponseSchema.parse({
    ...allFailed,
    results: [{ id: 'q1', results: [], error: { code: 'provider_rate_limited', message: 'Rate limited.' } }],
    code: 'provider_rate_limited',
  });

  it('is told each failed attempt, its status and the wait, before the SDK waits', async () => {
    const server = await serve(
      errorReply('rate_limited', {}, { 'retry-after': '0' }),
      { status: 502, body: rateLimited, headers: { 'retry-after': '1', 'retry-after-ms': '20' } },
      { drop: true },
      errorReply('not_configured', {}, { 'retry-after-ms': '5' }),
      { status: 200, body: ok },
    );
    const seen: unknown[] = [];
    const { openmates, delays } = client(server.baseURL, {
      maxRetries: 4,
      onRetry: ({ attempt, status, delayMs, error }) => seen.push({ attempt, status, delayMs, error: error.name }),
    });
    await expect(openmates.apps.web.search(request)).resolves.toEqual(ok);
    expect(server.received).toHaveLength(5);
    expect(seen.map((s) => ({ ...(s as object), delayMs: undefined }))).toEqual([
      { attempt: 1, status: 429, delayMs: undefined, error: 'RateLimitError' },
      { attempt: 2, status: 502, delayMs: undefined, error: 'ProviderError' },
      { attempt: 3, status: undefined, delayMs: undefined, error: 'APIConnectionError' },
      { attempt: 4, status: 503, delayMs: undefined, error: 'ServiceUnavailableError' },
    ]);
    const waits = seen.map((s) => (s as { delayMs: number }).delayMs);
    expect(waits).toEqual(delays);
    expect([waits[0], waits[1], waits[3]]).toEqual([0, 20, 5]);
    // The dropped connection had no header: the backoff of retry 2 (2 s ± 25 %).
    expect(waits[2]).toBeGreaterThanOrEqual(1500);
    expect(waits[2]).toBeLessThanOrEqual(2500);
  });

  it('is not called for a 500 or a 502 without Retry-After, which are never retried', async () => {
    for (const reply of [errorReply('internal_error'), { status: 502, body: rateLimited } as Reply]) {
      const server = await serve(reply, { status: 200, body: ok });
      const seen: RetryInfo[] = [];
      const { openmates } = client(server.baseURL, { maxRetries: 3, onRetry: (r) => seen.push(r) });
      await rejection(openmates.apps.web.search(request));
      expect(server.received).toHaveLength(1);
      expect(seen).toEqual([]);
    }
  });

  it('sees the same attempts on searchStream, whose retries end once the stream begins', async () => {
    const server = await serve(
      { status: 502, body: rateLimited, headers: { 'retry-after': '0' } },
      { status: 200, body: ok },
    );
    const seen: [number | undefined, number][] = [];
    const { openmates } = client(server.baseURL, { onRetry: (r) => seen.push([r.status, r.delayMs]) });
    await expect(openmates.apps.web.searchStream(request).finalResponse()).resolves.toEqual(ok);
    expect(seen).toEqual([[502, 0]]);
  });

  it('must be a function', () => {
    expect(() => new OpenMates({ onRetry: 'log' as never })).toThrow('onRetry must be a function.');
  });
});
