import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ResultGroup } from '@openmates/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { streamSearch } from './search-stream.ts';

// A real server on loopback that answers what each test scripts: the shape the page's endpoint relays.
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(status: number, type: string, chunks: string[], end = true): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': type, 'x-request-id': 'relay-id' });
    for (const chunk of chunks) res.write(chunk);
    if (end) res.end();
    else res.socket?.destroy();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/search/stream`;
}

const group = (id: number): ResultGroup => ({
  id,
  results: [{ title: `t${id}`, url: `https://e.org/${id}`, description: '' }],
});
const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const request = { requests: [{ query: 'a' }, { query: 'b' }] };

async function run(endpoint: string) {
  const groups: ResultGroup[] = [];
  const outcome = await streamSearch(request, {
    endpoint,
    signal: new AbortController().signal,
    onGroup: (g) => groups.push(g),
  });
  return { groups, outcome };
}

describe('streamSearch', () => {
  it('hands over each group as it comes, then the done response as the outcome', async () => {
    const done = { results: [group(1), group(2)], provider: 'Fixture' };
    // An event split across writes, and a keep-alive comment, as a proxy may deliver them.
    const wire = `: keep-alive\n\n${sse('group', group(2))}${sse('group', group(1))}${sse('done', done)}`;
    const endpoint = await serve(200, 'text/event-stream', [wire.slice(0, 20), wire.slice(20, 70), wire.slice(70)]);
    expect(await run(endpoint)).toEqual({ groups: [group(2), group(1)], outcome: { kind: 'results', response: done } });
  });

  it('shows an error event after the start as the JSON refusal would be shown', async () => {
    const error = { error: 'The provider is not configured.', code: 'not_configured' };
    const endpoint = await serve(200, 'text/event-stream', [sse('group', group(1)), sse('error', error)]);
    const { groups, outcome } = await run(endpoint);
    expect(groups).toEqual([group(1)]);
    expect(outcome).toEqual({
      kind: 'error',
      status: 503,
      code: 'not_configured',
      message: 'The provider is not configured.',
      issues: [],
      requestId: 'relay-id',
    });
  });

  it('shows a refusal before the stream began (the relayed JSON 4xx)', async () => {
    const body = {
      error: 'The request is invalid.',
      code: 'invalid_request',
      issues: [{ path: 'requests', message: 'x' }],
    };
    const endpoint = await serve(400, 'application/json', [JSON.stringify(body)]);
    expect((await run(endpoint)).outcome).toMatchObject({ status: 400, code: 'invalid_request', issues: body.issues });
  });

  it('a stream that ends or breaks before its last event is a visible error, never a silent partial answer', async () => {
    const ended = await run(await serve(200, 'text/event-stream', [sse('group', group(1))]));
    expect(ended.groups).toEqual([group(1)]);
    expect(ended.outcome).toMatchObject({ kind: 'error', code: 'connection_error' });
    await new Promise((resolve) => server?.close(resolve));
    const broken = await run(await serve(200, 'text/event-stream', [sse('group', group(1))], false));
    expect(broken.outcome).toMatchObject({ kind: 'error', code: 'connection_error' });
  });

  it('rejects when aborted, so an abandoned search shows nothing', async () => {
    const endpoint = await serve(200, 'text/event-stream', [sse('group', group(1))], true);
    const controller = new AbortController();
    controller.abort();
    await expect(streamSearch(request, { endpoint, signal: controller.signal, onGroup: () => {} })).rejects.toThrow();
  });
});
