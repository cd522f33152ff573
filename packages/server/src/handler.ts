import { randomUUID } from 'node:crypto';
import { type ErrorCode, type Health, httpStatus, PATHS, searchStatus } from '@openmates/contract';
import openapi from '@openmates/contract/openapi.json' with { type: 'json' };
import { type Engine, EngineError, errorResponse, type Logger } from '@openmates/core';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { createAuthenticator } from './auth.ts';
import { docsResponse } from './docs-page.ts';
import type { ServerConfig } from './env.ts';
import { readJsonBody } from './transport.ts';
import { appRouter, trpcErrorShape } from './trpc-router.ts';

export interface HandlerOptions {
  engine: Engine;
  /** Reported in skill info. */
  version: string;
  config: ServerConfig;
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

/** The methods each API path answers, for 405 and `Allow` (HEAD is answered wherever GET is). */
const ROUTES: Record<string, readonly string[]> = {
  [PATHS.search]: ['GET', 'HEAD', 'POST'],
  [PATHS.openapi]: ['GET', 'HEAD'],
  [PATHS.health]: ['GET', 'HEAD'],
};

const OPENAPI_BODY = JSON.stringify(openapi);

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonText(status, JSON.stringify(body), headers);
}

function jsonText(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/**
 * The whole API as one `(Request) => Promise<Response>` handler, so it runs under node:http, inside
 * the SvelteKit app, or anywhere else with the fetch API. REST and tRPC call the same engine.
 */
export function createHandler(options: HandlerOptions): FetchHandler {
  const { engine, config } = options;
  const log: Logger = engine.logger.child({ component: 'server' });
  const authenticate = createAuthenticator(config.apiKeys);
  const limiter =
    config.rateLimitPerMin > 0 ? new RateLimiterMemory({ points: config.rateLimitPerMin, duration: 60 }) : undefined;
  const health: Health = { status: 'ok', provider: engine.provider.id };

  /** Auth then rate limit; throws EngineError 401 or 429 (with the seconds to wait). */
  /** The caller's key (`null` when no keys are configured); throws EngineError 401 without a valid one. */
  function requireKey(request: Request): string | null {
    const key = authenticate(request.headers.get('authorization'));
    if (key === undefined)
      throw new EngineError('unauthorized', 'A valid API key is required: send Authorization: Bearer <key>.');
    return key;
  }

  async function admit(request: Request, info: RequestInfo | undefined): Promise<void> {
    const key = requireKey(request);
    if (!limiter) return;
    try {
      await limiter.consume(key ?? info?.remoteAddress ?? 'anonymous');
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw Object.assign(
        new EngineError('rate_limited', `Too many requests for this API key; retry in ${seconds} s.`),
        { retryAfter: seconds },
      );
    }
  }

  function errorHeaders(error: EngineError): Record<string, string> {
    const headers: Record<string, string> = {};
    if (error.code === 'unauthorized') headers['www-authenticate'] = 'Bearer realm="openmates", charset="UTF-8"';
    const retryAfter = (error as EngineError & { retryAfter?: number }).retryAfter;
    if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
    return headers;
  }

  function restError(error: EngineError, requestId: string): Response {
    const body = errorResponse(error.code, {
      message: error.message,
      requestId,
      ...(error.issues ? { issues: error.issues } : {}),
    });
    return json(error.status, body, errorHeaders(error));
  }

  function routeError(code: ErrorCode, requestId: string, headers: Record<string, string> = {}): Response {
    return json(httpStatus(code), errorResponse(code, { requestId }), headers);
  }

  async function search(request: Request, info: RequestInfo | undefined, requestId: string): Promise<Response> {
    const body = await readJsonBody(request, info?.lengthEnforced === true);
    // The engine hands over the JSON it measured when fitting the response: serialized once.
    const { response, json } = await engine.searchJson(body, { requestId, signal: request.signal });
    return jsonText(searchStatus(response.results), json);
  }

  async function trpc(request: Request, info: RequestInfo | undefined, requestId: string): Promise<Response> {
    let body: unknown;
    try {
      // Refusals are answered here, in tRPC's envelope: tRPC would call createContext only after
      // its own checks, and its pre-context errors carry no request id.
      if (request.method !== 'POST')
        throw new EngineError('method_not_allowed', 'tRPC procedures here are mutations: use POST.');
      if (new URL(request.url).searchParams.has('batch'))
        throw new EngineError('invalid_request', 'tRPC batching is off: send one call per request.', {
          issues: [{ path: '', message: 'batched calls are not accepted; send one call per request' }],
        });
      await admit(request, info);
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
      const headers = errorHeaders(error);
      if (error.code === 'method_not_allowed') headers.allow = 'POST';
      return json(error.status, envelope, headers);
    }
    // tRPC gets the body already read and checked (size, type, JSON).
    const forwarded = new Request(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: request.signal,
    });
    return fetchRequestHandler({
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
  }

  async function route(request: Request, info: RequestInfo | undefined, requestId: string): Promise<Response> {
    const { pathname } = new URL(request.url);
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (pathname === PATHS.trpc || pathname.startsWith(`${PATHS.trpc}/`)) return trpc(request, info, requestId);
    if (pathname === PATHS.docs || pathname.startsWith(`${PATHS.docs}/`)) {
      if (method !== 'GET') return routeError('method_not_allowed', requestId, { allow: 'GET, HEAD' });
      return docsResponse(pathname) ?? routeError('not_found', requestId);
    }
    const allowed = ROUTES[pathname];
    if (!allowed) return options.fallback ? options.fallback(request) : routeError('not_found', requestId);
    if (!allowed.includes(method)) return routeError('method_not_allowed', requestId, { allow: allowed.join(', ') });
    if (pathname === PATHS.health) return json(200, health);
    if (pathname === PATHS.openapi)
      return new Response(OPENAPI_BODY, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    // Skill info names the provider and this server's settings: keyed like searches, but not metered,
    // so a client (the GUI's key prompt) can check a key without spending a search.
    if (method === 'GET') {
      requireKey(request);
      return json(200, engine.skillInfo(options.version));
    }
    await admit(request, info);
    return search(request, info, requestId);
  }

  return async (request, info) => {
    const requestId = randomUUID();
    const started = performance.now();
    let response: Response;
    try {
      response = await route(request, info, requestId);
    } catch (error) {
      if (error instanceof EngineError) response = restError(error, requestId);
      else if (request.signal.aborted) response = new Response(null, { status: 499 });
      else {
        log.error(
          { event: 'http', request_id: requestId, error_name: error instanceof Error ? error.name : typeof error },
          'internal error',
        );
        response = routeError('internal_error', requestId);
      }
    }
    // Set on the response itself: re-wrapping it would turn a string body into a stream, which
    // costs the node bridge its single-write path. Immutable headers (a fallback's fetched
    // response) are copied instead.
    try {
      response.headers.set('x-request-id', requestId);
    } catch {
      const headers = new Headers(response.headers);
      headers.set('x-request-id', requestId);
      response = new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
    const { pathname } = new URL(request.url);
    log.info(
      {
        event: 'http',
        request_id: requestId,
        method: request.method,
        route: routeName(pathname),
        status: response.status,
        elapsed_ms: Math.round(performance.now() - started),
      },
      'request',
    );
    return response;
  };
}

/** The route template for logs: never the raw path, which could carry text a caller typed. */
function routeName(pathname: string): string {
  if (pathname in ROUTES) return pathname;
  if (pathname.startsWith(`${PATHS.trpc}/`)) return `${PATHS.trpc}/*`;
  if (pathname.startsWith(PATHS.docs)) return PATHS.docs;
  return 'other';
}
