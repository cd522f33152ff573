import { createRequire } from 'node:module';
import { discardBody, type HttpAnswer, type HttpGetClient, joinedHeader, readBodyText } from './http-get.ts';

// undici loads on the first client made, with a synchronous `require` (it is CommonJS), so that a
// process that never makes one (the CLI's own searches, which keep node:http) does not load it.
const requireModule = createRequire(import.meta.url);
let undici: typeof import('undici') | undefined;

/** Loads undici now (about a tenth of a second), so that a server's first search does not wait for it. */
export function loadUndici(): typeof import('undici') {
  undici ??= requireModule('undici') as typeof import('undici');
  return undici;
}

// Errors of a connection that went away before any answer (undici's `SocketError` is UND_ERR_SOCKET).
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * The same GET client as `createHttpGetClient`, on undici's `Pool` (keep-alive connections to one
 * origin): about a fifth less CPU per provider call than node:http's client, which a saturated
 * server spends on every search (ADR 0057). `openmates serve` uses it; the CLI
 * keeps node:http, which is already loaded, so that its cold start does not pay for loading undici.
 *
 * What differs from node:http, and why it is the same to a provider:
 * - undici yields once before it reuses an idle connection, so a close the server already sent is
 *   seen first and a fresh connection is opened instead.
 * - The close it cannot see (the server closing while the request is on its way) fails before any
 *   answer; a GET is then sent once more, as node:http's client does for a reused connection. undici
 *   does not say whether the connection was a reused one, so a fresh one that fails that way is
 *   tried twice too.
 */
export function createUndiciGetClient(origin: URL): HttpGetClient {
  const pool = new (loadUndici().Pool)(origin.origin);

  async function once(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<HttpAnswer> {
    const response = await pool.request({ path: `${url.pathname}${url.search}`, method: 'GET', headers, signal });
    return {
      status: response.statusCode,
      header: (name) => joinedHeader(response.headers[name.toLowerCase()]),
      body: response.body,
    };
  }

  return {
    async get(url, headers, signal) {
      signal.throwIfAborted();
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await once(url, headers, signal);
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          const code = (error as { code?: unknown }).code;
          if (attempt === 0 && typeof code === 'string' && CONNECTION_LOST.has(code)) continue;
          throw error;
        }
      }
    },
    // undici ends the body with an error when its connection goes away mid-answer.
    readText: (answer, maxBytes, signal) => readBodyText(answer, maxBytes, signal, () => answer.body.readableEnded),
    discard: discardBody,
    close() {
      pool.destroy().catch(() => {});
    },
  };
}
