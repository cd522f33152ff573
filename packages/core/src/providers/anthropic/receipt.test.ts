import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../provider.ts';
import { messageOf } from './message.ts';
import { receiptOf, searchError } from './receipt.ts';

// The receipt rule of ADR 0129 on messages built here, for the orders and counts the fixture's
// scenarios do not reach.

const use = (id: string, name = 'web_search') => ({ type: 'server_tool_use', id, name, input: { query: 'q' } });
const found = (id: string) => ({
  type: 'web_search_tool_result',
  tool_use_id: id,
  content: [{ type: 'web_search_result', url: `https://example.com/${id}`, title: id, encrypted_content: 'x' }],
});
const message = (content: unknown[], requests: number, stop = 'end_turn') =>
  messageOf({
    id: 'msg_1',
    type: 'message',
    stop_reason: stop,
    content,
    usage: { server_tool_use: { web_search_requests: requests } },
  });

function refusal(run: () => unknown): ProviderError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the receipt rule', () => {
  it('accepts each search followed by its result, within the maximum', () => {
    const receipt = receiptOf(message([use('a'), found('a'), use('b'), found('b')], 2), 2);
    expect(receipt.searches.map((s) => s.id)).toEqual(['a', 'b']);
  });

  it('refuses a result before its search, a repeated id, a result twice, another server tool', () => {
    expect(refusal(() => receiptOf(message([found('a'), use('a')], 1), 4)).message).toMatch(/without its search/);
    expect(refusal(() => receiptOf(message([use('a'), found('a'), use('a'), found('a')], 1), 4)).message).toMatch(
      /conflicting/,
    );
    expect(refusal(() => receiptOf(message([use('a'), found('a'), found('a')], 1), 4)).message).toMatch(
      /without its search/,
    );
    expect(refusal(() => receiptOf(message([use('a', 'web_fetch'), found('a')], 1), 4)).message).toMatch(
      /other than web_search/,
    );
  });

  it('refuses a usage counting more searches than shown, or more than the maximum', () => {
    expect(refusal(() => receiptOf(message([use('a'), found('a')], 2), 4)).message).toMatch(/conflicting/);
    const three = [use('a'), found('a'), use('b'), found('b'), use('c'), found('c')];
    expect(refusal(() => receiptOf(message(three, 3), 2)).message).toMatch(/more than 2 web searches/);
  });

  it('refuses every stop but end_turn, pause_turn by name', () => {
    expect(refusal(() => receiptOf(message([use('a'), found('a')], 1, 'pause_turn'), 4)).message).toMatch(/pause_turn/);
    for (const stop of ['max_tokens', 'refusal', 'tool_use', 'stop_sequence'])
      expect(refusal(() => receiptOf(message([use('a'), found('a')], 1, stop), 4)).code).toBe('provider_error');
  });

  it('maps each documented search error code through the status table; an unknown one fails closed', () => {
    expect(searchError('too_many_requests').code).toBe('provider_rate_limited');
    expect(searchError('unavailable').code).toBe('provider_unavailable');
    for (const code of ['invalid_tool_input', 'max_uses_exceeded', 'query_too_long', 'request_too_large'])
      expect(searchError(code).code).toBe('provider_error');
    expect(searchError('brand_new').message).toMatch(/did not name/);
  });
});
