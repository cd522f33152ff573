import { EVENT_STREAM_MEDIA_TYPE, type SearchStreamEvent, searchStatus } from '@openmates/contract';
import { streamSSE } from 'hono/streaming';
import Negotiator from 'negotiator';
import type { ApiCore } from './api-core.ts';
import type { Exchange, Operation } from './pipeline.ts';
import { Refusal } from './refusal.ts';

const JSON_MEDIA_TYPE = 'application/json';

/**
 * True when `Accept` prefers `text/event-stream` and names it: `*\/*` and `text/*` alone get JSON,
 * so a client that never heard of the stream is never handed one.
 */
export function wantsEventStream(accept: string | null | undefined): boolean {
  if (!accept?.toLowerCase().includes(EVENT_STREAM_MEDIA_TYPE)) return false;
  const preferred = new Negotiator({ headers: { accept } }).mediaType([JSON_MEDIA_TYPE, EVENT_STREAM_MEDIA_TYPE]);
  return preferred === EVENT_STREAM_MEDIA_TYPE;
}

/** What the event stream's answer carries beyond Hono's `text/event-stream`. */
const STREAM_HEADERS = {
  'content-type': `${EVENT_STREAM_MEDIA_TYPE}; charset=utf-8`,
  'cache-control': 'no-store',
  // nginx (and proxies that honour it) pass each event on instead of buffering the answer.
  'x-accel-buffering': 'no',
} as const;

/**
 * The search operation: the body the chain read (under its limits, after the key and the count)
 * goes to the engine, and its answer out as JSON, or as the event stream (ADR 0059) when `Accept`
 * asks for it.
 */
export function createSearchOperation(core: ApiCore, keepAliveMs: number): Operation {
  const { engine } = core;

  /**
   * The search as an event stream (Hono's `streamSSE`): `group` as each query finishes (the
   * engine's `onGroup`), then `done` with the very JSON the non-streamed answer sends, or `error`.
   * Validation is a step awaited before the stream opens: a request the engine refuses (not JSON,
   * invalid) is answered as ordinary JSON, never as a 200 stream.
   */
  async function stream(exchange: Exchange): Promise<Response> {
    const { signal, requestId } = exchange;
    const validated = await engine.validateText(exchange.body, { requestId });
    const answer = streamSSE(exchange.context, async (events) => {
      const aborter = new AbortController();
      const abort = () => aborter.abort(signal.reason);
      signal.addEventListener('abort', abort, { once: true });
      events.onAbort(() => aborter.abort(new Error('The client closed the event stream.')));
      // A comment line: ignored by every SSE parser, but traffic that proxies' idle timers see.
      const keepAlive = setInterval(() => void events.write(': keep-alive\n\n').catch(() => {}), keepAliveMs);
      const send = (event: SearchStreamEvent['event'], data: string) =>
        events.writeSSE({ event, data }).catch(() => {});
      try {
        const { json } = await validated.run({
          signal: aborter.signal,
          onGroup: (group) => void send('group', JSON.stringify(group)),
        });
        exchange.outcome = 200;
        await send('done', json);
      } catch (error) {
        // The client went away: nobody is left to read an event.
        if (aborter.signal.aborted) {
          exchange.outcome = 499;
          return;
        }
        const refusal = Refusal.of(error) ?? new Refusal('internal_error');
        if (!Refusal.of(error)) core.fault(error, requestId);
        exchange.outcome = refusal.status;
        await send('error', JSON.stringify(refusal.body(requestId)));
      } finally {
        clearInterval(keepAlive);
        signal.removeEventListener('abort', abort);
      }
    });
    const { headers } = answer;
    // Hono's keep-alive header is the connection's business (a draining server closes it).
    headers.delete('connection');
    for (const [name, value] of Object.entries(STREAM_HEADERS)) headers.set(name, value);
    return answer;
  }

  return async (exchange) => {
    if (wantsEventStream(exchange.header('accept'))) return stream(exchange);
    // The engine hands over the JSON it measured when fitting the response: serialized once.
    const { response, json, retryAfterS } = await engine.searchText(exchange.body, {
      requestId: exchange.requestId,
      signal: exchange.signal,
    });
    return exchange.json(
      searchStatus(response.results),
      json,
      retryAfterS === undefined ? {} : { 'retry-after': String(retryAfterS) },
    );
  };
}
