import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { HttpRequest } from '../../provider.ts';

// The one module of packages/core/src that calls out over HTTP (ADR 0113): every provider's
// requests, its doctor checks and OpenAI's streamed search go through `createHttpClient`. A test
// (`http-client-only.test.ts`) fails on any other `http.request`, undici or `fetch` call.

// undici loads when the first remote provider is built, with a synchronous `require` (it is
// CommonJS), so that a process that never calls out (the CLI searching its local index) does not
// load it, and a call's timeout never includes loading it.
const requireModule = createRequire(import.meta.url);
let undici: typeof import('undici') | undefined;

/** Loads the client's library now, so that a server's first search does not wait for it. */
export function loadHttpClient(): void {
  undici ??= requireModule('undici') as typeof import('undici');
}

/** An answer's status line and headers; its body is read (or discarded) through `HttpClient`. */
export interface HttpAnswer {
  readonly status: number;
  /** A header's value (repeated headers joined with `, `, as `Headers.get` does), or null. */
  header(name: string): string | null;
  /** The body, not read yet (a provider that streams reads it as it arrives). */
  readonly body: Readable;
}

/** Why reading a body stopped early. */
export type BodyFailure = 'too_large' | 'closed';

/** A keep-alive HTTP(S) client for one origin. */
export interface HttpClient {
  /**
   * Sends `request` and resolves with the answer as soon as its headers arrive; redirects are not
   * followed. A GET whose connection is lost before any answer is sent once more on a fresh one; a
   * POST never is. Rejects with the signal's reason when it aborts, else with the network error.
   */
  send(request: HttpRequest, signal: AbortSignal): Promise<HttpAnswer>;
  /**
   * Reads a body as UTF-8, refusing more than `maxBytes` (a declared Content-Length over it is
   * refused before reading; a gzip or deflate body is decoded and `maxBytes` bounds what it decodes
   * to). Rejects with the signal's reason when it aborts, else with a `BodyFailure`.
   */
  readText(answer: HttpAnswer, maxBytes: number, signal: AbortSignal): Promise<string>;
  /** Drops a body without reading it (a small one is drained so its connection can be reused). */
  discard(answer: HttpAnswer): void;
  /** Closes its connections. */
  close(): void;
}

// Errors of a connection that went away before any answer (undici's `SocketError` is UND_ERR_SOCKET).
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
// Bodies we drop (429s, wrong content types) are small; draining them keeps the connection.
const DRAIN_LIMIT = 64 * 1024;

/** The bytes and content type a request's body is sent as. */
function encodedBody(request: HttpRequest): { type: string; text: string } | undefined {
  const { body } = request;
  if (body === undefined) return undefined;
  if ('json' in body) return { type: 'application/json', text: JSON.stringify(body.json) };
  return { type: 'application/x-www-form-urlencoded', text: new URLSearchParams(body.form).toString() };
}

/** The request's headers, with its body's Content-Type unless the translator named one. */
function headersOf(request: HttpRequest, type: string | undefined): Record<string, string> {
  const headers = { ...request.headers };
  if (type !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
    headers['content-type'] = type;
  return headers;
}

/**
 * The client for `origin`, on undici's `Pool` (keep-alive connections to one origin), which costs
 * less CPU per call than node:http's client and `fetch` (ADR 0113). undici yields once before it
 * reuses an idle connection, so a close the server already sent is seen first; the close it cannot
 * see (the server closing as the request goes out) fails before any answer, and only a GET is then
 * sent again: a POST may already have started remote work. undici does not say whether the lost
 * connection was a reused one, so a GET losing a fresh one that way is tried twice too.
 */
export function createHttpClient(origin: URL): HttpClient {
  loadHttpClient();
  const pool = new (undici as typeof import('undici')).Pool(origin.origin);

  async function once(request: HttpRequest, signal: AbortSignal): Promise<HttpAnswer> {
    const encoded = encodedBody(request);
    const response = await pool.request({
      path: `${request.url.pathname}${request.url.search}`,
      method: request.method,
      headers: headersOf(request, encoded?.type),
      ...(encoded === undefined ? {} : { body: encoded.text }),
      signal,
    });
    return {
      status: response.statusCode,
      header: (name) => joinedHeader(response.headers[name.toLowerCase()]),
      body: response.body,
    };
  }

  return {
    async send(request, signal) {
      signal.throwIfAborted();
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await once(request, signal);
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          const code = (error as { code?: unknown }).code;
          const lost = typeof code === 'string' && CONNECTION_LOST.has(code);
          if (attempt === 0 && lost && request.method === 'GET') continue;
          throw error;
        }
      }
    },
    readText: readBodyText,
    discard: discardBody,
    close() {
      pool.destroy().catch(() => {});
    },
  };
}

