import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_DRAIN_MS, DEFAULT_HEADERS_TIMEOUT_MS } from './env.ts';
import type { ApiHandler } from './handler.ts';
import type { NodeBindings } from './node-bindings.ts';

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
  /** A client must send its request headers within this, or gets 408 and is disconnected (default 10000). */
  headersTimeoutMs?: number;
  /** A client must send its whole request, body included, within this (default 30000; ≥ `headersTimeoutMs`). */
  bodyTimeoutMs?: number;
}

/**
 * Serves the API's fetch handler with node:http, through `@hono/node-server`'s listener (the
 * adapter at the edge: the one place node's request and response become a fetch `Request` and
 * back): every request, the GUI's pages included when the handler mounts them, goes to the
 * handler's one request path. node:http keeps what only it can do: the slow-client deadlines
 * (ADR 0053) and the connections a drain closes (ADR 0051).
 */
export async function listen(handler: ApiHandler, options: ListenOptions): Promise<RunningServer> {
  // An HTTP/1 server: its bindings are node:http's.
  const listener = getRequestListener((request, node) => handler.fetch(request, node as NodeBindings));
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
      void listener(request, response);
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
        handler.drain();
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
