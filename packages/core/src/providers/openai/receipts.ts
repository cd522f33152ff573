import { isDeepStrictEqual } from 'node:util';
import { ProviderError } from '../../provider.ts';
import {
  MessageItemSchema,
  type OpenAIStreamEvent,
  type ResponseObject,
  type WebSearchCallItem,
  WebSearchCallItemSchema,
} from './events.ts';
import { textPartKey } from './text-part.ts';

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
  /** How many of them were searches (page reads are not; a call whose action is not known is): what OpenAI bills. */
  searches: number;
  /** The model tokens the completed response reports (`usage.input_tokens`, `usage.output_tokens`), when it does. */
  tokens: { input?: number; output?: number };
  /** Every answer annotation, in the order observed (stream events first, then final items). */
  annotations: ObservedAnnotation[];
  /** Final answer text per `itemId:contentIndex`; provisional deltas are never kept. */
  texts: Map<string, string>;
}

/**
 * What an endpoint's answers prove a search with, besides a call whose final item or event says
 * `completed`. OpenAI's own endpoint: nothing else (`OPENAI_RECEIPT_RULE`). Another endpoint serving
 * the Responses API may say how its completed calls look (Azure's, ADR 0132).
 */
export interface ReceiptRule {
  /**
   * Whether a call whose final item is `item`, neither completed nor failed by any event, counts as
   * a completed search of the completed response whose annotations are `annotations`.
   */
  settled(item: WebSearchCallItem, annotations: readonly ObservedAnnotation[]): boolean;
}

/** OpenAI's rule for its own endpoint: a call is complete when it says so, and only then. */
export const OPENAI_RECEIPT_RULE: ReceiptRule = { settled: () => false };

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

/** What the tracker of one stream has observed so far. */
interface Observed {
  maxSearches: number;
  rule: ReceiptRule;
  calls: Map<string, CallRecord>;
  annotations: ObservedAnnotation[];
  texts: Map<string, string>;
  responseId: string | undefined;
  terminal: ResponseObject | undefined;
}

type ResponseEvent = Extract<OpenAIStreamEvent, { kind: 'response' }>;

/**
 * Applies the receipt rules (docs/providers/openai.md) to one response stream: `observe` each event in
 * order (it throws as soon as the stream cannot succeed), then `finish` at the end of the stream
 * (it throws unless there was exactly one completed response and at least one completed search,
 * and every search call completed). Identical repeated observations of a call are consolidated;
 * differing ones are a conflict. `rule` says what else proves a completed call (default: nothing). At most `maxSearches` calls may be searches (ADR 0099): page
 * reads (`open_page`, `find_in_page`) do not count, a call whose action is not known does.
 */
export function createReceiptTracker(maxSearches: number, rule: ReceiptRule = OPENAI_RECEIPT_RULE) {
  const observed: Observed = {
    maxSearches,
    rule,
    calls: new Map(),
    annotations: [],
    texts: new Map(),
    responseId: undefined,
    terminal: undefined,
  };
  return {
    observe: (event: OpenAIStreamEvent): void => observe(observed, event),
    finish: (): SearchReceipt => finish(observed),
  };
}

/** The record of the web search call `id`, started on first sight. */
function call(observed: Observed, id: string): CallRecord {
  let record = observed.calls.get(id);
  if (record === undefined) {
    record = { completedSignal: false, failedSignal: false };
    observed.calls.set(id, record);
  }
  return record;
}

/** The action a call's final item names (`search`, `open_page`, `find_in_page`), if it names one. */
function actionType(item: WebSearchCallItem | undefined): string | undefined {
  const action = item?.action as { type?: unknown } | undefined;
  return typeof action?.type === 'string' ? action.type : undefined;
}

/** A call counts as a search unless its final item names another action: one not known might be one. */
const isSearch = (record: CallRecord) => (actionType(record.item) ?? 'search') === 'search';

/**
 * Refuses the stream once more than the allowance of calls are known searches. Checked as each
 * final item arrives (a call's action is known only then), so a runaway loop stops being read
 * early; `finish` checks again with the calls whose action never became known.
 */
function checkAllowance(observed: Observed, known: boolean): void {
  let searches = 0;
  for (const record of observed.calls.values())
    if (known ? actionType(record.item) === 'search' : isSearch(record)) searches += 1;
  if (searches > observed.maxSearches)
    throw fail(`OpenAI ran more than ${observed.maxSearches} web searches for one query; no result is used.`);
}

function finalItem(observed: Observed, item: WebSearchCallItem): void {
  const record = call(observed, item.id);
  if (record.item !== undefined && !isDeepStrictEqual(record.item, item)) throw fail(CONFLICT);
  record.item = item;
  checkConsistent(record);
  checkAllowance(observed, true);
}

function checkConsistent(record: CallRecord): void {
  if (record.completedSignal && record.failedSignal) throw fail(CONFLICT);
  const status = record.item?.status;
  if (status === undefined) return;
  if (record.completedSignal && status !== 'completed') throw fail(CONFLICT);
  if (record.failedSignal && status !== 'failed') throw fail(CONFLICT);
}

