import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

/** An answer's status line and headers; its body is read (or discarded) through `HttpGetClient`. */
export interface HttpAnswer {
  status: number;
  /** A header's value (repeated headers joined with `, `, as `Headers.get` does), or null. */
  header(name: string): string | null;
  /** The body, not read yet. */
  readonly body: Readable;
}

/** Why reading a body stopped early. */
export type BodyFailure = 'too_large' | 'closed';

/** A keep-alive HTTP(S) GET client for one origin. */
export interface HttpGetClient {
  /**
   * Sends a GET and resolves with the answer as soon as its headers arrive; redirects are not
   * followed. Rejects with the signal's reason when it aborts, else with the network error.
   */
  get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<HttpAnswer>;
  /**
   * Reads a body as UTF-8, refusing more than `maxBytes` (a declared Content-Length over it is
   * refused before reading; a gzip or deflate body is decoded and `maxBytes` bounds what it decodes
   * to). Rejects with the signal's reason when it aborts, else with a `BodyFailure`.
   */
  readText(answer: HttpAnswer, maxBytes: number, signal: AbortSignal): Promise<string>;
  /** Drops a body without reading it (a small one is drained so its connection can be reused). */
  discard(answer: HttpAnswer): void;
  /** Closes idle connections. */
  close(): void;
}

/**
 * Makes the client a provider calls its origin with. Providers use `createHttpGetClient`
 * (node:http) unless given another: `openmates serve` gives `createUndiciGetClient`.
 */
export type HttpGetClientFactory = (origin: URL) => HttpGetClient;

/**
 * A provider's client for `origin`, made by `factory` (default `createHttpGetClient`) on first use,
 * so that building a provider opens nothing; `close` ends it (the next use makes another).
 */
export function lazyHttpGetClient(
  origin: URL,
  factory: HttpGetClientFactory = createHttpGetClient,
): { get(): HttpGetClient; close(): void } {
  let client: HttpGetClient | undefined;
  return {
    get: () => (client ??= factory(origin)),
    close() {
      client?.close();
      client = undefined;
    },
  };
}

// Bodies we drop (429s, wrong content types) are small; draining them keeps the connection.
const DRAIN_LIMIT = 64 * 1024;

/**
 * A GET client on node:http / node:https with a keep-alive agent: a search provider calls one
 * origin over and over, and undici's `fetch` costs several times more CPU per call (web streams,
 * WebIDL conversions) for the same request. The modules load on first use, so a process that never
 * calls out (the CLI on the local index) does not load them.
 */
export function createHttpGetClient(origin: URL): HttpGetClient {
  const secure = origin.protocol === 'https:';
  const http = process.getBuiltinModule(secure ? 'node:https' : 'node:http') as typeof import('node:http');
  const agent: HttpAgent = new http.Agent({ keepAlive: true });

  function once(url: URL, headers: Record<string, string>, signal: AbortSignal) {
    return new Promise<{ answer: HttpAnswer; reused: boolean } | { error: unknown; reused: boolean }>((resolve) => {
      const request = http.request(url, { method: 'GET', headers, agent, signal }, (response) => {
        const answer: HttpAnswer = {
          status: response.statusCode ?? 0,
          header: (name) => joinedHeader(response.headers[name.toLowerCase()]),
          body: response,
        };
        resolve({ answer, reused: request.reusedSocket });
      });
      request.once('error', (error) => resolve({ error, reused: request.reusedSocket }));
      request.end();
    });
  }

  return {
    async get(url, headers, signal) {
      signal.throwIfAborted();
      for (let attempt = 0; ; attempt += 1) {
        const outcome = await once(url, headers, signal);
        if ('answer' in outcome) return outcome.answer;
        if (signal.aborted) throw signal.reason;
        // A kept-alive connection the server closed while idle fails before any answer: a GET is
        // safe to send again, once, on a fresh connection.
        const code = (outcome.error as { code?: unknown }).code;
        if (attempt === 0 && outcome.reused && (code === 'ECONNRESET' || code === 'EPIPE')) continue;
        throw outcome.error;
      }
    },
    // 'close' before the whole message means the connection went away mid-answer.
    readText: (answer, maxBytes, signal) =>
      readBodyText(answer, maxBytes, signal, () => (answer.body as IncomingMessage).complete),
    discard: discardBody,
    close() {
      agent.destroy();
    },
  };
}

/** A header's value as `HttpAnswer.header` gives it: repeats joined with `, `, absent as null. */
export function joinedHeader(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * `HttpGetClient.readText` for a body that is a node stream: `whole()` says, when the body closes,
 * whether it had all arrived (else the connection went away mid-answer).
 */
export function readBodyText(answer: HttpAnswer, maxBytes: number, signal: AbortSignal, whole: () => boolean) {
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
    const onAbort = () => fail('closed');
    const onClose = () => {
      if (!whole()) fail('closed');
    };
    function cleanup() {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onClosed);
      body.off('error', onClosed);
      body.off('aborted', onClosed);
      body.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
    }
    if (signal.aborted) return fail('closed');
    signal.addEventListener('abort', onAbort, { once: true });
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onClosed);
    if (decoder) body.once('error', onClosed);
    body.once('aborted', onClosed);
    body.once('close', onClose);
  });
}

/** `HttpGetClient.discard` for a body that is a node stream. */
export function discardBody(answer: HttpAnswer): void {
  const length = Number(answer.header('content-length') ?? Number.NaN);
  if (Number.isFinite(length) && length <= DRAIN_LIMIT) {
    answer.body.on('error', () => {});
    answer.body.resume();
  } else drop(answer.body);
}

/** Destroys a body nobody reads any more (undici's then reports an abort error nobody needs). */
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
