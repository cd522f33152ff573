import {
  EVENT_STREAM_MEDIA_TYPE,
  isMetered,
  type OperationName,
  PATHS,
  ROUTE_TABLE,
  type RouteDefinition,
} from '@openmates/contract';
import type { Engine } from '@openmates/core';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiCore } from './api-core.ts';
import { loadServerConfig } from './env.ts';
import { REFUSAL_SHAPERS } from './handler.ts';
import { createHostPolicy } from './host-policy.ts';
import { createPipeline, type Operation } from './pipeline.ts';
import { startTestEngine, startTestServer } from './testing/index.ts';

// Proof that the request path, not the operations, gives every route its chain: a route of a table
// of its own gets the key, the count, CORS, the request id and the log line with nothing but its
// operation (the request path built from the package's pieces and called in process, a fetch
// Request in, a Response out), and every real route meets the same assertions on its own transport.

/** Where requests go: the origin their paths are under, the request path in process (else the network), its log lines. */
interface Target {
  url: string;
  fetch?: (request: Request) => Promise<Response>;
  logs: string[];
}

const KEY = 'request-path-key-0123456789abcdef';
const ORIGIN = 'https://app.example.com';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SEARCH_BODY = { requests: [{ query: 'request path' }] };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A request that a route answers with success, by operation: a route added without one does not compile. */
interface Probe {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}
const PROBES: Record<OperationName, Probe> = {
  search: { method: 'POST', path: PATHS.search, body: SEARCH_BODY },
  searchStream: { method: 'POST', path: PATHS.search, headers: { accept: EVENT_STREAM_MEDIA_TYPE }, body: SEARCH_BODY },
  skillInfo: { method: 'GET', path: PATHS.search },
  usage: { method: 'GET', path: ROUTE_TABLE.usage.path },
  trpcSearch: { method: 'POST', path: ROUTE_TABLE.trpcSearch.path, body: SEARCH_BODY },
  mcp: {
    method: 'POST',
    path: PATHS.mcp,
    headers: {
      accept: `application/json, ${EVENT_STREAM_MEDIA_TYPE}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'web_search',
    },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'web_search', arguments: SEARCH_BODY, _meta: META },
    },
  },
  openapi: { method: 'GET', path: PATHS.openapi },
  docs: { method: 'GET', path: PATHS.docs },
  health: { method: 'GET', path: PATHS.health },
  readiness: { method: 'GET', path: PATHS.ready },
  metrics: { method: 'GET', path: PATHS.metrics },
};

/** A route added to a copy of the table: keyed, counted per request, taking a JSON body. */
const PROBE_ROUTE = {
  operation: 'probe',
  method: 'POST',
  path: '/v1/probe',
  needsKey: true,
  metering: 'request',
  tag: 'web',
  summary: 'A throwaway route',
  description: 'Answers its body back.',
  request: ROUTE_TABLE.search.request,
  responses: { 200: { description: 'The body.' } },
} as const satisfies RouteDefinition;
/** All the code the throwaway route brings: its operation. */
const probeOperation: Operation = async (exchange) => exchange.json(200, exchange.body);

let brave: BraveFixture;

beforeAll(async () => {
  brave = await startBraveFixture();
});
afterAll(() => brave?.close());

function send(server: Target, probe: Probe, headers: Record<string, string> = {}): Promise<Response> {
  return request(server, probe.path, {
    method: probe.method,
    headers: {
      ...(probe.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...probe.headers,
      ...headers,
    },
    ...(probe.body === undefined ? {} : { body: JSON.stringify(probe.body) }),
  });
}

function request(server: Target, path: string, init: RequestInit): Promise<Response> {
  const sent = new Request(server.url + path, init);
  return server.fetch ? server.fetch(sent) : fetch(sent);
}

/** The contract code of a refusal as each transport words it: REST's JSON, a JSON-RPC error's data, tRPC's envelope. */
function refusalCode(route: RouteDefinition, text: string): unknown {
  const body = JSON.parse(text);
  return route.tag === 'mcp' || route.tag === 'trpc' ? body.error?.data?.code : body.code;
}

/** The log lines of one request, by its id: there must be exactly one, naming the route's template. */
async function logLineOf(server: Target, requestId: string | null): Promise<Record<string, unknown>> {
  expect(requestId).toMatch(UUID);
  const lines = () =>
    server.logs.filter((line) => line.includes(`"request_id":"${requestId}"`) && line.includes('"event":"http"'));
  await expect.poll(lines).toHaveLength(1);
  return JSON.parse(lines()[0] ?? '{}');
}

/**
 * The whole chain for one route: 401 without a key (when keyed), the answer with its request id,
 * CORS for an allowed origin and the rate-limit state (when metered), a preflight, one log line.
 */
async function expectChain(server: Target, route: RouteDefinition, probe: Probe, template: string): Promise<void> {
  const label = route.operation;
  const anonymous = await send(server, probe);
  const anonymousText = await anonymous.text();
  if (route.needsKey) {
    expect([label, anonymous.status, refusalCode(route, anonymousText)]).toEqual([label, 401, 'unauthorized']);
    expect(anonymous.headers.get('www-authenticate'), label).toMatch(/^Bearer /);
  } else expect([label, anonymous.status]).toEqual([label, 200]);
  expect((await logLineOf(server, anonymous.headers.get('x-request-id'))).route, label).toBe(template);

  const keyed = await send(server, probe, { authorization: `Bearer ${KEY}`, origin: ORIGIN });
  await keyed.text();
  expect([label, keyed.status]).toEqual([label, 200]);
  expect([label, keyed.headers.get('access-control-allow-origin')]).toEqual([label, ORIGIN]);
  expect([label, keyed.headers.has('ratelimit'), keyed.headers.has('ratelimit-policy')]).toEqual([
    label,
    isMetered(route),
    isMetered(route),
  ]);
  const line = await logLineOf(server, keyed.headers.get('x-request-id'));
  expect([label, line.route, line.status, line.method]).toEqual([label, template, 200, probe.method]);

  const preflight = await request(server, probe.path, {
    method: 'OPTIONS',
    headers: { origin: ORIGIN, 'access-control-request-method': probe.method },
  });
  expect([label, preflight.status]).toEqual([label, 204]);
  expect(preflight.headers.get('access-control-allow-methods')?.split(/,\s*/), label).toContain(probe.method);
  await logLineOf(server, preflight.headers.get('x-request-id'));
}

describe('the request path', () => {
  let engine: Engine;
  let server: Target;
  beforeAll(() => {
    const started = startTestEngine(brave);
    engine = started.engine;
    const config = loadServerConfig({
      OPENMATES_API_KEYS: KEY,
      OPENMATES_RATE_LIMIT_PER_MIN: '3',
      OPENMATES_ALLOWED_ORIGINS: ORIGIN,
    });
    const fetch = createPipeline({
      core: createApiCore(engine, config),
      routes: { probe: PROBE_ROUTE },
      operations: { probe: probeOperation },
      shapers: REFUSAL_SHAPERS,
      allowHost: createHostPolicy('127.0.0.1', config.allowedOrigins),
      allowedOrigins: config.allowedOrigins,
    });
    server = { url: 'http://127.0.0.1', fetch, logs: started.logs };
  });
  afterAll(() => engine?.close());

  it('gives a route of a table of its own the whole chain, with no code beyond its operation', async () => {
    await expectChain(
      server,
      PROBE_ROUTE,
      { method: 'POST', path: PROBE_ROUTE.path, body: SEARCH_BODY },
      PROBE_ROUTE.path,
    );
    // Its body went through the body limits: too large is refused before the operation runs.
    const big = await send(
      server,
      { method: 'POST', path: PROBE_ROUTE.path, body: { x: 'x'.repeat(70 * 1024) } },
      {
        authorization: `Bearer ${KEY}`,
      },
    );
    expect([big.status, refusalCode(PROBE_ROUTE, await big.text())]).toEqual([413, 'payload_too_large']);
    // It counts: the limit of 3 holds across its requests (one counted above, then two, then the refusal).
    for (const expected of [200, 200, 429]) {
      const answer = await send(
        server,
        { method: 'POST', path: PROBE_ROUTE.path, body: SEARCH_BODY },
        {
          authorization: `Bearer ${KEY}`,
        },
      );
      const text = await answer.text();
      expect(answer.status).toBe(expected);
      if (expected === 429) {
        expect(refusalCode(PROBE_ROUTE, text)).toBe('rate_limited');
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(answer.headers.get('ratelimit')).toMatch(/;r=0;/);
      }
    }
  });
});

describe('every real route, on its own transport', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer(brave, {
      env: { OPENMATES_API_KEYS: KEY, OPENMATES_RATE_LIMIT_PER_MIN: '1000', OPENMATES_ALLOWED_ORIGINS: ORIGIN },
    });
    await server.handler.prepared;
  });
  afterAll(() => server?.close());

  for (const [operation, route] of Object.entries(ROUTE_TABLE) as [OperationName, RouteDefinition][])
    it(`${operation} gets the whole chain`, async () => {
      const template = route.prefix !== undefined && route.prefix !== route.path ? `${route.prefix}/*` : route.path;
      await expectChain(server, route, PROBES[operation], template);
    });
});

describe('the log line', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer(brave, {
      env: { OPENMATES_API_KEYS: KEY },
      gui: (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<p>page</p>'),
    });
  });
  afterAll(() => server?.close());

  const cases: [string, Probe, string][] = [
    ['a search', PROBES.search, PATHS.search],
    ['a stream', PROBES.searchStream, PATHS.search],
    ['a tRPC call', PROBES.trpcSearch, `${PATHS.trpc}/*`],
    ['an MCP call', PROBES.mcp, PATHS.mcp],
    ['a GUI page', { method: 'GET', path: '/some/page' }, '/*'],
  ];
  for (const [name, probe, template] of cases)
    it(`names the route's template for ${name}, never the raw path`, async () => {
      const answer = await send(server, probe, { authorization: `Bearer ${KEY}` });
      await answer.text();
      expect(answer.status).toBe(200);
      const line = await logLineOf(server, answer.headers.get('x-request-id'));
      expect([line.route, line.method, line.status]).toEqual([template, probe.method, 200]);
    });
});
