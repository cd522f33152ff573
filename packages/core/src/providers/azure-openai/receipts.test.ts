import { describe, expect, it } from 'vitest';
import { parseStreamEvent } from '../openai/events.ts';
import { createReceiptTracker, OPENAI_RECEIPT_RULE, type ReceiptRule } from '../openai/receipts.ts';
import { AZURE_RECEIPT_RULE } from './receipts.ts';

// Events as Azure sends them (the recorded stream's shape), read by the parser the provider uses.
function run(events: Record<string, unknown>[], rule: ReceiptRule = AZURE_RECEIPT_RULE, max = 4) {
  const tracker = createReceiptTracker(max, rule);
  for (const event of events) tracker.observe(parseStreamEvent(String(event.type), JSON.stringify(event)));
  return tracker.finish();
}

const created = { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } };
const call = (
  status: string,
  action: Record<string, unknown> = { type: 'search', query: 'news today' },
  id = 'ws_1',
) => ({
  id,
  type: 'web_search_call',
  status,
  action,
});
const citation = { type: 'url_citation', start_index: 0, end_index: 5, title: 'A page', url: 'https://example.org/a' };
const message = (annotations: unknown[] = [citation]) => ({
  id: 'msg_1',
  type: 'message',
  content: [{ type: 'output_text', text: 'News.', annotations }],
});
const completed = (output: unknown[]) => ({
  type: 'response.completed',
  response: { id: 'resp_1', status: 'completed', output },
});
const done = (item: unknown) => ({ type: 'response.output_item.done', output_index: 0, item });
const phase = (name: string) => ({ type: `response.web_search_call.${name}`, item_id: 'ws_1' });

/** Azure's recorded sequence: the call is searched, its final item stays at `searching`, the response completes. */
const azureStream = (item = call('searching'), annotations?: unknown[]) => [
  created,
  phase('in_progress'),
  phase('searching'),
  done(item),
  done(message(annotations)),
  completed([item, message(annotations)]),
];

describe("Azure's receipt rule", () => {
  it('takes a call left at searching, with its query, in a completed answer citing a page', () => {
    expect(run(azureStream()).calls.map((c) => c.id)).toEqual(['ws_1']);
  });

  it("is not OpenAI's: the same stream is refused under OpenAI's rule", () => {
    expect(() => run(azureStream(), OPENAI_RECEIPT_RULE)).toThrow(/never completed/);
  });

  it('refuses a searching call when the answer cites nothing', () => {
    expect(() => run(azureStream(call('searching'), []))).toThrow(/never completed/);
  });

  it('refuses a searching call that names no query, or an action other than search', () => {
    expect(() => run(azureStream(call('searching', { type: 'search' })))).toThrow(/never completed/);
    expect(() => run(azureStream(call('searching', { type: 'open_page', url: 'https://example.org' })))).toThrow(
      /never completed/,
    );
  });

  it('refuses a call left in_progress, a failed call and a searching item contradicted by a completed event', () => {
    expect(() => run(azureStream(call('in_progress')))).toThrow(/never completed/);
    expect(() => run(azureStream(call('failed')))).toThrow(/failed web search call/);
    expect(() => run([created, phase('completed'), done(call('searching'))])).toThrow(/conflicting/);
  });

  it('refuses an answer that never completed, and more searches than allowed', () => {
    expect(() => run(azureStream().slice(0, -1))).toThrow(/ended before the response completed/);
    const two = [call('searching'), call('searching', { type: 'search', query: 'more news' }, 'ws_2')];
    expect(() => run([created, done(message()), completed([...two, message()])], AZURE_RECEIPT_RULE, 1)).toThrow(
      /more than 1 web searches/,
    );
  });
});
