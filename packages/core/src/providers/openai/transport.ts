import type { Readable as ReadableClass } from 'node:stream';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { ProviderError } from '../../provider.ts';
import type { HttpAnswer } from '../shared/http-client.ts';
import { malformed, parseStreamEvent } from './events.ts';
import { createReceiptTracker, OPENAI_RECEIPT_RULE, type ReceiptRule, type SearchReceipt } from './receipts.ts';

// One event (the final `response.completed` repeats the whole output) stays far below this; a
// stream that never ends an event is cut off here instead of filling memory.
const MAX_EVENT_CHARS = 8 * 1024 * 1024;

/** Rethrows the abort reason when the call was cancelled or timed out, so the engine can map it. */
function throwIfAborted(signal: AbortSignal, error?: unknown): void {
  if (signal.aborted) throw signal.reason ?? error;
}

/** Drops a body nobody reads (its connection is closed rather than drained). */
function drop(answer: HttpAnswer): void {
  answer.body.on('error', () => {});
  answer.body.destroy();
}

/**
 * Reads a 2xx streamed Responses answer to the end and applies the receipt rules. Throws
 * ProviderError (fail closed) or the abort reason; never returns provisional text. `rule` is the
 * endpoint's receipt rule (OpenAI's own by default).
 */
export async function readReceipt(
  answer: HttpAnswer,
  maxSearches: number,
  signal: AbortSignal,
  rule: ReceiptRule = OPENAI_RECEIPT_RULE,
): Promise<SearchReceipt> {
  const contentType = answer.header('content-type') ?? '';
  if (!contentType.toLowerCase().startsWith('text/event-stream')) {
    drop(answer);
    throw new ProviderError('provider_error', 'OpenAI did not answer with an event stream.', { status: answer.status });
  }
  const { Readable } = process.getBuiltinModule('node:stream') as { Readable: typeof ReadableClass };
  const tracker = createReceiptTracker(maxSearches, rule);
  const reader = (Readable.toWeb(answer.body) as ReadableStream<BufferSource>)
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
    if (!answer.body.readableEnded) drop(answer);
  }
  throwIfAborted(signal);
  return tracker.finish();
}
