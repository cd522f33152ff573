import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { isApiPath, matchRoute, ROUTE_TABLE } from '@openmates/contract';
import type { PlainRequest, PlainResponse } from './api-core.ts';
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_DRAIN_MS, DEFAULT_HEADERS_TIMEOUT_MS } from './env.ts';
import type { ApiHandler, FetchHandler } from './handler.ts';
import { checkBodyHeaders, decodeBody } from './transport.ts';

export interface RunningServer {
  /** The origin it listens on, e.g. `http://127.0.0.1:8787`. */
  url: string;
  server: Server;
  /**
   * Drains, then stops: new work is refused at once (the handler's `drain()`: `/readyz` and new
   * searches answer 503, every response carries `Connection: close`, idle keep-alive sockets are
   * closed), requests in flight may finish within `graceMs` (default 10 s), and whatever still
   * runs then is cut off. Resolves once the server is closed.
   */
  close(graceMs?: number): Promise<void>;
}

/** Options of `listen()`: where to bind, and how long slow clients may take. */
export interface ListenOptions {
  host: string;
  port: number;
  /** Paths the API does not own go here (the web GUI); JSON 404 when absent. */
  fallback?: NodeFallback;
  /** A client must send its request headers within this, or gets 408 and is disconnected (default 10000). */
  headersTimeoutMs?: number;
  /** A client must send its whole request, body included, within this (default 30000; ≥ `headersTimeoutMs`). */
  bodyTimeoutMs?: number;
}

/** A node-style handler for everything that is not the API (the web GUI's built handler). */
export type NodeFallback = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * True for a search POST whose body node:http holds to a declared Content-Length: the one request
 * shape served without the fetch bridge (chunked bodies keep the bridge's counted stream read).
 */
function isFastSearch(request: IncomingMessage, pathname: string): boolean {
  const { headers } = request;
  return (
    matchRoute(request.method ?? '', pathname)?.route?.operation === ROUTE_TABLE.search.operation &&
    headers['transfer-encoding'] === undefined &&
    headers['content-length'] !== undefined &&
    /^\d+$/.test(headers['content-length'])
  );
}

/** Reads a body's text whose length node:http enforces, after the core's header checks (415, 413). */
function readNodeBody(request: IncomingMessage): Promise<string> {
  checkBodyHeaders(request.headers['content-type'], request.headers['content-length']);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('error', reject);
    request.once('end', () => resolve(decodeBody(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks))));
  });
}

function writePlain(response: ServerResponse, plain: PlainResponse): void {
  if (plain.body instanceof ReadableStream) {
    void writeStream(response, plain.status, plain.headers, plain.body);
    return;
  }
  if (plain.body === null) {
    response.writeHead(plain.status, plain.headers).end();
    return;
  }
  // As bytes: node:http writes a Buffer with its headers in one writev, where a string is joined
  // to the headers and encoded on the way out.
  const bytes = Buffer.from(plain.body);
  plain.headers['content-length'] = String(bytes.length);
  response.writeHead(plain.status, plain.headers).end(bytes);
}

/** Writes an event stream chunk by chunk as it comes; a client that leaves cancels it (and the search). */
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

/**
 * The search route straight from node:http: the core that the fetch handler runs too, without
 * building a Request and a Response for every search (the bridge was a large part of its cost).
 */
function serveSearch(
  handleSearch: (request: PlainRequest) => Promise<PlainResponse>,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const aborter = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) aborter.abort(new Error('The client closed the connection.'));
  });
  handleSearch({
    method: 'POST',
    authorization: request.headers.authorization ?? null,
    accept: request.headers.accept ?? null,
    remoteAddress: request.socket.remoteAddress ?? '',
    forwardedFor: (request.headers['x-forwarded-for'] as string | undefined) ?? null, // node joins repeats with ', '
    origin: request.headers.origin ?? null,
    signal: aborter.signal,
    readBody: () => readNodeBody(request),
  }).then(
    (plain) => writePlain(response, plain),
    () => response.destroy(),
  );
}

/**
 * Serves a fetch handler with node:http (through @hono/node-server's request bridge; an
 * `ApiHandler`'s search route directly). With a `fallback`, paths the API does not own go to it
 * instead, so the GUI shares the API's origin.
 */
export async function listen(handler: FetchHandler | ApiHandler, options: ListenOptions): Promise<RunningServer> {
  const api = getRequestListener((request, env) =>
    handler(request, {
      remoteAddress:
        (env as { incoming?: { socket?: { remoteAddress?: string } } }).incoming?.socket?.remoteAddress ?? '',
      lengthEnforced: true,
    }),
  );
  const { fallback } = options;
  const fastSearch = 'handleSearch' in handler ? handler.handleSearch : undefined;
  // Responses in progress, so that close() can end their keep-alive connections once they finish
  // instead of waiting for the client or the keep-alive timeout.
  const active = new Set<ServerResponse>();
  let closing = false;
  const endAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
    else response.once('finish', () => response.socket?.end());
  };
  let settled: (() => void) | undefined;
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeout = Math.max(options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS, headersTimeout);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // node checks those deadlines on this interval (30 s by default), which would stretch a short one.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
    },
    (request, response) => {
      active.add(response);
      response.once('close', () => {
        active.delete(response);
        if (active.size === 0) settled?.();
      });
      if (closing) endAfter(response);
      const pathname = (request.url ?? '/').split('?')[0] ?? '/';
      if (fastSearch && isFastSearch(request, pathname)) return serveSearch(fastSearch, request, response);
      if (fallback && !isApiPath(pathname)) fallback(request, response);
      else void api(request, response);
    },
  );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    server,
    async close(graceMs = DEFAULT_DRAIN_MS) {
      if (!closing) {
        closing = true;
        if ('drain' in handler) handler.drain();
        for (const response of active) endAfter(response);
      }
      server.closeIdleConnections();
      // Still listening while requests are in flight: a request that reaches this server now gets
      // a clean 503 with Connection: close (which clients retry) rather than a refused connection.
      if (active.size > 0)
        await new Promise<void>((resolve) => {
          const force = setTimeout(resolve, graceMs);
          force.unref();
          settled = () => {
            clearTimeout(force);
            resolve();
          };
        });
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