/**
 * A provider's client for `origin`, made on first use, so that building a provider opens nothing;
 * the library is loaded now, when a remote provider is built, so that no call's timeout pays for
 * loading it (a local search builds none and loads nothing). `close` ends the client (the next use
 * makes another).
 */
export function lazyHttpClient(origin: URL): { get: () => HttpClient; close: () => void } {
  loadHttpClient();
  let client: HttpClient | undefined;
  return {
    get() {
      client ??= createHttpClient(origin);
      return client;
    },
    close() {
      client?.close();
      client = undefined;
    },
  };
}

/** A header's value as `HttpAnswer.header` gives it: repeats joined with `, `, absent as null. */
function joinedHeader(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** `HttpClient.readText`: undici ends the body with an error when its connection goes away mid-answer. */
function readBodyText(answer: HttpAnswer, maxBytes: number, signal: AbortSignal): Promise<string> {
  const body = answer.body;
  if (Number(answer.header('content-length') ?? 0) > maxBytes) {
    drop(body);
    return Promise.reject<string>('too_large' satisfies BodyFailure);
  }
  const encoding = answer.header('content-encoding')?.trim().toLowerCase();
  // Only a provider that asks for compression gets it (SearXNG's limiter wants gzip offered).
  const zlib =
    encoding === 'gzip' || encoding === 'deflate'
      ? (process.getBuiltinModule('node:zlib') as typeof import('node:zlib'))
      : undefined;
  const decoder = zlib && (encoding === 'gzip' ? zlib.createGunzip() : zlib.createInflate());
  const source = decoder ? body.pipe(decoder) : body;
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (why: BodyFailure) => {
      cleanup();
      drop(body);
      decoder?.destroy();
      reject(signal.aborted ? signal.reason : why);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) fail('too_large');
      else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      if (signal.aborted) reject(signal.reason);
      else
        resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    };
    const onClosed = () => fail('closed');
    const onClose = () => {
      if (!body.readableEnded) fail('closed');
    };
    function cleanup() {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onClosed);
      body.off('error', onClosed);
      body.off('close', onClose);
      signal.removeEventListener('abort', onClosed);
    }
    if (signal.aborted) return fail('closed');
    signal.addEventListener('abort', onClosed, { once: true });
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onClosed);
    if (decoder) body.once('error', onClosed);
    body.once('close', onClose);
  });
}

/** `HttpClient.discard`. */
function discardBody(answer: HttpAnswer): void {
  const length = Number(answer.header('content-length') ?? Number.NaN);
  if (Number.isFinite(length) && length <= DRAIN_LIMIT) {
    answer.body.on('error', () => {});
    answer.body.resume();
  } else drop(answer.body);
}

/** Destroys a body nobody reads any more (undici then reports an abort error nobody needs). */
function drop(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/**
 * A page's URL maker for `endpoint`: the endpoint without its query or fragment, with `search` as
 * its query, made by one parse of one string (a copy of the endpoint with `search` set parses twice).
 */
export function queryUrls(endpoint: URL): (search: URLSearchParams) => URL {
  const path = Object.assign(new URL(endpoint), { search: '', hash: '' }).href;
  return (search) => {
    const query = search.toString();
    return new URL(query === '' ? path : `${path}?${query}`);
  };
}
