import { type ErrorResponse, type WebSearchResponse, WebSearchResponseSchema } from '@openmates/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoopbackServer, loopbackServer, type Reply } from '../test/loopback-server.ts';
import {
  APIConnectionError,
  BadRequestError,
  OpenMates,
  ProviderError,
  type SearchStreamEvent,
  ServiceUnavailableError,
} from './index.ts';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...replies: Reply[]): Promise<LoopbackServer> {
  const server = await loopbackServer(replies);
  servers.push(server);
  return server;
}

function client(baseURL: string): OpenMates {
  return new OpenMates({ apiKey: null, baseURL, sleep: async () => {} });
}

const request = {
  requests: [
    { id: 'a', query: 'first' },
    { id: 'b', query: 'second' },
  ],
};
const group = (id: string, error = false) =>
  error
    ? { id, results: [], error: { code: 'provider_error', message: 'The search provider failed.' } }
    : { id, results: [{ title: `About ${id}`, url: `https://example.com/${id}`, description: '' }] };
const answer = (failed: boolean): WebSearchResponse =>
  WebSearchResponseSchema.parse({
    provider: 'Brave Search',
    results: [group('a', failed), group('b', failed)],
    ...(failed ? { error: 'Every search failed at the provider (a, b).', code: 'provider_error' } : {}),
  });

/** An event-stream reply: comments and events as the server writes them. */
function stream(...events: { event: string; data: unknown }[]): Reply {
  const text = [': keep-alive\n\n', ...events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`)];
  return { status: 200, text: text.join(''), headers: { 'content-type': 'text/event-stream; charset=utf-8' } };
}

async function collect(events: AsyncIterable<SearchStreamEvent>): Promise<string[]> {
  const seen: string[] = [];
  for await (const event of events) seen.push(event.event);
  return seen;
}

describe('searchStream', () => {
  it('yields typed events in order and resolves the final response of done', async () => {
    const done = answer(false);
    const server = await serve(
      stream({ event: 'group', data: group('b') }, { event: 'group', data: group('a') }, { event: 'done', data: done }),
    );
    const result = client(server.baseURL).apps.web.searchStream(request);
    expect(await collect(result)).toEqual(['group', 'group', 'done']);
    expect(await result.finalResponse()).toEqual(done);
    expect(server.received[0]?.headers.accept).toBe('text/event-stream, application/json;q=0.5');
  });

  it('rejects the final response with ProviderError when every group failed, as search throws', async () => {
    const done = answer(true);
    const server = await serve(stream({ event: 'done', data: done }));
    const error = await client(server.baseURL)
      .apps.web.searchStream(request)
      .finalResponse()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).response).toEqual(done);
    expect((error as ProviderError).status).toBe(502);
  });

  it('rejects with the class of the error event code', async () => {
    const body: ErrorResponse = { error: 'The provider is not configured.', code: 'not_configured' };
    const server = await serve(stream({ event: 'group', data: group('a') }, { event: 'error', data: body }));
    const result = client(server.baseURL).apps.web.searchStream(request);
    expect(await collect(result)).toEqual(['group', 'error']);
    const error = await result.finalResponse().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    // Not retried: the stream had begun.
    expect(server.received).toHaveLength(1);
  });

  it('retries before the first event (a 503) and never after it', async () => {
    const retried = await serve(
      { status: 503, body: { error: 'Not configured.', code: 'not_configured' } },
      stream({ event: 'done', data: answer(false) }),
    );
    await client(retried.baseURL).apps.web.searchStream(request).finalResponse();
    expect(retried.received).toHaveLength(2);
    // A stream cut before its last event is a connection error, thrown without another attempt.
    const cut = await serve(stream({ event: 'group', data: group('a') }));
    const result = client(cut.baseURL).apps.web.searchStream(request);
    const error = await collect(result).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    await expect(result.finalResponse()).rejects.toBeInstanceOf(APIConnectionError);
    expect(cut.received).toHaveLength(1);
  });

  it('throws a refusal before the stream began as search does', async () => {
    const server = await serve({
      status: 400,
      body: { error: 'Invalid request.', code: 'invalid_request', issues: [{ path: 'requests', message: 'empty' }] },
    });
    const result = client(server.baseURL).apps.web.searchStream({ requests: [] } as never);
    await expect(result.finalResponse()).rejects.toBeInstanceOf(BadRequestError);
  });

  it('takes a JSON answer from a server that does not stream as done', async () => {
    const done = answer(false);
    const server = await serve({ status: 200, body: done });
    const result = client(server.baseURL).apps.web.searchStream(request);
    expect(await collect(result)).toEqual(['done']);
    expect(await result.finalResponse()).toEqual(done);
  });
});