function message(observed: Observed, value: unknown): void {
  const parsed = MessageItemSchema.safeParse(value);
  if (!parsed.success) throw fail('OpenAI sent a malformed stream event; no result is used.');
  parsed.data.content?.forEach((part, contentIndex) => {
    if (part.text !== undefined) observed.texts.set(textPartKey(parsed.data.id, contentIndex), part.text);
    for (const annotation of part.annotations ?? [])
      observed.annotations.push({ itemId: parsed.data.id, contentIndex, annotation });
  });
}

/** Routes an output item (streamed or in the final response) to its rule. */
function outputItem(observed: Observed, value: unknown, done: boolean): void {
  const type = (value as { type?: unknown }).type;
  if (type === 'web_search_call') {
    const parsed = WebSearchCallItemSchema.safeParse(value);
    if (!parsed.success) throw fail('OpenAI sent a malformed stream event; no result is used.');
    if (done) finalItem(observed, parsed.data);
    else call(observed, parsed.data.id);
  } else if (type === 'message' && done) {
    message(observed, value);
  }
}

/** A response lifecycle event: one response id throughout, and only a completed response ends the stream well. */
function observeResponse(observed: Observed, event: ResponseEvent): void {
  if (observed.responseId !== undefined && event.response.id !== observed.responseId) throw fail(CONFLICT);
  observed.responseId = event.response.id;
  if (event.type === 'response.failed') throw fail('OpenAI reported the search as failed.');
  if (event.type === 'response.incomplete' || (TERMINALS.has(event.type) && event.response.status !== 'completed'))
    throw fail('OpenAI ended the search incomplete (an output limit or a filter stopped it); no result is used.');
  if (event.type === 'response.completed') {
    observed.terminal = event.response;
    for (const item of event.response.output ?? []) outputItem(observed, item, true);
  }
}

function observe(observed: Observed, event: OpenAIStreamEvent): void {
  if (observed.terminal !== undefined) {
    if (event.kind === 'response' && TERMINALS.has(event.type))
      throw fail('OpenAI sent more than one terminal event for one response; no result is used.');
    throw fail('OpenAI sent events after the response ended; no result is used.');
  }
  switch (event.kind) {
    case 'error':
      throw fail('OpenAI reported an error during the search.');
    case 'response':
      observeResponse(observed, event);
      return;
    case 'output_item':
      outputItem(observed, event.item, event.type === 'response.output_item.done');
      return;
    case 'search_call': {
      const record = call(observed, event.itemId);
      if (event.phase === 'completed') record.completedSignal = true;
      else if (event.phase === 'failed') record.failedSignal = true;
      checkConsistent(record);
      return;
    }
    case 'annotation':
      observed.annotations.push({
        itemId: event.itemId,
        contentIndex: event.contentIndex,
        annotation: event.annotation,
      });
      return;
    case 'text_done':
      observed.texts.set(textPartKey(event.itemId, event.contentIndex), event.text);
      return;
    case 'other':
      return;
  }
}

/** A token count as the response reports it: a whole number ≥ 0, or nothing. */
const count = (value: unknown) =>
  Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;

/** The tokens a completed response reports in its `usage`. */
function tokensOf(response: ResponseObject): SearchReceipt['tokens'] {
  const usage = (response as { usage?: unknown }).usage;
  if (typeof usage !== 'object' || usage === null) return {};
  const { input_tokens, output_tokens } = usage as Record<string, unknown>;
  const input = count(input_tokens);
  const output = count(output_tokens);
  return { ...(input === undefined ? {} : { input }), ...(output === undefined ? {} : { output }) };
}

function finish(observed: Observed): SearchReceipt {
  const { terminal, responseId, calls, annotations, texts } = observed;
  if (terminal === undefined || responseId === undefined)
    throw fail('The OpenAI stream ended before the response completed; no result is used.');
  const completed: WebSearchCallItem[] = [];
  for (const [id, record] of calls) {
    const status = record.item?.status ?? (record.completedSignal ? 'completed' : record.failedSignal ? 'failed' : '');
    if (status === 'failed') throw fail('OpenAI reported a failed web search call; no result is used.');
    const settled =
      record.item !== undefined && !record.completedSignal && observed.rule.settled(record.item, annotations);
    if (status !== 'completed' && !settled) throw fail('A web search call never completed; no result is used.');
    // A call seen completed only through its event, with no final item, still has a receipt.
    completed.push(record.item ?? { id, type: 'web_search_call', status: 'completed' });
  }
  if (completed.length === 0)
    throw fail('OpenAI answered without a completed web search (no search receipt); the answer is not used.');
  checkAllowance(observed, false);
  const searches = [...calls.values()].filter(isSearch).length;
  return { responseId, calls: completed, searches, tokens: tokensOf(terminal), annotations, texts };
}
