import { randomUUID } from 'node:crypto';
import {
  CORS_ALLOWED_REQUEST_HEADERS,
  CORS_EXPOSED_HEADERS,
  CORS_MAX_AGE_S,
  createRouter,
  EVENT_STREAM_MEDIA_TYPE,
  isMetered,
  type RateLimitState,
  type RouteDefinition,
  type RouteMatch,
  UNMATCHED_TEMPLATE,
} from '@openmates/contract';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { type ApiCore, JSON_HEADERS } from './api-core.ts';
import type { KeyIdentity } from './keys-file.ts';
import type { NodeBindings } from './node-bindings.ts';
import { Refusal } from './refusal.ts';
import { readBody } from './transport.ts';

/**
 * One request as it passes the chain: the route it resolved to, what each step found (the body,
 * the key, the caller's rate-limit state) and the headers the steps add to whatever answers it.
 * Operations read what they need from here and never redo a step.
 */
export interface Exchange {
  /** The request, as the fetch API has it. */
  readonly request: Request;
  /** Hono's context of the request (its helpers, such as the event stream's, take it). */
  readonly context: Context;
  /** The node:http request and response when the node adapter serves it (the GUI writes to them); undefined in process. */
  readonly node: NodeBindings | undefined;
  readonly method: string;
  /** The path without its query string. */
  readonly pathname: string;
  /** The route's entry and the path's methods. */
  readonly match: RouteMatch & { route: RouteDefinition };
  readonly requestId: string;
  /** `performance.now()` when the request arrived. */
  readonly started: number;
  /** The body's text, read under the limits, for a route that takes one (`''` otherwise). */
  readonly body: string;
  /** The caller's API key's identity, never the key (`null`: no keys configured, or a public route). */
  readonly key: string | null;
  /** The caller's key as the keys file names it, with its quotas (`null`: no keys configured, or a public route). */
  readonly caller: KeyIdentity | null;
  /** The caller's state under the limit, read without counting (a route metered by `peek`); else undefined. */
  readonly rateLimit: RateLimitState | undefined;
  /** Headers every answer of this request carries: the request id, the counted rate-limit state. */
  readonly headers: Record<string, string>;
  /** Aborts when the client goes away. */
  readonly signal: AbortSignal;
  /** One request header, `null` when absent. */
  header(name: string): string | null;
  /**
   * The answer of an operation with this request's headers on it from the start (no copy of its
   * headers later): `body` the exact text or bytes to send, `null` for none.
   */
  reply(status: number, body: string | Uint8Array | null, headers: Record<string, string>): Response;
  /** `reply` with the API's JSON headers before `headers`. */
  json(status: number, body: string | Uint8Array, headers?: Record<string, string>): Response;
  /**
   * Counts one metered call of a route metered per `call` (an MCP `tools/call`): resolves, or
   * rejects with the 429 refusal; either way the answer carries the caller's state after it.
   */
  meter(): Promise<void>;
  /** The status the log line reports when the answer's own does not tell the outcome (an event stream's end). */
  outcome?: number;
}

/** The work a route does once the chain has admitted its request: all that a new route adds. */
export type Operation = (exchange: Exchange) => Promise<Response>;

/** How a surface words a refusal (the contract's JSON, a JSON-RPC error object, tRPC's envelope), with the request's headers. */
export type RefusalShaper = (refusal: Refusal, requestId: string, headers: Record<string, string>) => Response;

export interface PipelineOptions {
  core: ApiCore;
  /** The route table (the contract's, or a copy with more routes); every route needs an operation. */
  routes: Readonly<Record<string, RouteDefinition>>;
  /** The operation of every route of `routes` (variants aside), by operation name. */
  operations: Readonly<Record<string, Operation>>;
  /** The refusal wording of each surface (a route's `tag`). */
  shapers: Readonly<Record<RouteDefinition['tag'], RefusalShaper>>;
  /** True when a request's `Host` and `Origin` may reach a route that `guardsHost`. */
  allowHost: (host: string | null, origin: string | null) => boolean;
  /** The route answering every path the table does not own (the GUI's pages), when mounted. */
  pages?: RouteDefinition;
  /** The origins allowed to call the API from browsers (`OPENMATES_ALLOWED_ORIGINS`); CORS is mounted only with some. */
  allowedOrigins: readonly string[];
}

/** The request path as a fetch function: a request in, its answer out; `node` when the node adapter serves it. */
export type FetchHandler = (request: Request, node?: NodeBindings) => Promise<Response>;

/** What Hono's context carries for the request path (its `env`). */
interface Bindings {
  exchange: ExchangeState;
}

/**
 * The server's one request path, on Hono: every request, whatever its surface (REST, the event
 * stream, tRPC, `/mcp`, the GUI's pages), is routed by Hono from the route table and passes the
 * same steps, each chosen by the route's entry: request id → CORS (when origins are configured) →
 * host and origin policy → body limits → key → metering → the operation → one log line.
 */
