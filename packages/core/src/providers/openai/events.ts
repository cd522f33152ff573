import { z } from '@openmates/contract';
import { ProviderError } from '../../provider.ts';

/**
 * The shapes of the Responses stream events this provider relies on. Objects are loose: the API
 * adds fields over time, and only the fields read here are checked. An event of a known type
 * that lacks one of them is malformed, and the query fails closed.
 */

export const WebSearchCallItemSchema = z.looseObject({
  id: z.string().min(1),
  type: z.literal('web_search_call'),
  status: z.string(),
  action: z.unknown().optional(),
});
export type WebSearchCallItem = z.infer<typeof WebSearchCallItemSchema>;

const ContentPartSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  annotations: z.array(z.unknown()).optional(),
});

export const MessageItemSchema = z.looseObject({
  id: z.string().min(1),
  type: z.literal('message'),
  content: z.array(ContentPartSchema).optional(),
});
export type MessageItem = z.infer<typeof MessageItemSchema>;

export const ResponseObjectSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  output: z.array(z.looseObject({ type: z.string() })).optional(),
});
export type ResponseObject = z.infer<typeof ResponseObjectSchema>;

const ResponseEventSchema = z.looseObject({ response: ResponseObjectSchema });
const OutputItemEventSchema = z.looseObject({
  output_index: z.number().int().nonnegative(),
  item: z.looseObject({ type: z.string() }),
});
const CallEventSchema = z.looseObject({ item_id: z.string().min(1) });
const AnnotationEventSchema = z.looseObject({
  item_id: z.string().min(1),
  content_index: z.number().int().nonnegative(),
  annotation: z.unknown(),
});
const TextDoneEventSchema = z.looseObject({
  item_id: z.string().min(1),
  content_index: z.number().int().nonnegative(),
  text: z.string(),
});

/** A stream event, narrowed to what the receipt rules read. */
export type OpenAIStreamEvent =
  | { kind: 'response'; type: string; response: ResponseObject }
  | { kind: 'output_item'; type: 'response.output_item.added' | 'response.output_item.done'; item: unknown }
  | { kind: 'search_call'; type: string; phase: string; itemId: string }
  | { kind: 'annotation'; itemId: string; contentIndex: number; annotation: unknown }
  | { kind: 'text_done'; itemId: string; contentIndex: number; text: string }
  | { kind: 'error' }
  | { kind: 'other'; type: string };

/** Thrown for anything in the stream that cannot be read as the API's events. */
export function malformed(): ProviderError {
  return new ProviderError('provider_error', 'OpenAI sent a malformed stream event; no result is used.');
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw malformed();
  return parsed.data;
}

const RESPONSE_EVENTS = new Set([
  'response.created',
  'response.in_progress',
  'response.queued',
  'response.completed',
  'response.incomplete',
  'response.failed',
]);
const SEARCH_CALL_PREFIX = 'response.web_search_call.';

/**
 * Reads one server-sent event. `name` is the SSE `event:` field (when sent it must match the
 * data's `type`); `data` must be a JSON object with a string `type`.
 */
export function parseStreamEvent(name: string | undefined, data: string): OpenAIStreamEvent {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw malformed();
  }
  const { type } = parseWith(z.looseObject({ type: z.string().min(1) }), value);
  if (name !== undefined && name !== type) throw malformed();
  if (RESPONSE_EVENTS.has(type))
    return { kind: 'response', type, response: parseWith(ResponseEventSchema, value).response };
  if (type === 'response.output_item.added' || type === 'response.output_item.done')
    return { kind: 'output_item', type, item: parseWith(OutputItemEventSchema, value).item };
  if (type.startsWith(SEARCH_CALL_PREFIX))
    return {
      kind: 'search_call',
      type,
      phase: type.slice(SEARCH_CALL_PREFIX.length),
      itemId: parseWith(CallEventSchema, value).item_id,
    };
  if (type === 'response.output_text.annotation.added') {
    const event = parseWith(AnnotationEventSchema, value);
    return {
      kind: 'annotation',
      itemId: event.item_id,
      contentIndex: event.content_index,
      annotation: event.annotation,
    };
  }
  if (type === 'response.output_text.done') {
    const event = parseWith(TextDoneEventSchema, value);
    return { kind: 'text_done', itemId: event.item_id, contentIndex: event.content_index, text: event.text };
  }
  if (type === 'error') return { kind: 'error' };
  return { kind: 'other', type };
}
