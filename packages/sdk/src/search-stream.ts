import { createParser } from 'eventsource-parser';
import { APIConnectionError, APIError, APITimeoutError, OpenMatesError } from './generated/errors.ts';
import type { ErrorCode, ErrorResponse, SearchStreamEvent, WebSearchResponse } from './generated/openapi.ts';
import { parseRateLimit, type RateLimit } from './rate-limit.ts';

/** The HTTP status the server answers a code with when it refuses before a stream begins. */
const STREAM_ERROR_STATUS: Partial<Record<ErrorCode, number>> = { not_configured: 503, internal_error: 500 };

/**
 * A search as it streams (`client.apps.web.searchStream(...)`): iterate it for typed events —
 * `group` as each query finishes (completion order, provisional), then one `done` or `error` — and
 * await `finalResponse()` for the WebSearchResponse. `finalResponse()` rejects as `search` would:
 * a `ProviderError` when every group failed, the error class of the `error` event's code
 * (`ServiceUnavailableError`, `InternalServerError`), or the refusal (400, 401, 429, …) before
 * the stream began. Iterate once; `finalResponse()` reads the stream itself when nobody iterates.
 * `rateLimit` is the answer's rate-limit state once its headers arrived (by the first event).
 */
export class SearchStream implements AsyncIterable<SearchStreamEvent> {
  readonly #events: AsyncGenerator<SearchStreamEvent>;
  readonly #final: Promise<WebSearchResponse>;
  #resolve!: (response: WebSearchResponse) => void;
  #reject!: (error: unknown) => void;
  #iterated = false;
  #rateLimit: RateLimit | undefined;

  /** @internal `open` resolves to the 200 event-stream response, after any retries; it is called once. */
  constructor(open: () => Promise<Response>, idleTimeout: number, signal?: AbortSignal) {
    this.#final = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // A caller who only iterates never sees this promise: its rejection must not be "unhandled".
    this.#final.catch(() => {});
    this.#events = this.#read(open, idleTimeout, signal);
  }

  [Symbol.asyncIterator](): AsyncIterator<SearchStreamEvent> {
    if (this.#iterated) throw new OpenMatesError('A SearchStream can be iterated once.');
    this.#iterated = true;
    return this.#events;
  }

  /**
   * The caller's rate-limit state after this call, from the headers of the answer the stream came in:
   * undefined until they arrived (before the first event) and when the server's limit is off. A
   * refusal before the stream began carries its state on the error (`error.rateLimit`) instead.
   */
  get rateLimit(): RateLimit | undefined {
    return this.#rateLimit;
  }

  /** The WebSearchResponse of the `done` event; rejects with the error `search` would throw. */
  async finalResponse(): Promise<WebSearchResponse> {
    if (!this.#iterated) {
      this.#iterated = true;
      for await (const _ of this.#events) {
        // Read to the end: the final promise settles on `done` or `error`.
      }
    }
    return this.#final;
  }

  async *#read(
    open: () => Promise<Response>,
    idleTimeout: number,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<SearchStreamEvent> {
    let settled = false;
    const fail = (error: unknown) => {
      if (!settled) this.#reject(error);
      settled = true;
      return error;
    };
    let response: Response;
    try {
      response = await open();
    } catch (error) {
      throw fail(error);
    }
    const headers = response.headers;
    this.#rateLimit = parseRateLimit(headers);
    // A server that answers JSON anyway (no streaming there): its answer is the `done` event.
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const done = { event: 'done', data: (await response.json()) as WebSearchResponse } as const;
      yield done;
      this.#settle(done, headers);
      settled = true;
      return;
    }
    const queue: SearchStreamEvent[] = [];
    const parser = createParser({
      onEvent: ({ event, data }) => {
        if (event === 'group' || event === 'done' || event === 'error')
          queue.push({ event, data: JSON.parse(data) } as SearchStreamEvent);
      },
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const idle = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new APITimeoutError({ timeout: idleTimeout })), idleTimeout);
        });
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await Promise.race([reader.read(), idle]);
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          if (error instanceof APITimeoutError) throw error;
          throw new APIConnectionError({ message: 'The event stream broke off before its last event.', cause: error });
        } finally {
          clearTimeout(timer);
        }
        if (chunk.done) break;
        parser.feed(decoder.decode(chunk.value, { stream: true }));
        for (const event of queue.splice(0)) {
          yield event;
          if (event.event !== 'group') {
            this.#settle(event, headers);
            settled = true;
            return;
          }
        }
      }
      throw new APIConnectionError({ message: 'The event stream ended before its last event.' });
    } catch (error) {
      throw fail(error);
    } finally {
      // Leaving early (break, return, a throw) cancels the stream: the server aborts the searches left.
      reader.cancel().catch(() => {});
    }
  }

  #settle(event: Exclude<SearchStreamEvent, { event: 'group' }>, headers: Headers): void {
    if (event.event === 'error') {
      const body: ErrorResponse = event.data;
      this.#reject(APIError.generate(STREAM_ERROR_STATUS[body.code] ?? 500, body, headers));
      return;
    }
    const response: WebSearchResponse = event.data;
    // The status the JSON answer would have had: 502 when every group failed.
    if (response.results.length > 0 && response.results.every((group) => group.error !== undefined))
      this.#reject(APIError.generate(502, response, headers));
    else this.#resolve(response);
  }
}
