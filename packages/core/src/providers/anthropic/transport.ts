import type { Readable as ReadableClass } from 'node:stream';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { ProviderError } from '../../provider.ts';
import type { HttpAnswer, HttpClient } from '../shared/http-client.ts';
import { DEFAULT_MAX_BODY_BYTES } from '../shared/json-answer.ts';
import { exchangeError } from '../shared/status-errors.ts';
import { type AnthropicMessage, createMessageAccumulator, malformed, messageOf } from './message.ts';

// One event stays far below this; a stream that never ends an event is cut off here instead of filling memory.
const MAX_EVENT_CHARS = 8 * 1024 * 1024;

function drop(answer: HttpAnswer): void {
  answer.body.on('error', () => {});
  answer.body.destroy();
}

/** Reads a plain JSON Messages answer, bounded. */
async function readJson(client: HttpClient, answer: HttpAnswer, signal: AbortSignal): Promise<AnthropicMessage> {
  let text: string;
  try {
    text = await client.readText(answer, DEFAULT_MAX_BODY_BYTES, signal);
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    throw exchangeError('Anthropic', error === 'too_large' ? 'too_large' : 'closed', { status: answer.status });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformed();
  }
  return messageOf(value);
}

/** Reads a streamed Messages answer to its end and puts the message together. */
async function readEvents(answer: HttpAnswer, signal: AbortSignal): Promise<AnthropicMessage> {
  const { Readable } = process.getBuiltinModule('node:stream') as { Readable: typeof ReadableClass };
  const accumulator = createMessageAccumulator();
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
        if (signal.aborted) throw signal.reason ?? error;
        if (error instanceof Error && error.name === 'ParseError') throw malformed();
        throw new ProviderError('provider_error', 'The Anthropic stream was interrupted; no result is used.', {
          cause: error,
        });
      }
      if (next.done) break;
      accumulator.observe(next.value.event, next.value.data);
    }
  } finally {
    reader.cancel().catch(() => {});
    if (!answer.body.readableEnded) drop(answer);
  }
  if (signal.aborted) throw signal.reason;
  return accumulator.finish();
}

/**
 * Reads a 2xx Messages answer whole (ADR 0129): a JSON body as the request asks for, or, from a
 * proxy that streams it, its events put together into the same message. Anything else fails
 * closed. Throws ProviderError or the abort reason; never returns provisional text.
 */
export async function readMessage(
  client: HttpClient,
  answer: HttpAnswer,
  signal: AbortSignal,
): Promise<AnthropicMessage> {
  const type = (answer.header('content-type') ?? '').toLowerCase();
  if (/\bjson\b/.test(type)) return readJson(client, answer, signal);
  if (type.startsWith('text/event-stream')) return readEvents(answer, signal);
  drop(answer);
  throw exchangeError('Anthropic', 'not_json', { status: answer.status });
}
