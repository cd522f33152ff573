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

/** Serves a fetch handler with node:http (through @hono/node-server's request bridge). */
export async function listen(handler: FetchHandler, options: { host: string; port: number }): Promise<RunningServer> {
  const listener = getRequestListener((request, env) =>
    handler(request, {
      remoteAddress:
        (env as { incoming?: { socket?: { remoteAddress?: string } } }).incoming?.socket?.remoteAddress ?? '',
    }),
  );
  const server = createServer(listener);
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
