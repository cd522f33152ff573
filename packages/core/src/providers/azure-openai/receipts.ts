import { isRecord } from '../../shared/is-record.ts';
import type { ReceiptRule } from '../openai/receipts.ts';

/**
 * Azure's receipt rule (ADR 0132). Azure OpenAI leaves a finished `web_search_call` at status
 * `searching` inside a `completed` response and never sends `response.web_search_call.completed`
 * (both real recordings do so). Besides a call that says `completed`, a call counts as a completed
 * search when its final item is at `searching`, its action is a `search` naming the query it ran,
 * and the completed answer cites at least one URL (a `url_citation`). Everything else of OpenAI's
 * rule stands: a failed call, a conflict, a response that did not complete, no call at all, or more
 * searches than allowed still fail closed; a call left `in_progress`, or `searching` with no query
 * or in an answer citing nothing, never completed.
 */
export const AZURE_RECEIPT_RULE: ReceiptRule = {
  settled(item, annotations) {
    if (item.status !== 'searching') return false;
    const action = isRecord(item.action) ? item.action : {};
    if (action.type !== 'search' || typeof action.query !== 'string' || action.query.trim() === '') return false;
    return annotations.some(
      ({ annotation }) =>
        isRecord(annotation) && annotation.type === 'url_citation' && typeof annotation.url === 'string',
    );
  },
};