export function createPipeline(options: PipelineOptions): FetchHandler {
  const { core, routes, operations, shapers, allowHost, pages } = options;
  const router = createRouter(routes, pages ? { pages } : {});
  const app = new Hono<{ Bindings: Bindings }>();

  function refuse(exchange: ExchangeState, tag: RouteDefinition['tag'], error: unknown): Response {
    const refusal = Refusal.of(error);
    if (!refusal) {
      // The client went away: nobody reads the answer, the log line says so.
      if (exchange.signal.aborted) exchange.outcome = 499;
      else core.fault(error, exchange.requestId);
    }
    return exchange.own(shapers[tag](refusal ?? new Refusal('internal_error'), exchange.requestId, exchange.headers));
  }

  async function run(c: Context<{ Bindings: Bindings }>, exchange: ExchangeState, route: RouteDefinition) {
    // A draining server takes no new work; its public routes (readiness among them) still answer.
    if (core.draining && isMetered(route)) throw core.shuttingDown();
    if (route.guardsHost && !allowHost(exchange.header('host'), exchange.header('origin')))
      throw new Refusal(
        'forbidden',
        'Requests from this origin or host name are not allowed: see OPENMATES_ALLOWED_ORIGINS.',
      );
    if (route.request && exchange.method === route.method) exchange.body = await readBody(c);
    if (route.needsKey) {
      exchange.caller = core.requireKey(exchange.header('authorization'));
      exchange.key = exchange.caller?.id ?? null;
    }
    // With the limit off nothing is counted or read: not even the caller's identity is made.
    if ((core.limited || exchange.caller?.entry) && route.metering !== 'none') {
      const identity = core.identity(exchange.key, exchange.remoteAddress, exchange.header('x-forwarded-for'));
      const { headers } = exchange;
      // A search is counted against the per-minute limit, then checked against the key's quotas
      // (ADR 0136): a spent quota refuses it before any call, both policies in the RateLimit fields.
      const counted = async () => {
        const limit = await core.count(identity, exchange.caller);
        let quota: { policy: string[]; state: string[] };
        try {
          quota = await core.quotas.check(exchange.caller);
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          throw new Refusal(error.code, error.message, { headers: withQuotas(limit, {}, error.headers) });
        }
        Object.assign(headers, withQuotas(limit, quota));
      };
      if (route.metering === 'request') await counted();
      else if (route.metering === 'peek') exchange.rateLimit = await core.peek(identity, exchange.caller);
      else
        exchange.meter = async () => {
          try {
            await counted();
          } catch (error) {
            if (error instanceof Refusal) Object.assign(headers, error.rateLimit);
            throw error;
          }
        };
    }
    const operation = operations[route.operation];
    if (!operation) throw new Error(`The route ${route.operation} has no operation.`);
    return operation(exchange);
  }

  /** The handler of one route's entry (or of a path's 405 when the entry has no route). */
  function handler(match: RouteMatch) {
    return async (c: Context<{ Bindings: Bindings }>) => {
      const exchange = c.env.exchange;
      exchange.resolved = match;
      exchange.context = c;
      const { route } = match;
      try {
        if (!route) throw new Refusal('method_not_allowed', undefined, { headers: { allow: match.allow.join(', ') } });
        return await run(c, exchange, route);
      } catch (error) {
        return refuse(exchange, match.tag, error);
      }
    };
  }

  // CORS, for the API's paths only and only when origins are configured: a browser's preflight
  // from an allowed origin is answered with the path's methods; any other preflight is refused as
  // the method it is (405).
  const origins = new Set(options.allowedOrigins.map((origin) => new URL(origin).origin));
  const corsFor = (match: RouteMatch): MiddlewareHandler<{ Bindings: Bindings }> => {
    const step = cors({
      origin: (origin) => (origins.has(origin) ? origin : null),
      allowMethods: [...match.allow],
      allowHeaders: [...CORS_ALLOWED_REQUEST_HEADERS],
      exposeHeaders: [...CORS_EXPOSED_HEADERS],
      maxAge: CORS_MAX_AGE_S,
    });
    return async (c, next) => {
      c.env.exchange.resolved = match;
      if (origins.has(c.req.header('origin') ?? '')) {
        if (c.req.method !== 'OPTIONS' || c.req.header('access-control-request-method')) return step(c, next);
        return next();
      }
      // Another origin (or none) gets no CORS header; its answers still differ by origin for caches.
      await next();
      c.header('vary', 'Origin', { append: true });
    };
  };

  // Every route of the table, registered with Hono by its method and path (a prefix's own path and
  // everything under it): a request one of them answers meets that route's handler alone.
  for (const route of Object.values(routes)) {
    if (route.variant) continue;
    const match = router.match(route.method, route.path);
    if (!match?.route) throw new Error(`The route ${route.operation} does not resolve to itself.`);
    if (!operations[route.operation]) throw new Error(`The route ${route.operation} has no operation.`);
    const owned = route.prefix === undefined ? [route.path] : [route.prefix, `${route.prefix}/*`];
    for (const path of owned) {
      if (origins.size > 0 && !route.anyMethod) app.use(path, corsFor(match));
      if (route.anyMethod) app.all(path, handler(match));
      else app.on(route.method, path, handler(match));
    }
  }
  // Whatever no route answers: a known path's 405 (with its methods), the GUI's page for a path the
  // API does not own when it is mounted, else the 404 (all of the versioned namespace is the API's).
  app.notFound((c) => {
    const { exchange } = c.env;
    const match = router.match(exchange.method, exchange.pathname);
    if (match) return handler(match)(c);
    return exchange.own(shapers.web(new Refusal('not_found'), exchange.requestId, exchange.headers));
  });
  app.onError((error, c) => refuse(c.env.exchange, 'web', error));

  return async (request, node) => {
    const exchange = new ExchangeState(request, node);
    const answer = await app.fetch(request, { exchange });
    // One log line per request: now, or when the event stream it answers with ends.
    const log = (status: number) =>
      core.logRequest(
        exchange.requestId,
        exchange.method,
        exchange.resolved?.template ?? UNMATCHED_TEMPLATE,
        status,
        exchange.started,
      );
    if (!exchange.owns(answer)) {
      // A library's answer (tRPC's, MCP's, the event stream's, a CORS preflight): the request's headers go on now.
      const { headers } = answer;
      for (const [name, value] of Object.entries(exchange.headers)) headers.set(name, value);
      if (headers.get('content-type')?.startsWith(EVENT_STREAM_MEDIA_TYPE))
        return onEnd(answer, () => log(exchange.outcome ?? answer.status));
    }
    log(exchange.outcome ?? answer.status);
    return answer;
  };
}

