import type { GroupErrorCode } from '@openmates/contract';
import { ProviderError } from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';
import { statusError } from '../shared/status-errors.ts';
import type { AnthropicMessage, ContentBlock } from './message.ts';

/** One search the answer proves: its `server_tool_use` and the results its `web_search_tool_result` holds. */
export interface ReceiptSearch {
  id: string;
  /** The query the hosted search ran, when it says. */
  query: string | undefined;
  /** The `web_search_result` entries, as sent. */
  results: Record<string, unknown>[];
}

/** What one answer proved: its searches, and its text blocks (the citations are on them). */
export interface AnthropicReceipt {
  searches: ReceiptSearch[];
  texts: ContentBlock[];
}

const NAME = 'Anthropic';

function fail(message: string, code: GroupErrorCode = 'provider_error'): ProviderError {
  return new ProviderError(code, message);
}

/**
 * The HTTP status each documented `web_search_tool_result_error` code stands for, so that it reads
 * as the status table words that status (ADR 0129): a rate limit, an unavailable service, or a
 * refused request. Any other code fails closed as an error of the provider.
 */
export const SEARCH_ERROR_STATUS: Readonly<Record<string, number>> = {
  too_many_requests: 429,
  unavailable: 503,
  invalid_tool_input: 400,
  query_too_long: 400,
  request_too_large: 413,
  max_uses_exceeded: 400,
};

/** The group error of a search that answered with `error_code`. */
export function searchError(errorCode: unknown): ProviderError {
  const status = typeof errorCode === 'string' ? SEARCH_ERROR_STATUS[errorCode] : undefined;
  if (status === undefined) return fail(`${NAME} reported a web search error it did not name; no result is used.`);
  const base = statusError(NAME, status);
  return new ProviderError(base.code, `${NAME}'s web search failed (${errorCode}); no result is used.`, {
    status,
    cause: new Error(`${NAME} web_search_tool_result_error ${errorCode}`),
  });
}

/** `usage.server_tool_use.web_search_requests`, or undefined when the answer does not say. */
function billedSearches(message: AnthropicMessage): number | undefined {
  const usage = isRecord(message.usage) ? message.usage : undefined;
  const tools = usage && isRecord(usage.server_tool_use) ? usage.server_tool_use : undefined;
  const count = tools?.web_search_requests;
  return Number.isSafeInteger(count) && (count as number) >= 0 ? (count as number) : undefined;
}

/** The `server_tool_use` blocks of `web_search`, by id (a repeated id is a conflict; another server tool fails closed). */
function toolUses(message: AnthropicMessage): Map<string, ContentBlock> {
  const uses = new Map<string, ContentBlock>();
  for (const block of message.content) {
    if (block.type !== 'server_tool_use') continue;
    if (block.name !== 'web_search') throw fail(`${NAME} ran a server tool other than web_search; no result is used.`);
    if (typeof block.id !== 'string' || block.id === '' || uses.has(block.id))
      throw fail(`${NAME} sent conflicting web search receipts; no result is used.`);
    uses.set(block.id, block);
  }
  return uses;
}

/**
 * Applies the receipt rule of ADR 0129 to one finished answer, and throws (fail closed) unless it
 * holds: the answer ended its turn (`stop_reason: "end_turn"`; `pause_turn` is refused, never read
 * as a finished search, and so is any other stop); every `server_tool_use` of `web_search` has
 * exactly one `web_search_tool_result` with its `tool_use_id`, after it, and every result has its
 * use; at least one search returned results; `usage.server_tool_use.web_search_requests` is given,
 * counts at least the searches that returned results and at most the uses sent, and is within
 * `maxSearches`. A search that answered `web_search_tool_result_error` fails the group with its
 * code through the status table, except `max_uses_exceeded` after searches that returned results:
 * that is the allowance sent as `max_uses` stopping the model, which is the point of sending it.
 */
export function receiptOf(message: AnthropicMessage, maxSearches: number): AnthropicReceipt {
  if (message.stop_reason === 'pause_turn')
    throw fail(
      `${NAME} paused its turn before the search finished (pause_turn); the answer is not complete and is not used.`,
    );
  if (message.stop_reason === 'max_tokens')
    throw fail(`${NAME} ended the answer at its output limit; the answer is not complete and is not used.`);
  if (message.stop_reason !== 'end_turn') throw fail(`${NAME} did not end its answer normally; no result is used.`);

  const uses = toolUses(message);
  const answered = new Set<string>();
  const searches: ReceiptSearch[] = [];
  const errors: unknown[] = [];
  const texts: ContentBlock[] = [];
  const started = new Set<string>();
  for (const block of message.content) {
    if (block.type === 'text') texts.push(block);
    if (block.type === 'server_tool_use') started.add(String(block.id));
    if (block.type !== 'web_search_tool_result') continue;
    const id = block.tool_use_id;
    // A result answers a search already started: one before its use is a conflicting receipt.
    if (typeof id !== 'string' || !started.has(id) || answered.has(id))
      throw fail(
        `${NAME} sent a web search result without its search (a missing or conflicting receipt); no result is used.`,
      );
    answered.add(id);
    const content = block.content;
    if (Array.isArray(content)) {
      const input = uses.get(id)?.input;
      const query = isRecord(input) && typeof input.query === 'string' ? input.query : undefined;
      const results = content.filter(
        (entry): entry is Record<string, unknown> => isRecord(entry) && entry.type === 'web_search_result',
      );
      searches.push({ id, query, results });
    } else if (isRecord(content) && content.type === 'web_search_tool_result_error') {
      errors.push(content.error_code);
    } else {
      throw fail(`${NAME} sent a web search result of an unknown shape; no result is used.`);
    }
  }
  if (answered.size !== uses.size)
    throw fail(`${NAME} ran a web search that never returned (no search receipt); no result is used.`);

  const serious = errors.filter((code) => code !== 'max_uses_exceeded' || searches.length === 0);
  if (serious.length > 0) throw searchError(serious[0]);
  if (searches.length === 0)
    throw fail(`${NAME} answered without running a web search (no search receipt); the answer is not used.`);

  const billed = billedSearches(message);
  if (billed === undefined)
    throw fail(`${NAME} did not say how many web searches it ran (no usage receipt); no result is used.`);
  if (billed < searches.length || billed > uses.size)
    throw fail(`${NAME} sent conflicting web search receipts; no result is used.`);
  if (billed > maxSearches || searches.length > maxSearches)
    throw fail(`${NAME} ran more than ${maxSearches} web searches for one query; no result is used.`);
  return { searches, texts };
}
