import { connect, createServer, type Server, type Socket } from 'node:net';
import { ErrorResponseSchema, PATHS, ResultGroupSchema, WebSearchResponseSchema } from '@openmates/contract';
import { type Engine, ProviderNotConfiguredError } from '@openmates/core';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig } from './env.ts';
import { createHandler } from './handler.ts';
import { wantsEventStream } from './search-route.ts';
import { failingProvider, startTestEngine, startTestServer, type TestServer } from './testing/index.ts';

let brave: BraveFixture;
let server: TestServer;
beforeAll(async () => {
  brave = await startBraveFixture();
  server = await startTestServer(brave, { env: { OPENMATES_STREAM_KEEPALIVE_MS: '20' } });
});
afterAll(async () => {
  await server.close();
  await brave.close();
});
afterEach(() => brave.reset());

const STREAM = 'text/event-stream';

/** What an SSE reader hands over: an event with its parsed data, or a comment line. */
type Frame = { event: string; data: unknown } | { comment: string };

/** Reads an event stream frame by frame (blocks separated by a blank line), as its bytes arrive. */
async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body) {
    text += decoder.decode(chunk, { stream: true });
    for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      if (block.startsWith(':')) {
        yield { comment: block.slice(1).trim() };
        continue;
      }
      const fields = Object.fromEntries(
        block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      expect(Object.keys(fields).sort()).toEqual(['data', 'event']);
      yield { event: fields.event as string, data: JSON.parse(fields.data as string) };
    }
  }
  expect(text).toBe('');
}

function search(
  body: unknown,
  accept: string | undefined,
  signal?: AbortSignal,
  origin = server.url,
): Promise<Response> {
  return fetch(origin + PATHS.search, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accept ? { accept } : {}) },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

const withoutRequestId = (document: unknown) => ({ ...(document as object), request_id: undefined });

/** Every event of a stream (comments left out), after checking the stream's headers. */
async function events(response: Response): Promise<{ event: string; data: unknown }[]> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('x-accel-buffering')).toBe('no');
  const out: { event: string; data: unknown }[] = [];
  for await (const frame of frames(response.body as ReadableStream<Uint8Array>)) if ('event' in frame) out.push(frame);
  return out;
}

describe('Accept negotiation', () => {
  it('streams only when text/event-stream is named and preferred', () => {
    expect(wantsEventStream(STREAM)).toBe(true);
    expect(wantsEventStream('text/event-stream, application/json;q=0.5')).toBe(true);
    expect(wantsEventStream('*/*')).toBe(false);
    expect(wantsEventStream('text/*')).toBe(false);
    expect(wantsEventStream(null)).toBe(false);
    expect(wantsEventStream('application/json, text/event-stream;q=0.9')).toBe(false);
  });

  it('answers Accept: */* with the JSON response', async () => {
    const response = await search({ requests: [{ query: 'plain json' }] }, '*/*');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(WebSearchResponseSchema.parse(await response.json()).results).toHaveLength(1);
  });
});

