import { isDeepStrictEqual } from 'node:util';
import { ProviderError } from '../../provider.ts';
import {
  MessageItemSchema,
  type OpenAIStreamEvent,
  type ResponseObject,
  type WebSearchCallItem,
  WebSearchCallItemSchema,
} from './events.ts';

/** An annotation as it was observed, with the text part it belongs to. */
export interface ObservedAnnotation {
  itemId: string;
  contentIndex: number;
  annotation: unknown;
}

/** What one query's stream proved: a completed response and its completed search calls. */
export interface SearchReceipt {
  responseId: string;
  /** The final item of every completed `web_search_call`, in the order the calls started. */
  calls: WebSearchCallItem[];
  /** Every answer annotation, in the order observed (stream events first, then final items). */
  annotations: ObservedAnnotation[];
  /** Final answer text per `itemId:contentIndex`; provisional deltas are never kept. */
  texts: Map<string, string>;
}

interface CallRecord {
  completedSignal: boolean;
  failedSignal: boolean;
  /** The final item, from `output_item.done` or the completed response's `output`. */
  item?: WebSearchCallItem;
}

function fail(message: string): ProviderError {
  return new ProviderError('provider_error', message);
}

const CONFLICT = 'OpenAI sent conflicting observations of one web search call; no result is used.';
const TERMINALS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Applies the receipt rules (docs/providers/openai.md) to one response stream: `observe` each event in
 * order (it throws as soon as the stream cannot succeed), then `finish` at the end of the stream
 * (it throws unless there was exactly one completed response and at least one completed search,
 * and every search call completed). Identical repeated observations of a call are consolidated;
 * differing ones are a conflict.
 */
export function createReceiptTracker(maxNativeSearches: number) {
  const calls = new Map<string, CallRecord>();
  const annotations: ObservedAnnotation[] = [];
  const texts = new Map<string, string>();
  let responseId: string | undefined;
  let terminal: ResponseObject | undefined;

  function call(id: string): CallRecord {
    let record = calls.get(id);
    if (record === undefined) {
      record = { completedSignal: false, failedSignal: false };
      calls.set(id, record);
      // The allowance counts distinct native executions; refusing early stops reading the stream.
      if (calls.size > maxNativeSearches)
        throw fail(`OpenAI ran more than ${maxNativeSearches} web searches for one query; no result is used.`);
    }
    return record;
  }

  function finalItem(item: WebSearchCallItem): void {
    const record = call(item.id);
    if (record.item !== undefined && !isDeepStrictEqual(record.item, item)) throw fail(CONFLICT);
    record.item = item;
    checkConsistent(record);
  }

  function checkConsistent(record: CallRecord): void {
    if (record.completedSignal && record.failedSignal) throw fail(CONFLICT);
    const status = record.item?.status;
    if (status === undefined) return;
    if (record.completedSignal && status !== 'completed') throw fail(CONFLICT);
    if (record.failedSignal && status !== 'failed') throw fail(CONFLICT);
  }

  function message(value: unknown): void {
    const parsed = MessageItemSchema.safeParse(value);
    if (!parsed.success) throw fail('OpenAI sent a malformed stream event; no result is used.');
    parsed.data.content?.forEach((part, contentIndex) => {
      if (part.text !== undefined) texts.set(`${parsed.data.id}:${contentIndex}`, part.text);
      for (const annotation of part.annotations ?? [])
        annotations.push({ itemId: parsed.data.id, contentIndex, annotation });
    });
  }

  /** Routes an output item (streamed or in the final response) to its rule. */
  function outputItem(value: unknown, done: boolean): void {
    const type = (value as { type?: unknown }).type;
    if (type === 'web_search_call') {
      const parsed = WebSearchCallItemSchema.safeParse(value);
      if (!parsed.success) throw fail('OpenAI sent a malformed stream event; no result is used.');
      if (done) finalItem(parsed.data);
      else call(parsed.data.id);
    } else if (type === 'message' && done) {
      message(value);
    }
  }

  function observe(event: OpenAIStreamEvent): void {
    if (terminal !== undefined) {
      if (event.kind === 'response' && TERMINALS.has(event.type))
        throw fail('OpenAI sent more than one terminal event for one response; no result is used.');
      throw fail('OpenAI sent events after the response ended; no result is used.');
    }
    switch (event.kind) {
      case 'error':
        throw fail('OpenAI reported an error during the search.');
      case 'response': {
        if (responseId !== undefined && event.response.id !== responseId) throw fail(CONFLICT);
        responseId = event.response.id;
        if (event.type === 'response.failed') throw fail('OpenAI reported the search as failed.');
        if (
          event.type === 'response.incomplete' ||
          (TERMINALS.has(event.type) && event.response.status !== 'completed')
        )
          throw fail('OpenAI ended the search incomplete (an output limit or a filter stopped it); no result is used.');
        if (event.type === 'response.completed') {
          terminal = event.response;
          for (const item of event.response.output ?? []) outputItem(item, true);
        }
        return;
      }
      case 'output_item':
        outputItem(event.item, event.type === 'response.output_item.done');
        return;
      case 'search_call': {
        const record = call(event.itemId);
        if (event.phase === 'completed') record.completedSignal = true;
        else if (event.phase === 'failed') record.failedSignal = true;
        checkConsistent(record);
        return;
      }
      case 'annotation':
        annotations.push({ itemId: event.itemId, contentIndex: event.contentIndex, annotation: event.annotation });
        return;
      case 'text_done':
        texts.set(`${event.itemId}:${event.contentIndex}`, event.text);
        return;
      case 'other':
        return;
    }
  }

  function finish(): SearchReceipt {
    if (terminal === undefined || responseId === undefined)
      throw fail('The OpenAI stream ended before the response completed; no result is used.');
    const completed: WebSearchCallItem[] = [];
    for (const [id, record] of calls) {
      const status =
        record.item?.status ?? (record.completedSignal ? 'completed' : record.failedSignal ? 'failed' : '');
      if (status === 'failed') throw fail('OpenAI reported a failed web search call; no result is used.');
      if (status !== 'completed') throw fail('A web search call never completed; no result is used.');
      // A call seen completed only through its event, with no final item, still has a receipt.
      completed.push(record.item ?? { id, type: 'web_search_call', status: 'completed' });
    }
    if (completed.length === 0)
      throw fail('OpenAI answered without a completed web search (no search receipt); the answer is not used.');
    return { responseId, calls: completed, annotations, texts };
  }

  return { observe, finish };
}
