import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { OpenMates } from '@openmates/sdk';
import { dev } from '$app/env';
import { OPENMATES_API_URL } from '$app/env/private';

/**
 * Where this page's server reaches the API. `openmates serve` serves both on one listener, so the
 * API is at the very address the request arrived on. That address comes from the socket, never
 * from the Host header, which a client could point at another machine. Under `vite dev` only,
 * `OPENMATES_API_URL` names a separately started server.
 */
export function apiOrigin(event: { url: URL; platform?: { req?: IncomingMessage } | undefined }): string {
  if (dev && OPENMATES_API_URL) return OPENMATES_API_URL;
  const socket = event.platform?.req?.socket;
  if (socket?.localAddress && socket.localPort) {
    const host = socket.localAddress.includes(':') ? `[${socket.localAddress}]` : socket.localAddress;
    return `${(socket as TLSSocket).encrypted ? 'https' : 'http'}://${host}:${socket.localPort}`;
  }
  return event.url.origin;
}

/**
 * A client for the API. The key is only ever the one the user entered: `null` keeps the SDK from
 * falling back to an `OPENMATES_API_KEY` in the server's environment, which would open a way
 * around the API's keys. No retries: the user sees an answer (or an error) at once.
 */
export function apiClient(baseURL: string, apiKey: string | undefined, fetch: typeof globalThis.fetch): OpenMates {
  return new OpenMates({ baseURL, apiKey: apiKey ?? null, fetch, maxRetries: 0 });
}

/** Where to go after the key form: only a path of this page, so the form is no open redirect. */
export function safeReturnPath(next: unknown, origin: string): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//')) return '/';
  const url = new URL(next, origin);
  return url.origin === origin && url.pathname === '/' ? `/${url.search}` : '/';
}
