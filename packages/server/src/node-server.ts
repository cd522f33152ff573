import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { PATHS } from '@openmates/contract';
import type { FetchHandler } from './handler.ts';

export interface RunningServer {
  /** The origin it listens on, e.g. `http://127.0.0.1:8787`. */
  url: string;
  server: Server;
  /**
   * Stops accepting connections and resolves when in-flight requests have finished (idle
   * keep-alive sockets are closed at once; busy ones after `graceMs`, default 30 s).
   */
  close(graceMs?: number): Promise<void>;
}

/** A node-style handler for everything that is not the API (the web GUI's built handler). */
export type NodeFallback = (request: IncomingMessage, response: ServerResponse) => void;

/** True for the paths the API owns: `/v1/…`, `/trpc…`, `/docs…` and `/healthz`. */
export function isApiPath(pathname: string): boolean {
  return (
    pathname.startsWith('/v1/') ||
    [PATHS.trpc, PATHS.docs].some((p) => pathname === p || pathname.startsWith(`${p}/`)) ||
    pathname === PATHS.health
  );
}

/**
 * Serves a fetch handler with node:http (through @hono/node-server's request bridge). With a
 * `fallback`, paths the API does not own go to it instead, so the GUI shares the API's origin.
 */
export async function listen(
  handler: FetchHandler,
  options: { host: string; port: number; fallback?: NodeFallback },
): Promise<RunningServer> {
  const api = getRequestListener((request, env) =>
    handler(request, {
      remoteAddress:
        (env as { incoming?: { socket?: { remoteAddress?: string } } }).incoming?.socket?.remoteAddress ?? '',
      lengthEnforced: true,
    }),
  );
  const { fallback } = options;
  // Responses in progress, so that close() can end their keep-alive connections once they finish
  // instead of waiting for the client or the keep-alive timeout.
  const active = new Set<ServerResponse>();
  let closing = false;
  const endAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
    else response.once('finish', () => response.socket?.end());
  };
  const server = createServer((request, response) => {
    active.add(response);
    response.once('close', () => active.delete(response));
    if (closing) endAfter(response);
    const pathname = (request.url ?? '/').split('?')[0] ?? '/';
    if (fallback && !isApiPath(pathname)) fallback(request, response);
    else void api(request, response);
  });
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
    close(graceMs = 30_000) {
      closing = true;
      for (const response of active) endAfter(response);
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}
