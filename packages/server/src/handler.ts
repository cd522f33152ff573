import { randomUUID } from 'node:crypto';
import {
  DEFAULT_HOST,
  type Health,
  issueMessage,
  matchRoute,
  type OperationName,
  PATHS,
  type Readiness,
  ROUTE_TABLE,
  type RouteMatch,
} from '@openmates/contract';
import openapi from '@openmates/contract/openapi.json' with { type: 'json' };
import { type Engine, EngineError, errorResponse } from '@openmates/core';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import {
  createApiCore,
  type PlainRequest,
  type PlainResponse,
  plainJson,
  routeError,
  SHUTTING_DOWN,
} from './api-core.ts';
import { docsResponse } from './docs-page.ts';
import type { ServerConfig } from './env.ts';
import { createHostPolicy } from './host-policy.ts';
import { createMcpRoute, mcpErrorResponse } from './mcp-route.ts';
import type { ServerMetrics } from './metrics.ts';
import { readBodyText, readJsonBody } from './transport.ts';
import { appRouter, trpcErrorShape } from './trpc-router.ts';

export interface HandlerOptions {
  engine: Engine;
  /** Reported in skill info. */
  version: string;
  config: ServerConfig;
  /** The address the server binds (`openmates serve --host`), for the MCP endpoint's Host check; default loopback. */
  host?: string;
  /**
   * The metrics `GET /metrics` exposes; pass the ones the engine reports to
   * (`createEngine({ observer: metrics.engine })`). Default: fresh ones that see HTTP requests only.
   */
  metrics?: ServerMetrics;
  /** Answers every path that is not the API's (the web GUI); JSON 404 when absent. */
  fallback?: (request: Request) => Promise<Response>;
}

/** Connection facts the fetch API does not carry. */
export interface RequestInfo {
  remoteAddress?: string;
  /**
   * The body arrives through an HTTP parser that holds it to its `Content-Length` (node:http), so a
   * declared length bounds the read: the body can be read whole instead of streamed and counted.
   */
  lengthEnforced?: boolean;
}

export type FetchHandler = (request: Request, info?: RequestInfo) => Promise<Response>;

/**
 * The fetch handler, carrying the core of its search route so that `listen()` can serve that route
 * straight from node:http (same behaviour, without the Request/Response bridge).
 */
export interface ApiHandler extends FetchHandler {
  readonly handleSearch: (request: PlainRequest) => Promise<PlainResponse>;
  readonly metrics: ServerMetrics;
  /**
   * Settles when the provider is ready to serve (the local index opened and its demo corpus built,
   * started when the handler is created; never a paid call). `/readyz` answers 503 until then.
   */
  readonly prepared: Promise<boolean>;
  /** Stops taking new work (SIGTERM): `/readyz` and new searches answer 503 with `Connection: close`. */
  drain(): void;
}

const OPENAPI_BODY = JSON.stringify(openapi);

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return toResponse(plainJson(status, JSON.stringify(body), headers));
}

function toResponse(plain: PlainResponse): Response {
  return new Response(plain.body, { status: plain.status, headers: plain.headers });
}

/**
 * Sets headers on the response itself: re-wrapping it would turn a string body into a stream, which
 * costs the node bridge its single-write path. Immutable headers (a fallback's fetched response)
 * are copied instead.
 */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  const apply = (target: Headers) => {
    for (const [name, value] of Object.entries(headers)) {
      // `Vary` lists every header the answer depends on: one already there stays.
      const vary = name === 'vary' ? target.get('vary') : null;
      target.set(
        name,
        vary &&
          !vary
            .toLowerCase()
            .split(/\s*,\s*/)
            .includes(value.toLowerCase())
          ? `${vary}, ${value}`
          : value,
      );
    }
  };
  try {
    apply(response.headers);
    return response;
  } catch {
    const copy = new Headers(response.headers);
    apply(copy);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: copy });
  }
}

