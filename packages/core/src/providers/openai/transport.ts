import { EventSourceParserStream } from 'eventsource-parser/stream';
import { ProviderError } from '../../provider.ts';
import { malformed, parseStreamEvent } from './events.ts';
import { createReceiptTracker, type SearchReceipt } from './receipts.ts';
import type { OpenAIRequest } from './request.ts';

// One event (the final `response.completed` repeats the whole output) stays far below this; a
// stream that never ends an event is cut off here instead of filling memory.
const MAX_EVENT_CHARS = 8 * 1024 * 1024;

/** Rethrows the abort reason when the call was cancelled or timed out, so the engine can map it. */
function throwIfAborted(signal: AbortSignal, error?: unknown): void {
  if (signal.aborted) throw signal.reason ?? error;
}

/** The group error for a non-2xx answer. Messages are ours: upstream bodies are never read. */
export function httpStatusError(status: number): ProviderError {
  if (status === 401 || status === 403)
    return new ProviderError('provider_auth', 'OpenAI rejected the configured API key.', { status });
  if (status === 429)
    return new ProviderError(
      'provider_rate_limited',
      'OpenAI is rate limiting this server; the query was not retried.',
      {
        status,
      },
    );
  if (status === 408 || status === 504)
    return new ProviderError('provider_timeout', 'OpenAI did not answer in time.', { status });
  if (status === 502 || status === 503)
    return new ProviderError('provider_unavailable', 'OpenAI is unavailable.', { status });
  return new ProviderError('provider_error', 'OpenAI refused or failed the search request.', { status });
}

/**
 * Sends one request, once (never retried: remote work may already have happened). Resolves with
 * the response whatever its status; throws ProviderError when OpenAI could not be reached.
 */
export async function postResponses(request: OpenAIRequest, signal: AbortSignal): Promise<Response> {
  throwIfAborted(signal);
  try {
    return await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: JSON.stringify(request.body),
      // A redirect would carry the key and the query somewhere nobody configured.
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    throwIfAborted(signal, error);
    throw new ProviderError('provider_unavailable', 'OpenAI could not be reached.', { cause: error });
  }
}

/**
 * Reads a streamed Responses answer to the end and applies the receipt rules. Throws ProviderError
 * (fail closed) or the abort reason; never returns provisional text.
 */
export async function readReceipt(
  response: Response,
  maxSearches: number,
  signal: AbortSignal,
): Promise<SearchReceipt> {
  const contentType = response.headers.get('content-type') ?? '';
  if (response.body === null || !contentType.toLowerCase().startsWith('text/event-stream')) {
    await response.body?.cancel().catch(() => {});
    throw new ProviderError('provider_error', 'OpenAI did not answer with an event stream.', {
      status: response.status,
    });
  }
  const tracker = createReceiptTracker(maxSearches);
  const reader = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream({ onError: 'terminate', maxBufferSize: MAX_EVENT_CHARS }))
    .getReader();
  try {
    for (;;) {
      let next: ReadableStreamReadResult<{ event?: string | undefined; data: string }>;
      try {
        next = await reader.read();
      } catch (error) {
        throwIfAborted(signal, error);
        if (error instanceof Error && error.name === 'ParseError') throw malformed();
        throw new ProviderError('provider_error', 'The OpenAI stream was interrupted; no result is used.', {
          cause: error,
        });
      }
      if (next.done) break;
      tracker.observe(parseStreamEvent(next.value.event, next.value.data));
    }
  } finally {
    // Stops the download when a rule failed early; a no-op after a clean end.
    reader.cancel().catch(() => {});
  }
  throwIfAborted(signal);
  return tracker.finish();
}

/** One streamed Responses request for one query, checked against the receipt rules. */
export async function runOpenAISearch(
  request: OpenAIRequest,
  maxSearches: number,
  signal: AbortSignal,
): Promise<SearchReceipt> {
  const response = await postResponses(request, signal);
  if (response.status < 200 || response.status > 299) {
    await response.body?.cancel().catch(() => {});
    throw httpStatusError(response.status);
  }
  return readReceipt(response, maxSearches, signal);
}
