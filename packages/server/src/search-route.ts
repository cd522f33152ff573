import { EVENT_STREAM_MEDIA_TYPE, type SearchStreamEvent, searchStatus } from '@openmates/contract';
import Negotiator from 'negotiator';
import { type ApiCore, type PlainResponse, plainJson, refusalJson } from './api-core.ts';
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

const STREAM_HEADERS = {
  'content-type': `${EVENT_STREAM_MEDIA_TYPE}; charset=utf-8`,
  'cache-control': 'no-store',
  // nginx (and proxies that honour it) pass each event on instead of buffering the answer.
  'x-accel-buffering': 'no',
} as const;

/** One event on the wire. `data` is one line of JSON (JSON.stringify never writes a newline). */
function sseEvent(event: SearchStreamEvent['event'], json: string): string {
  return `event: ${event}\ndata: ${json}\n\n`;
}

/**
 * The search operation: the body the chain read (under its limits, after the key and the count)
 * goes to the engine, and its answer out as JSON, or as the event stream (ADR 0059) when `Accept`
 * asks for it.
 */
export function createSearchOperation(core: ApiCore, keepAliveMs: number): Operation {
  const { engine } = core;

  /**
   * The search as an event stream: `group` as each query finishes (the engine's `onGroup`), then
   * `done` with the very JSON the non-streamed answer sends, or `error`. A request the engine
   * refuses (invalid, aborted) is refused before the stream begins, as ordinary JSON: the engine
   * validates before its first await, so such a search has already rejected when this looks.
   */
  async function stream(exchange: Exchange): Promise<PlainResponse> {
    const { signal, requestId } = exchange;
    const aborter = new AbortController();
    const abort = () => aborter.abort(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    const encoder = new TextEncoder();
    // Events from before the stream exists (a cache hit answers within the same tick) wait here.
    const early: string[] = [];
    let push: (text: string) => void = (text) => early.push(text);
    const search = engine.searchText(exchange.body, {
      requestId,
      signal: aborter.signal,
      onGroup: (group) => push(sseEvent('group', JSON.stringify(group))),
    });
    try {
      await Promise.race([search, Promise.resolve()]);
    } catch (error) {
      signal.removeEventListener('abort', abort);
      throw error;
    }
    let keepAlive: ReturnType<typeof setInterval> | undefined;
    let finished = false;
    /** Ends the stream once: its last event (none when the client left), the outcome it logs, the timers. */
    let end: (status: number, last?: string) => void = () => {};
    const events = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => {
          if (!finished) controller.enqueue(encoder.encode(text));
        };
        for (const text of early.splice(0)) push(text);
        end = (status, last) => {
          if (finished) return;
          if (last !== undefined) push(last);
          finished = true;
          clearInterval(keepAlive);
          signal.removeEventListener('abort', abort);
          exchange.outcome = status;
          controller.close();
        };
        // A comment line: ignored by every SSE parser, but traffic that proxies' idle timers see.
        keepAlive = setInterval(() => push(': keep-alive\n\n'), keepAliveMs);
        search.then(
          ({ json }) => end(200, sseEvent('done', json)),
          (error: unknown) => {
            // The client went away: nobody is left to read an event.
            if (aborter.signal.aborted) return end(499);
            const refusal = Refusal.of(error);
            if (!refusal) core.fault(error, requestId);
            const failed = refusalJson(refusal ?? new Refusal('internal_error'), requestId);
            end(failed.status, sseEvent('error', failed.body as string));
          },
        );
      },
      cancel() {
        aborter.abort(new Error('The client closed the event stream.'));
        if (finished) return;
        finished = true;
        clearInterval(keepAlive);
        signal.removeEventListener('abort', abort);
        exchange.outcome = 499;
      },
    });
    return { status: 200, headers: { ...STREAM_HEADERS }, body: events };
  }

  return async (exchange) => {
    if (wantsEventStream(exchange.header('accept'))) return stream(exchange);
    // The engine hands over the JSON it measured when fitting the response: serialized once.
    const { response, json, retryAfterS } = await engine.searchText(exchange.body, {
      requestId: exchange.requestId,
      signal: exchange.signal,
    });
    return plainJson(
      searchStatus(response.results),
      json,
      retryAfterS === undefined ? {} : { 'retry-after': String(retryAfterS) },
    );
  };
}
