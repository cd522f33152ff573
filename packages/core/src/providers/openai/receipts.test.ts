import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../provider.ts';
import { parseStreamEvent } from './events.ts';
import { createReceiptTracker } from './receipts.ts';

// Events as they arrive on the wire, read by the same parser the provider uses.
function run(events: Record<string, unknown>[], max = 4) {
  const tracker = createReceiptTracker(max);
  for (const event of events) tracker.observe(parseStreamEvent(String(event.type), JSON.stringify(event)));
  return tracker.finish();
}

const created = { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } };
const completed = (output: unknown[] = [], id = 'resp_1') => ({
  type: 'response.completed',
  response: { id, status: 'completed', output },
});
const item = (status: string, query = 'q') => ({
  id: 'ws_1',
  type: 'web_search_call',
  status,
  action: { type: 'search', query, sources: [] },
});
const done = (value: unknown) => ({ type: 'response.output_item.done', output_index: 0, item: value });
const callEvent = (phase: string, id = 'ws_1') => ({ type: `response.web_search_call.${phase}`, item_id: id });

function rejection(events: Record<string, unknown>[]): string {
  try {
    run(events);
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return (error as ProviderError).message;
  }
  throw new Error('expected the receipt rules to fail');
}

describe('receipt rules', () => {
  it('accept a call completed only through its event', () => {
    const receipt = run([created, callEvent('in_progress'), callEvent('completed'), completed()]);
    expect(receipt.calls.map((c) => c.id)).toEqual(['ws_1']);
  });

  it('accept the same final item in output_item.done and in the completed response', () => {
    const receipt = run([created, callEvent('completed'), done(item('completed')), completed([item('completed')])]);
    expect(receipt.calls).toHaveLength(1);
  });

  it('refuse a completed event contradicted by a failed item', () => {
    expect(rejection([created, callEvent('completed'), done(item('failed')), completed()])).toMatch(/conflicting/);
  });

  it('refuse a call that started and never finished', () => {
    expect(rejection([created, callEvent('in_progress'), callEvent('searching'), completed()])).toMatch(
      /never completed/,
    );
  });

  it('refuse a completed response with another id than the created one', () => {
    expect(rejection([created, callEvent('completed'), completed([], 'resp_2')])).toMatch(/conflicting/);
  });

  it('refuse events after the terminal one', () => {
    expect(rejection([created, callEvent('completed'), completed(), callEvent('searching', 'ws_2')])).toMatch(
      /after the response ended/,
    );
  });

  it('refuse response.completed whose status is not completed', () => {
    const odd = { type: 'response.completed', response: { id: 'resp_1', status: 'incomplete', output: [] } };
    expect(rejection([created, callEvent('completed'), odd])).toMatch(/incomplete/);
  });

  it('count a call whose action never became known against the allowance, once per call id', () => {
    const events = [created, callEvent('completed', 'a'), callEvent('completed', 'a'), callEvent('completed', 'b')];
    expect(run([...events, completed()], 2).calls).toHaveLength(2);
    expect(() => run([...events, completed()], 1)).toThrow(/more than 1 web searches/);
  });

  // As OpenAI streams them: the action is named only by the call's final item.
  const action = (id: string, value: Record<string, unknown>) => [
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { id, type: 'web_search_call', status: 'in_progress' },
    },
    callEvent('completed', id),
    done({ id, type: 'web_search_call', status: 'completed', action: value }),
  ];
  const search = (id: string) => action(id, { type: 'search', query: id, sources: [] });
  const pageReads = ['p1', 'p2', 'p3', 'p4'].flatMap((id, n) =>
    action(
      id,
      n % 2 === 0
        ? { type: 'open_page', url: 'https://a.example/' }
        : { type: 'find_in_page', url: 'https://a.example/', pattern: 'x' },
    ),
  );

  it('count searches against the allowance, never page reads', () => {
    const receipt = run([created, ...search('s1'), ...pageReads, ...search('s2'), completed()], 2);
    expect(receipt.calls.map((c) => c.id)).toEqual(['s1', 'p1', 'p2', 'p3', 'p4', 's2']);
  });

  it('refuse the search past the allowance as soon as its final item names it', () => {
    const tracker = createReceiptTracker(2);
    const observe = (event: Record<string, unknown>) =>
      tracker.observe(parseStreamEvent(String(event.type), JSON.stringify(event)));
    [created, ...search('s1'), ...pageReads, ...search('s2')].forEach(observe);
    const third = search('s3');
    third.slice(0, -1).forEach(observe);
    expect(() => observe(third.at(-1) ?? {})).toThrow(/more than 2 web searches/);
  });

  it('refuse an event whose SSE name differs from its type', () => {
    expect(() => parseStreamEvent('response.completed', JSON.stringify(created))).toThrow(/malformed/);
  });

  it('refuse a known event missing a field it needs', () => {
    expect(() => parseStreamEvent(undefined, JSON.stringify({ type: 'response.web_search_call.completed' }))).toThrow(
      /malformed/,
    );
  });
});
