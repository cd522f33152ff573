import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isMetered,
  type RateLimitState,
  type RouteDefinition,
  type RouteMatch,
  type Router,
  UNMATCHED_TEMPLATE,
} from '@openmates/contract';
import type { ApiCore, PlainResponse } from './api-core.ts';
import { Refusal } from './refusal.ts';
import { readBody } from './transport.ts';

/**
 * One request as it passes the chain: the route it resolved to (once, from the table), what each
 * step found (the body, the key, the caller's rate-limit state) and the headers the steps add to
 * whatever answers it. Operations read what they need from here and never redo a step.
 */
export interface Exchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly method: string;
  /** The path without its query string. */
  readonly pathname: string;
  /** The route's entry and the path's methods: resolved once, before every step. */
  readonly match: RouteMatch & { route: RouteDefinition };
  readonly requestId: string;
  /** `performance.now()` when the request arrived. */
  readonly started: number;
  /** The body's text, read under the limits, for a route that takes one (`''` otherwise). */
  readonly body: string;
  /** The caller's API key (`null`: no keys configured, or a public route). */
  readonly key: string | null;
  /** The caller's state under the limit, read without counting (a route metered by `peek`); else undefined. */
  readonly rateLimit: RateLimitState | undefined;
  /** Headers every answer of this request carries: the request id, CORS's, the counted rate-limit state. */
  readonly headers: Record<string, string>;
  /** Aborts when the client goes away. */
  readonly signal: AbortSignal;
  /** One request header as a single string, `null` when absent (node joins repeated ones). */
  header(name: string): string | null;
  /**
   * Counts one metered call of a route metered per `call` (an MCP `tools/call`): resolves, or
   * rejects with the 429 refusal; either way the answer carries the caller's state after it.
   */
  meter(): Promise<void>;
  /** The status the log line reports when the answer's own does not tell the outcome (an event stream's end). */
  outcome?: number;
}

/** An operation that wrote its answer to the node response itself (the GUI's handler). */
export const SENT = Symbol('sent');

/** What an operation answers: plain data, a fetch Response (from a library), or `SENT`. */
export type Answer = PlainResponse | Response | typeof SENT;

/** The work a route does once the chain has admitted its request: all that a new route adds. */
export type Operation = (exchange: Exchange) => Promise<Answer>;

/** How a surface words a refusal: the contract's JSON, a JSON-RPC error object, tRPC's envelope. */
export type RefusalShaper = (refusal: Refusal, requestId: string) => PlainResponse;

export interface PipelineOptions {
  core: ApiCore;
  router: Router;
  /** The operation of every route the router can answer, by operation name. */
  operations: Readonly<Record<string, Operation>>;
  /** The refusal wording of each surface (a route's `tag`). */
  shapers: Readonly<Record<RouteDefinition['tag'], RefusalShaper>>;
  /** True when a request's `Host` and `Origin` may reach a route that `guardsHost`. */
  allowHost: (host: string | null, origin: string | null) => boolean;
}

/**
 * The server's one request path, as a node:http listener. Every request, whatever its surface
 * (REST, the event stream, tRPC, `/mcp`, the GUI's pages), is resolved once from the route table
 * and passes the same steps, each chosen by the route's entry: request id → CORS → host and origin
 * policy → body limits → key → metering → the operation → one log line.
 */
export function createPipeline(options: PipelineOptions): (request: IncomingMessage, response: ServerResponse) => void {
  const { core, router, operations, shapers, allowHost } = options;

  function refuse(exchange: ExchangeState, tag: RouteDefinition['tag'], error: unknown): void {
    const refusal = Refusal.of(error);
    const { response } = exchange;
    if (!refusal) {
      if (exchange.aborted || response.destroyed) {
        exchange.outcome = 499;
        response.destroy();
        return;
      }
      core.fault(error, exchange.requestId);
    }
    if (response.headersSent) {
      response.destroy();
      return;
    }
    writeAnswer(exchange, shapers[tag](refusal ?? new Refusal('internal_error'), exchange.requestId));
  }

  async function run(exchange: ExchangeState, match: RouteMatch): Promise<void> {
    const { request, headers } = exchange;
    const route = match.route;
    const gui = match.tag === 'gui';
    // CORS, for the API's paths only: a browser's preflight from an allowed origin is answered
    // with the path's methods; any other preflight is refused as the method it is (405).
    if (!gui) {
      const origin = exchange.header('origin');
      if (exchange.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
        const preflight = core.preflight(origin, match.allow);
        if (preflight) return writeAnswer(exchange, preflight);
      }
      Object.assign(headers, core.cors(origin));
    }
    if (!route)
      throw new Refusal('method_not_allowed', undefined, {
        headers: { allow: match.allow.join(', ') },
      });
    // A draining server takes no new work; its public routes (readiness among them) still answer.
    if (core.draining && isMetered(route)) throw core.shuttingDown();
    if (route.guardsHost && !allowHost(exchange.header('host'), exchange.header('origin')))
      throw new Refusal(
        'forbidden',
        'Requests from this origin or host name are not allowed: see OPENMATES_ALLOWED_ORIGINS.',
      );
    if (route.request && exchange.method === route.method) exchange.body = await readBody(request);
    if (route.needsKey) exchange.key = core.requireKey(exchange.header('authorization'));
    // With the limit off nothing is counted or read: not even the caller's identity is made.
    if (core.limited && route.metering !== 'none') {
      const identity = core.identity(exchange.key, request.socket.remoteAddress, exchange.header('x-forwarded-for'));
      if (route.metering === 'request') Object.assign(headers, await core.count(identity));
      else if (route.metering === 'peek') exchange.rateLimit = await core.peek(identity);
      else
        exchange.meter = async () => {
          try {
            Object.assign(headers, await core.count(identity));
          } catch (error) {
            if (error instanceof Refusal) Object.assign(headers, error.rateLimit);
            throw error;
          }
        };
    }
    const operation = operations[route.operation];
    if (!operation) throw new Error(`The route ${route.operation} has no operation.`);
    const answer = await operation(exchange);
    writeAnswer(exchange, answer);
  }

  return (request, response) => {
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query < 0 ? url : url.slice(0, query);
    // The one lookup of this request: every step below reads this entry.
    const match = router.match(method, pathname);
    const exchange = new ExchangeState(request, response, method, pathname, match);
    // One listener for the end of the exchange: a client gone early aborts the work, then the log line.
    response.once('close', () => {
      const finished = response.writableFinished;
      if (!finished) exchange.abort();
      const status = exchange.outcome ?? (finished ? response.statusCode : 499);
      core.logRequest(exchange.requestId, method, match?.template ?? UNMATCHED_TEMPLATE, status, exchange.started);
    });
    if (!match) {
      writeAnswer(exchange, shapers.web(new Refusal('not_found'), exchange.requestId));
      return;
    }
    run(exchange, match).catch((error: unknown) => refuse(exchange, match.tag, error));
  };
}