describe('POST search as an event stream', () => {
  it('sends the fast group while the slow query is still held at the provider, then done', async () => {
    const body = {
      requests: [
        { id: 'slow', query: 'hold slow words' },
        { id: 'fast', query: 'fast words' },
      ],
    };
    const response = await search(body, STREAM);
    expect(response.status).toBe(200);
    const reader = frames(response.body as ReadableStream<Uint8Array>);
    let first: Frame | undefined;
    // Read by hand: leaving a for-await loop would close the stream.
    while (!(first && 'event' in first)) first = (await reader.next()).value as Frame;
    // The slow answer is still held: a server that buffered the stream could not have sent this yet.
    expect(first).toMatchObject({ event: 'group', data: { id: 'fast' } });
    ResultGroupSchema.parse((first as { data: unknown }).data);
    await brave.waitForHeld(1);
    brave.release();
    const rest: Frame[] = [];
    for await (const frame of { [Symbol.asyncIterator]: () => reader }) if ('event' in frame) rest.push(frame);
    expect(rest.map((f) => ('event' in f ? f.event : ''))).toEqual(['group', 'done']);
    expect(rest[0]).toMatchObject({ data: { id: 'slow' } });
    const done = WebSearchResponseSchema.parse((rest[1] as { data: unknown }).data);
    // The same request as plain JSON: its slow query is held again until released.
    const plainAnswer = search(body, undefined);
    await brave.waitForHeld(1);
    brave.release();
    const plain = await plainAnswer;
    expect(withoutRequestId(done)).toEqual(withoutRequestId(await plain.json()));
  });

  it('streams a chunked body (no Content-Length) group by group', async () => {
    const body = {
      requests: [
        { id: 'slow', query: 'hold bridged slow' },
        { id: 'fast', query: 'bridged fast' },
      ],
    };
    const bytes = new TextEncoder().encode(JSON.stringify(body));
    const response = await fetch(server.url + PATHS.search, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: STREAM },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const reader = frames(response.body as ReadableStream<Uint8Array>);
    let first: Frame | undefined;
    while (!(first && 'event' in first)) first = (await reader.next()).value as Frame;
    expect(first).toMatchObject({ event: 'group', data: { id: 'fast' } });
    await brave.waitForHeld(1);
    brave.release();
    const rest: string[] = [];
    for await (const frame of { [Symbol.asyncIterator]: () => reader }) if ('event' in frame) rest.push(frame.event);
    expect(rest).toEqual(['group', 'done']);
  });

  it('ends a batch in which every group failed with done, the same document as the JSON 502', async () => {
    const body = { requests: [{ query: 'unavailable one' }] };
    const all = await events(await search(body, STREAM));
    expect(all.map((e) => e.event)).toEqual(['group', 'done']);
    const plain = await search(body, undefined);
    expect(plain.status).toBe(502);
    expect(withoutRequestId(all[1]?.data)).toEqual(withoutRequestId(await plain.json()));
  });

  it('sends a group for a cache hit too, which is ready before the stream begins', async () => {
    const cached = await startTestServer(brave, { engineEnv: { OPENMATES_CACHE_TTL_S: '60' } });
    try {
      const warm = await fetch(cached.url + PATHS.search, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requests: [{ query: 'cached words' }] }),
      });
      expect(warm.status).toBe(200);
      const calls = brave.requests.length;
      const body = {
        requests: [
          { id: 'hit', query: 'cached words' },
          { id: 'miss', query: 'fresh words' },
        ],
      };
      const all = await events(await search(body, STREAM, undefined, cached.url));
      expect(brave.requests.length).toBe(calls + 1);
      expect(all.map((e) => e.event)).toEqual(['group', 'group', 'done']);
      expect(all.slice(0, 2).map((e) => (e.data as { id: string }).id)).toEqual(['hit', 'miss']);
      const onlyHits = await events(
        await search({ requests: [{ id: 'again', query: 'cached words' }] }, STREAM, undefined, cached.url),
      );
      expect(onlyHits.map((e) => e.event)).toEqual(['group', 'done']);
    } finally {
      await cached.close();
    }
  });

  it('refuses an invalid request with the ordinary JSON 4xx before any stream', async () => {
    const invalid = await search({ requests: [] }, STREAM);
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(ErrorResponseSchema.parse(await invalid.json()).code).toBe('invalid_request');
    const wrongType = await fetch(server.url + PATHS.search, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: STREAM },
      body: '{}',
    });
    expect(wrongType.status).toBe(415);
    expect(ErrorResponseSchema.parse(await wrongType.json()).code).toBe('unsupported_media_type');
  });

  it('refuses an invalid request with the JSON 400, not a 200 stream, also when validation awaits', async () => {
    // The server core is a fetch function: built here over an engine whose validation step awaits
    // before it answers (as one that consults a shared store would), and called in process.
    const { engine, logs } = startTestEngine(brave);
    const awaiting: Engine = {
      ...engine,
      async validateText(text, options) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        return engine.validateText(text, options);
      },
    };
    const handler = createHandler({ engine: awaiting, version: '0.0.0-test', config: loadServerConfig({}) });
    try {
      for (const body of ['{"requests":[]}', '{"requests":[{"query":"x","count":0}]}', 'not json']) {
        const answer = await handler.fetch(
          new Request(`http://127.0.0.1${PATHS.search}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: STREAM },
            body,
          }),
        );
        expect([body, answer.status, answer.headers.get('content-type')]).toEqual([
          body,
          400,
          'application/json; charset=utf-8',
        ]);
        expect(ErrorResponseSchema.parse(await answer.json()).code).toBe('invalid_request');
      }
      // A valid request still streams through the same engine.
      const valid = await handler.fetch(
        new Request(`http://127.0.0.1${PATHS.search}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: STREAM },
          body: JSON.stringify({ requests: [{ query: 'awaited validation' }] }),
        }),
      );
      expect(valid.status).toBe(200);
      const events = [];
      for await (const frame of frames(valid.body as ReadableStream<Uint8Array>))
        if ('event' in frame) events.push(frame.event);
      expect(events).toEqual(['group', 'done']);
      expect(logs.some((line) => line.includes('"status":200') && line.includes('"event":"http"'))).toBe(true);
    } finally {
      await engine.close();
    }
  });

  it('refuses a missing API key with the JSON 401', async () => {
    const keyed = await startTestServer(brave, { env: { OPENMATES_API_KEYS: 'stream-test-key-0123456789' } });
    try {
      const response = await fetch(keyed.url + PATHS.search, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: STREAM },
        body: JSON.stringify({ requests: [{ query: 'no key' }] }),
      });
      expect(response.status).toBe(401);
      expect(ErrorResponseSchema.parse(await response.json()).code).toBe('unauthorized');
    } finally {
      await keyed.close();
    }
  });

  it('aborts the provider call still running when the client disconnects', async () => {
    const controller = new AbortController();
    const response = await search({ requests: [{ query: 'hold abandoned' }] }, STREAM, controller.signal);
    expect(response.status).toBe(200);
    await brave.waitForHeld(1);
    controller.abort();
    // The fixture sees its client (our provider call) go away before it answered.
    await brave.waitForAborted(1);
    expect(brave.heldAborted).toBe(1);
  });

  it('keeps the connection alive with comment lines while the slowest query runs', async () => {
    const response = await search({ requests: [{ query: 'hold kept alive' }] }, STREAM);
    const comments: string[] = [];
    const seen: string[] = [];
    let released = false;
    for await (const frame of frames(response.body as ReadableStream<Uint8Array>)) {
      if ('comment' in frame) comments.push(frame.comment);
      // Two keep-alives while the answer is held, then let it through.
      if (comments.length === 2 && !released) {
        await brave.waitForHeld(1);
        brave.release();
        released = true;
      }
      if ('event' in frame) seen.push(frame.event);
    }
    expect(comments.length).toBeGreaterThanOrEqual(2);
    expect(new Set(comments)).toEqual(new Set(['keep-alive']));
    expect(seen).toEqual(['group', 'done']);
  });

  it('ends with one error event when the provider becomes unusable after the stream began', async () => {
    const broken = await startTestServer(brave, {
      provider: failingProvider(() => new ProviderNotConfiguredError('The provider lost its key.')),
    });
    try {
      const all = await events(await search({ requests: [{ query: 'x' }] }, STREAM, undefined, broken.url));
      expect(all.map((e) => e.event)).toEqual(['error']);
      expect(ErrorResponseSchema.parse(all[0]?.data)).toMatchObject({ code: 'not_configured' });
    } finally {
      await broken.close();
    }
  });

  it('is not cut by a proxy whose idle timeout is shorter than the slowest query', async () => {
    // A TCP proxy on loopback that closes a connection once neither side sent a byte for 100 ms,
    // as nginx's proxy_read_timeout does; the server's keep-alive interval here is 20 ms.
    const target = new URL(server.url);
    const sockets = new Set<Socket>();
    let cut = 0;
    const proxy: Server = createServer((client) => {
      const upstream = connect(Number(target.port), target.hostname);
      sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      client.setTimeout(100, () => {
        cut += 1;
        client.destroy();
        upstream.destroy();
      });
      for (const socket of [client, upstream]) socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as { port: number };
    try {
      const response = await search(
        { requests: [{ query: 'hold behind a proxy' }] },
        STREAM,
        undefined,
        `http://127.0.0.1:${port}`,
      );
      const seen: string[] = [];
      let comments = 0;
      let released = false;
      for await (const frame of frames(response.body as ReadableStream<Uint8Array>)) {
        if ('comment' in frame) comments += 1;
        // Ten keep-alives (at least 200 ms, twice the proxy's idle timeout) while the answer is held.
        if (comments === 10 && !released) {
          await brave.waitForHeld(1);
          brave.release();
          released = true;
        }
        if ('event' in frame) seen.push(frame.event);
      }
      expect(seen).toEqual(['group', 'done']);
      expect(cut).toBe(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