/**
 * The whole API as one `(Request) => Promise<Response>` handler, so it runs under node:http, inside
 * the SvelteKit app, or anywhere else with the fetch API. REST and tRPC call the same engine.
 */
export function createHandler(options: HandlerOptions): ApiHandler {
  const { engine, config } = options;
  const core = createApiCore(engine, config, options.metrics);
  const { log } = core;
  const providers = engine.providers.map((p) => p.id);
  const health = (): Health =>
    engine.redis
      ? { status: 'ok', provider: engine.provider.id, providers, redis: engine.redis.state }
      : { status: 'ok', provider: engine.provider.id, providers };
  const mcp = createMcpRoute({
    core,
    version: options.version,
    allowHost: createHostPolicy(options.host ?? DEFAULT_HOST, config.allowedOrigins),
  });
  const readiness: Readiness = { status: 'ready', provider: engine.provider.id, providers };

  // Readiness: the provider prepares itself once at start (a retry on a later probe if that
  // failed, since the index file may be fixed while the server runs).
  let ready = false;
  let preparing: Promise<boolean> | undefined;
  let notReady = 'The server is starting: the search provider is being prepared (the local index built).';
  function prepare(): Promise<boolean> {
    preparing ??= (async () => {
      try {
        await Promise.all(engine.providers.map((p) => p.ready?.()));
        ready = true;
      } catch (error) {
        notReady = `The search provider cannot serve: ${engine.redact(error instanceof Error ? error.message : 'unknown error')}`;
        log.warn(
          { event: 'ready', error_name: error instanceof Error ? error.name : typeof error },
          'provider not ready',
        );
        preparing = undefined;
      }
      return ready;
    })();
    return preparing;
  }
  const prepared = prepare();

  async function readyz(requestId: string): Promise<Response> {
    if (core.draining) return toResponse(core.shuttingDown(requestId));
    if (!ready) {
      void prepare();
      return json(503, errorResponse('not_configured', { message: notReady, requestId }));
    }
    return json(200, readiness);
  }

  async function metrics(request: Request): Promise<Response> {
    core.requireKey(request.headers.get('authorization'));
    const { contentType, body } = await core.metrics.render();
    return new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
  }

  async function trpc(request: Request, info: RequestInfo | undefined, requestId: string): Promise<Response> {
    let body: unknown;
    let counted: Record<string, string> = {};
    try {
      // Refusals are answered here, in tRPC's envelope: tRPC would call createContext only after
      // its own checks, and its pre-context errors carry no request id.
      if (request.method !== 'POST')
        throw new EngineError('method_not_allowed', 'tRPC procedures here are mutations: use POST.');
      if (new URL(request.url).searchParams.has('batch'))
        throw new EngineError('invalid_request', 'tRPC batching is off: send one call per request.', {
          issues: [{ path: '', message: issueMessage('batchedCalls') }],
        });
      if (core.draining) throw new EngineError('not_configured', SHUTTING_DOWN);
      counted = await core.admit(
        request.headers.get('authorization'),
        info?.remoteAddress,
        request.headers.get('x-forwarded-for'),
      );
      body = await readJsonBody(request, info?.lengthEnforced === true);
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      const envelope = {
        error: trpcErrorShape(
          errorResponse(error.code, {
            message: error.message,
            requestId,
            ...(error.issues ? { issues: error.issues } : {}),
          }),
          error.status,
        ),
      };
      const headers = { ...counted, ...core.errorHeaders(error) };
      if (error.code === 'method_not_allowed') headers.allow = ROUTE_TABLE.trpcSearch.method;
      if (core.draining) headers.connection = 'close';
      return json(error.status, envelope, headers);
    }
    // tRPC gets the body already read and checked (size, type, JSON).
    const forwarded = new Request(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: request.signal,
    });
    const answer = await fetchRequestHandler({
      endpoint: PATHS.trpc,
      req: forwarded,
      router: appRouter,
      allowBatching: false,
      createContext: () => ({ engine, requestId, signal: request.signal }),
      onError: ({ error }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          log.error(
            { event: 'trpc', request_id: requestId, error_name: error.cause?.name ?? error.name },
            'internal error',
          );
      },
    });
    return withHeaders(answer, counted);
  }

  /**
   * One handler per operation of the route table (the search is the core's, answered before
   * routing; its event stream is the same operation): a route added to the table without one here
   * does not compile.
   */
  const operations: Record<
    Exclude<OperationName, 'search' | 'searchStream'>,
    (request: Request, info: RequestInfo | undefined, requestId: string, pathname: string) => Promise<Response>
  > = {
    trpcSearch: (request, info, requestId) => trpc(request, info, requestId),
    async mcp(request, info, requestId) {
      if (core.draining) return mcpErrorResponse(core.shuttingDown(requestId));
      return mcp(request, info?.lengthEnforced === true, info?.remoteAddress, requestId);
    },
    openapi: async () => new Response(OPENAPI_BODY, { headers: { 'content-type': 'application/json; charset=utf-8' } }),
    docs: async (_request, _info, requestId, pathname) =>
      docsResponse(pathname) ?? toResponse(routeError('not_found', requestId)),
    health: async () => json(200, health()),
    readiness: (_request, _info, requestId) => readyz(requestId),
    metrics: (request) => metrics(request),
    // Skill info names the provider and this server's settings: keyed like searches, but not metered,
    // so a client (the GUI's key prompt) can check a key without spending a search.
    async skillInfo(request, info) {
      // A peek: the caller learns its state without spending a request.
      const state = await core.peek(
        request.headers.get('authorization'),
        info?.remoteAddress,
        request.headers.get('x-forwarded-for'),
      );
      return json(200, { ...engine.skillInfo(options.version), ...(state ? { rate_limit: state } : {}) });
    },
  };

  async function route(
    request: Request,
    info: RequestInfo | undefined,
    requestId: string,
    pathname: string,
    match: RouteMatch | undefined,
  ): Promise<Response> {
    if (!match) return options.fallback ? options.fallback(request) : toResponse(routeError('not_found', requestId));
    if (!match.route) {
      const refusal = routeError('method_not_allowed', requestId, { allow: match.allow.join(', ') });
      // An MCP client reads every answer of its endpoint as JSON-RPC.
      return pathname === PATHS.mcp ? mcpErrorResponse(refusal) : toResponse(refusal);
    }
    return operations[match.route.operation as keyof typeof operations](request, info, requestId, pathname);
  }

  const handler = async (request: Request, info?: RequestInfo): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const match = matchRoute(request.method, pathname);
    const origin = request.headers.get('origin');
    // A browser's preflight on any route of the table, from an allowed origin; any other preflight
    // is refused as the method it is (405), as without CORS.
    if (match && request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
      const preflight = core.preflight(origin, match.allow);
      if (preflight) return toResponse(preflight);
    }
    if (match?.route?.operation === ROUTE_TABLE.search.operation)
      return toResponse(
        await core.handleSearch({
          method: request.method,
          authorization: request.headers.get('authorization'),
          accept: request.headers.get('accept'),
          ...(info?.remoteAddress !== undefined ? { remoteAddress: info.remoteAddress } : {}),
          forwardedFor: request.headers.get('x-forwarded-for'),
          origin,
          signal: request.signal,
          readBody: () => readBodyText(request, info?.lengthEnforced === true),
        }),
      );
    const requestId = randomUUID();
    const started = performance.now();
    let response: Response;
    try {
      response = await route(request, info, requestId, pathname, match);
    } catch (error) {
      response = toResponse(core.failure(error, requestId, request.signal.aborted));
    }
    // The GUI's own paths (the fallback) are not the API's: no CORS there.
    response = withHeaders(response, { ...(match ? core.cors(origin) : {}), 'x-request-id': requestId });
    core.logRequest(requestId, request.method, pathname, response.status, started);
    return response;
  };
  return Object.assign(handler, {
    handleSearch: core.handleSearch,
    metrics: core.metrics,
    prepared,
    drain: core.drain,
  });
}