class ExchangeState implements Exchange {
  readonly requestId = randomUUID();
  readonly started = performance.now();
  body = '';
  key: string | null = null;
  rateLimit: RateLimitState | undefined;
  readonly headers: Record<string, string>;
  outcome?: number;
  #aborter: AbortController | undefined;

  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly method: string;
  readonly pathname: string;
  readonly resolved: RouteMatch | undefined;

  constructor(
    request: IncomingMessage,
    response: ServerResponse,
    method: string,
    pathname: string,
    resolved: RouteMatch | undefined,
  ) {
    this.request = request;
    this.response = response;
    this.method = method;
    this.pathname = pathname;
    this.resolved = resolved;
    this.headers = { 'x-request-id': this.requestId };
  }

  get match(): RouteMatch & { route: RouteDefinition } {
    return this.resolved as RouteMatch & { route: RouteDefinition };
  }

  /** Made on first use: most answers never need one. */
  get signal(): AbortSignal {
    if (!this.#aborter) {
      this.#aborter = new AbortController();
      if (this.response.destroyed && !this.response.writableFinished) this.abort();
    }
    return this.#aborter.signal;
  }

  /** The client went away before its answer was written: whatever runs for it stops. */
  abort(): void {
    this.#aborter?.abort(new Error('The client closed the connection.'));
  }

  get aborted(): boolean {
    return this.#aborter?.signal.aborted === true;
  }

  header(name: string): string | null {
    const value = this.request.headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** Counts nothing unless the route is metered per call with the limit on (the request path sets it then). */
  meter: () => Promise<void> = async () => {};
}

/** `Vary` lists every header an answer depends on: the chain's and the operation's together. */
function mergeVary(own: string | undefined, added: string | undefined): string | undefined {
  if (!own || !added) return own ?? added;
  const names = own.toLowerCase().split(/\s*,\s*/);
  return names.includes(added.toLowerCase()) ? own : `${own}, ${added}`;
}

function writeAnswer(exchange: ExchangeState, answer: Answer): void {
  const { response } = exchange;
  if (answer === SENT) return;
  if (answer instanceof Response) {
    void writeFetchResponse(exchange, answer);
    return;
  }
  const headers = { ...answer.headers, ...exchange.headers };
  const vary = mergeVary(answer.headers.vary, exchange.headers.vary);
  if (vary) headers.vary = vary;
  const { body } = answer;
  if (body instanceof ReadableStream) {
    void writeStream(response, answer.status, headers, body);
    return;
  }
  if (body === null || exchange.method === 'HEAD') {
    response.writeHead(answer.status, headers).end();
    return;
  }
  // A string goes out joined to its headers in one write and is encoded on the way: no Buffer of
  // its own to allocate, which cost about a tenth of a marked one-query request's CPU.
  headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  response.writeHead(answer.status, headers).end(body);
}

/** A library's fetch Response on the node response: a JSON body in one write, an event stream as it comes. */
async function writeFetchResponse(exchange: ExchangeState, answer: Response): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const streamed = answer.body !== null && (headers['content-type'] ?? '').startsWith('text/event-stream');
  if (streamed) {
    const merged = { ...headers, ...exchange.headers };
    void writeStream(exchange.response, answer.status, merged, answer.body as ReadableStream<Uint8Array>);
    return;
  }
  let bytes: Uint8Array | null = null;
  try {
    bytes = answer.body === null ? null : new Uint8Array(await answer.arrayBuffer());
  } catch {
    exchange.response.destroy();
    return;
  }
  writeAnswer(exchange, { status: answer.status, headers, body: bytes });
}

/** Writes an event stream chunk by chunk as it comes; a client that leaves cancels it (and the work behind it). */
async function writeStream(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: ReadableStream<Uint8Array>,
): Promise<void> {
  const reader = body.getReader();
  response.once('close', () => {
    if (!response.writableFinished) reader.cancel().catch(() => {});
  });
  response.writeHead(status, headers);
  response.flushHeaders();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      response.write(value);
    }
    response.end();
  } catch {
    response.destroy();
  }
}
