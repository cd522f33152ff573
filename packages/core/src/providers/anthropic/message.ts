import { z } from '@openmates/contract';
import { ProviderError } from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';

/**
 * The shape of a Messages answer this provider relies on, whether it came as one JSON body or was
 * put together from its stream's events (ADR 0129). Objects are loose: the API adds fields over
 * time, and only the fields read here are checked. Blocks stay as sent: the receipt rule reads them.
 */
export const MessageSchema = z.looseObject({
  id: z.string().min(1),
  type: z.literal('message'),
  stop_reason: z.string().nullable(),
  content: z.array(z.looseObject({ type: z.string() })),
  usage: z.unknown().optional(),
});
export type AnthropicMessage = z.infer<typeof MessageSchema>;
export type ContentBlock = AnthropicMessage['content'][number];

/** Thrown for anything that cannot be read as a Messages answer. */
export function malformed(): ProviderError {
  return new ProviderError('provider_error', 'Anthropic sent a malformed answer; no result is used.');
}

/** A Messages answer from its JSON body, or malformed. */
export function messageOf(value: unknown): AnthropicMessage {
  const parsed = MessageSchema.safeParse(value);
  if (!parsed.success) throw malformed();
  return parsed.data;
}

const Start = z.looseObject({ message: MessageSchema });
const BlockStart = z.looseObject({
  index: z.number().int().nonnegative(),
  content_block: z.looseObject({ type: z.string() }),
});
const BlockDelta = z.looseObject({
  index: z.number().int().nonnegative(),
  delta: z.looseObject({ type: z.string() }),
});
const BlockStop = z.looseObject({ index: z.number().int().nonnegative() });
const Delta = z.looseObject({
  delta: z.looseObject({ stop_reason: z.string().nullable().optional() }),
  usage: z.unknown().optional(),
});

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw malformed();
  return result.data;
}

/** A block being streamed: the block so far, and its tool input's JSON text while it arrives. */
interface OpenBlock {
  block: Record<string, unknown>;
  json: string;
  stopped: boolean;
}

/**
 * Puts one streamed Messages answer together from its events, as the API's own accumulation does:
 * `message_start` opens it, each `content_block_start` opens a block that its deltas extend (text,
 * citations, the tool input's JSON), `message_delta` sets the stop reason and the usage, and
 * `message_stop` closes it. `observe` throws as soon as the stream cannot be read; `finish` throws
 * unless the message was closed.
 */
export function createMessageAccumulator() {
  let message: AnthropicMessage | undefined;
  const blocks: OpenBlock[] = [];
  let stopped = false;

  function block(index: number): OpenBlock {
    const open = blocks[index];
    if (open === undefined || open.stopped) throw malformed();
    return open;
  }

  function delta(index: number, value: Record<string, unknown>): void {
    const open = block(index);
    if (value.type === 'text_delta' && typeof value.text === 'string') {
      open.block.text = `${typeof open.block.text === 'string' ? open.block.text : ''}${value.text}`;
    } else if (value.type === 'citations_delta') {
      const citations = Array.isArray(open.block.citations) ? open.block.citations : [];
      open.block.citations = [...citations, value.citation];
    } else if (value.type === 'input_json_delta' && typeof value.partial_json === 'string') {
      open.json += value.partial_json;
    }
    // Thinking and its signature are the model's own and never read.
  }

  function observe(name: string | undefined, data: string): void {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      throw malformed();
    }
    if (!isRecord(value) || typeof value.type !== 'string') throw malformed();
    if (name !== undefined && name !== value.type) throw malformed();
    if (stopped) throw malformed();
    if (value.type === 'error')
      throw new ProviderError('provider_error', 'Anthropic reported an error during the search; no result is used.');
    if (value.type === 'message_start') {
      if (message !== undefined) throw malformed();
      message = parsed(Start, value).message;
      return;
    }
    if (value.type === 'ping') return;
    if (message === undefined) {
      if (value.type.startsWith('message') || value.type.startsWith('content_block')) throw malformed();
      return;
    }
    switch (value.type) {
      case 'content_block_start': {
        const { index, content_block } = parsed(BlockStart, value);
        if (blocks[index] !== undefined) throw malformed();
        blocks[index] = { block: { ...content_block }, json: '', stopped: false };
        return;
      }
      case 'content_block_delta': {
        const { index, delta: change } = parsed(BlockDelta, value);
        delta(index, change);
        return;
      }
      case 'content_block_stop': {
        const open = block(parsed(BlockStop, value).index);
        if (open.json !== '') {
          try {
            open.block.input = JSON.parse(open.json) as unknown;
          } catch {
            throw malformed();
          }
        }
        open.stopped = true;
        return;
      }
      case 'message_delta': {
        const { delta: change, usage } = parsed(Delta, value);
        if (change.stop_reason !== undefined) message.stop_reason = change.stop_reason;
        // The delta's usage is the running total; it replaces what `message_start` said.
        if (isRecord(usage)) message.usage = { ...(isRecord(message.usage) ? message.usage : {}), ...usage };
        return;
      }
      case 'message_stop':
        stopped = true;
        return;
      default:
        return;
    }
  }

  function finish(): AnthropicMessage {
    if (message === undefined || !stopped)
      throw new ProviderError(
        'provider_error',
        'The Anthropic stream ended before the answer was finished; no result is used.',
      );
    if (blocks.some((open) => open !== undefined && !open.stopped)) throw malformed();
    const content = [...message.content, ...blocks.filter((open) => open !== undefined).map((open) => open.block)];
    return messageOf({ ...message, content });
  }

  return { observe, finish };
}
