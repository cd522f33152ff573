import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import {
  DEFAULT_HOST,
  GUI_ROUTE,
  type Health,
  issueMessage,
  type OperationName,
  PATHS,
  type Readiness,
  ROUTE_TABLE,
  type RouteDefinition,
} from '@openmates/contract';
import openapi from '@openmates/contract/openapi.json' with { type: 'json' };
import { type Engine, parseJsonBody } from '@openmates/core';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createApiCore, plainJson, refusalJson } from './api-core.ts';
import { docsResponse } from './docs-page.ts';
import type { ServerConfig } from './env.ts';
import { createHostPolicy } from './host-policy.ts';
import { createMcpOperation, mcpRefusal } from './mcp-route.ts';
import type { ServerMetrics } from './metrics.ts';
import type { NodeBindings, NodeFallback } from './node-bindings.ts';
import { createPipeline, type Operation, type RefusalShaper } from './pipeline.ts';
import { Refusal } from './refusal.ts';
import { createSearchOperation } from './search-route.ts';
import { appRouter, trpcErrorShape } from './trpc-router.ts';

export type { NodeFallback } from './node-bindings.ts';

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
  /**
   * The GUI: answers every path the API does not own (through the same request path), served by
   * the node adapter (its handler writes to the node response); JSON 404 when absent.
   */
  gui?: NodeFallback;
}

/**
 * The whole API as one fetch function: every request takes the request path of `pipeline.ts`,
 * routed from the table. REST, tRPC and MCP call the same engine and answer the same `Response`.
 * `node` is the node adapter's (`listen()`), for the GUI and the caller's address.
 */
export interface ApiHandler {
  fetch(request: Request, node?: NodeBindings): Promise<Response>;
  readonly metrics: ServerMetrics;
  /**
   * Settles when the provider is ready to serve (the local index opened and its demo corpus built,
   * started when the handler is created; never a paid call). `/readyz` answers 503 until then.
   */
  readonly prepared: Promise<boolean>;
  /** Stops taking new work (SIGTERM): `/readyz` and metered routes answer 503 with `Connection: close`. */
  drain(): void;
}

const OPENAPI_TEXT = JSON.stringify(openapi);

/** tRPC's envelope around the contract's error, for refusals made before tRPC runs. */
const trpcRefusal: RefusalShaper = (refusal, requestId, headers) =>
  plainJson(refusal.status, JSON.stringify({ error: trpcErrorShape(refusal.body(requestId), refusal.status) }), {
    ...refusal.headers,
    ...headers,
  });

/** How each surface words a refusal. */
export const REFUSAL_SHAPERS: Readonly<Record<RouteDefinition['tag'], RefusalShaper>> = {
  web: refusalJson,
  meta: refusalJson,
  gui: refusalJson,
  trpc: trpcRefusal,
  mcp: mcpRefusal,
};

/** Builds the API's handler: the core, one operation per route of the table, and the request path over them. */
export function createHandler(options: HandlerOptions): ApiHandler {
  const { engine, config } = options;
  const core = createApiCore(engine, config, options.metrics);
  const { log } = core;
  const providers = engine.providers.map((p) => p.id);
  const health = (): Health =>
    engine.redis
      ? { status: 'ok', provider: engine.provider.id, providers, redis: engine.redis.state }
      : { status: 'ok', provider: engine.provider.id, providers };
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

  const search = createSearchOperation(core, config.streamKeepAliveMs);

  /**
   * One operation per route of the contract's table (its event stream is the search's own, chosen
   * by `Accept`): a route added to the table without one here does not compile. Each is only the
   * route's work: the key, the limits, the count, CORS, the request id and the log line are the
   * request path's, from the route's entry.
   */
  const builtins: Record<Exclude<OperationName, 'searchStream'>, Operation> = {
    search,
    async skillInfo(exchange) {
      const { rateLimit } = exchange;
      return exchange.json(
        200,
        JSON.stringify({ ...engine.skillInfo(options.version), ...(rateLimit ? { rate_limit: rateLimit } : {}) }),
      );
    },
    async trpcSearch(exchange) {
      const url = new URL(exchange.request.url);
      if (url.searchParams.has('batch'))
        throw new Refusal('invalid_request', 'tRPC batching is off: send one call per request.', {
          issues: [{ path: '', message: issueMessage('batchedCalls') }],
        });
      // A body that is not JSON is refused as REST refuses it, in tRPC's envelope.
      parseJsonBody(exchange.body);
      const { requestId, signal } = exchange;
      // tRPC's fetch adapter takes a fetch Request: built here, from the body already read and checked.
      const request = new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: exchange.body,
        signal,
      });
      return fetchRequestHandler({
        endpoint: PATHS.trpc,
        req: request,
        router: appRouter,
        allowBatching: false,
        createContext: () => ({ engine, requestId, signal, meter: core.quotas.meter(exchange.caller) }),
        onError: ({ error }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR')
            log.error(
              { event: 'trpc', request_id: requestId, error_name: error.cause?.name ?? error.name },
              'internal error',
            );
        },
      });
    },
    mcp: createMcpOperation({ core, version: options.version }),
    usage: async (exchange) => exchange.json(200, JSON.stringify(await core.quotas.usage(exchange.caller))),
    openapi: async (exchange) =>
      exchange.reply(200, OPENAPI_TEXT, { 'content-type': 'application/json; charset=utf-8' }),
    async docs(exchange) {
      const page = docsResponse(exchange.pathname);
      if (!page) throw new Refusal('not_found');
      return exchange.reply(page.status, page.body, page.headers);
    },
    health: async (exchange) => exchange.json(200, JSON.stringify(health())),
    async readiness(exchange) {
      if (core.draining) throw core.shuttingDown();
      if (!ready) {
        void prepare();
        throw new Refusal('not_configured', notReady);
      }
      return exchange.json(200, JSON.stringify(readiness));
    },
    async metrics(exchange) {
      const { contentType, body } = await core.metrics.render();
      return exchange.reply(200, body, { 'content-type': contentType, 'cache-control': 'no-store' });
    },
  };

  const { gui } = options;
  const operations: Record<string, Operation> = {
    ...builtins,
    ...(gui
      ? {
          // The GUI writes its own answer to the node response: the request path's headers (the
          // request id) go on first, and the log line waits for the answer to be sent.
          [GUI_ROUTE.operation]: async (exchange) => {
            const { node } = exchange;
            if (!node) throw new Error('The GUI is served through the node adapter (listen()).');
            const { incoming, outgoing } = node;
            for (const [name, value] of Object.entries(exchange.headers)) outgoing.setHeader(name, value);
            const sent = new Promise<void>((resolve) => outgoing.once('close', resolve));
            gui(incoming, outgoing);
            await sent;
            exchange.outcome = outgoing.writableFinished ? outgoing.statusCode : 499;
            return RESPONSE_ALREADY_SENT;
          },
        }
      : {}),
  };
  const fetch = createPipeline({
    core,
    routes: ROUTE_TABLE,
    operations,
    shapers: REFUSAL_SHAPERS,
    allowHost: createHostPolicy(options.host ?? DEFAULT_HOST, config.allowedOrigins),
    allowedOrigins: config.allowedOrigins,
    ...(gui ? { pages: GUI_ROUTE } : {}),
  });
  return { fetch, metrics: core.metrics, prepared, drain: core.drain };
}