/** The answer with its event stream followed: `done` runs once when it ends, fails or is cancelled (the client left). */
function onEnd(answer: Response, done: () => void): Response {
  const body = answer.body;
  if (!body) {
    done();
    return answer;
  }
  const reader = body.getReader();
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      done();
    }
  };
  const followed = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await reader.read();
        if (finished) {
          controller.close();
          end();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        end();
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(followed, { status: answer.status, headers: answer.headers });
}

/**
 * The RateLimit fields of the per-minute limit and of the key's quotas as one list each: the
 * per-minute `per-key` item first (clients that read one policy read that one), the quotas after.
 */
function withQuotas(
  limit: Record<string, string>,
  quota: { policy?: string[]; state?: string[] },
  refusal: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const join = (name: string, items: readonly string[] = []) => {
    const all = [limit[name], refusal[name], ...items].filter((item): item is string => Boolean(item));
    return all.length > 0 ? { [name]: all.join(', ') } : {};
  };
  return { ...limit, ...refusal, ...join('ratelimit-policy', quota.policy), ...join('ratelimit', quota.state) };
}

class ExchangeState implements Exchange {
  readonly requestId = randomUUID();
  readonly started = performance.now();
  body = '';
  key: string | null = null;
  caller: KeyIdentity | null = null;
  rateLimit: RateLimitState | undefined;
  readonly headers: Record<string, string>;
  outcome?: number;
  /** The route's entry Hono routed the request to (undefined: no route, a 404). */
  resolved: RouteMatch | undefined;
  context!: Context;
  /** The answer built with this request's headers already on it. */
  #own: Response | undefined;

  readonly request: Request;
  readonly node: NodeBindings | undefined;
  readonly method: string;
  readonly pathname: string;

  constructor(request: Request, node: NodeBindings | undefined) {
    this.request = request;
    this.node = node;
    this.method = request.method;
    const url = request.url;
    // The path without the origin and the query: what `new URL` would give, without one.
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const query = url.indexOf('?', start);
    this.pathname = start < 0 ? '/' : url.slice(start, query < 0 ? undefined : query);
    this.headers = { 'x-request-id': this.requestId };
  }

  get match(): RouteMatch & { route: RouteDefinition } {
    return this.resolved as RouteMatch & { route: RouteDefinition };
  }

  get signal(): AbortSignal {
    return this.request.signal;
  }

  /** The peer's address, from the node adapter's socket (undefined in process). */
  get remoteAddress(): string | undefined {
    return this.node?.incoming.socket.remoteAddress;
  }

  header(name: string): string | null {
    return this.request.headers.get(name);
  }

  reply(status: number, body: string | Uint8Array | null, headers: Record<string, string>): Response {
    return this.own(new Response(body as BodyInit | null, { status, headers: { ...headers, ...this.headers } }));
  }

  json(status: number, body: string | Uint8Array, headers: Record<string, string> = {}): Response {
    return this.reply(status, body, { ...JSON_HEADERS, ...headers });
  }

  /** Marks an answer as built with this request's headers. */
  own(answer: Response): Response {
    this.#own = answer;
    return answer;
  }

  owns(answer: Response): boolean {
    return answer === this.#own;
  }

  /** Counts nothing unless the route is metered per call with the limit on (the request path sets it then). */
  meter: () => Promise<void> = async () => {};
}
