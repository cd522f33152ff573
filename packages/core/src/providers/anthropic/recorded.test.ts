import { loadRecordings, type Recording } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import {
  isHttpUrl,
  type Replay,
  refusedCount,
  replay,
  searchRecording,
  uncleanText,
} from '../../testing/recorded-replay.ts';
import { createMessageAccumulator, messageOf } from './message.ts';

// Every Anthropic recording of the corpus (real Messages answers with the hosted web_search tool,
// plain and streamed) replayed on loopback through the provider and the engine, as a new user's
// answer would be. The two paused turns follow ADR 0129's rule: refused, never read as finished.

/** The recorded answer as a message: the body, or the stream's events put together. */
function messageIn(recording: Recording) {
  if (recording.kind === 'anthropic-body') return messageOf(JSON.parse(recording.body));
  const accumulator = createMessageAccumulator();
  for (const event of recording.body.split(/\r?\n\r?\n/)) {
    const lines = event.split(/\r?\n/);
    const name = lines
      .find((line) => line.startsWith('event:'))
      ?.slice(6)
      .trim();
    const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart());
    if (data.length > 0) accumulator.observe(name, data.join('\n'));
  }
  return accumulator.finish();
}

/** Every `web_search_result` URL of the answer, and every cited URL, once each. */
function recordedUrls(recording: Recording): Set<string> {
  const urls = new Set<string>();
  for (const block of messageIn(recording).content) {
    if (block.type === 'web_search_tool_result' && Array.isArray(block.content))
      for (const entry of block.content as { url?: unknown }[]) if (typeof entry.url === 'string') urls.add(entry.url);
    if (block.type === 'text' && Array.isArray(block.citations))
      for (const citation of block.citations as { url?: unknown }[])
        if (typeof citation.url === 'string') urls.add(citation.url);
  }
  return urls;
}

const recordings = loadRecordings({ provider: 'anthropic' });
const paused = (r: Recording) => r.id.includes('pause_turn');
const finished = recordings.filter((r) => !paused(r)).map((r) => [r.id, r] as const);
const ITEM = { count: 20, extra_snippets: true } as const;

const replays = new Map<string, Promise<Replay>>();
const replayed = (recording: Recording): Promise<Replay> => {
  const known = replays.get(recording.id) ?? replay(recording, ITEM);
  replays.set(recording.id, known);
  return known;
};

describe('Anthropic recordings', () => {
  it('are there: plain and streamed answers, and a paused turn with its continuation in each form', () => {
    expect(recordings.filter((r) => r.kind === 'anthropic-body').length).toBeGreaterThanOrEqual(4);
    expect(recordings.filter((r) => r.kind === 'anthropic-stream').length).toBeGreaterThanOrEqual(4);
    expect(recordings.filter(paused)).toHaveLength(4);
  });

  it.each(finished)('%s: every result comes out or is counted as refused with its reason', async (_id, recording) => {
    const urls = recordedUrls(recording);
    const { group, stats, requests } = await replayed(recording);
    expect(group.error).toBeUndefined();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.path).toBe('/v1/messages');
    expect(stats.candidates).toBe(urls.size);
    if (group.results.length < ITEM.count) expect(group.results.length + refusedCount(stats)).toBe(urls.size);
    expect(stats.badUrl).toBeGreaterThanOrEqual([...urls].filter((url) => !isHttpUrl(url)).length);
    const hrefs = new Set([...urls].filter(isHttpUrl).map((url) => new URL(url).href));
    for (const result of group.results) expect(hrefs.has(new URL(result.url).href), result.url).toBe(true);
  });

  it.each(finished)(
    '%s: clean text, no URL twice, quoted passages as excerpts, nothing encrypted',
    async (_id, recording) => {
      const { group } = await replayed(recording);
      const seen = new Set<string>();
      for (const result of group.results) {
        expect(uncleanText(result), result.url).toBeUndefined();
        expect(seen.has(result.url)).toBe(false);
        seen.add(result.url);
      }
      expect(JSON.stringify(group)).not.toMatch(/encrypted|Ep[A-Za-z0-9]{20}/);
      // The cited pages come first, each with the passage quoted from it and the sentence citing it.
      const first = group.results[0];
      expect(first?.description).toBeTruthy();
      expect(first?.note).toBeTruthy();
      expect(group.results.some((result) => result.age !== undefined)).toBe(true);
    },
  );

  it.each(recordings.filter(paused).map((r) => [r.id, r] as const))(
    '%s: a paused turn, or the continuation of one, is refused whole (ADR 0129)',
    async (_id, recording) => {
      const { response, requests } = await searchRecording(
        recording,
        { requests: [{ query: 'San Francisco today' }] },
        // Even with the largest allowance: the rule, not the count, refuses these.
        { OPENMATES_ANTHROPIC_MAX_SEARCHES: '10' },
      );
      const [group] = response.results;
      expect(requests).toHaveLength(1);
      expect(group?.results).toEqual([]);
      expect(group?.error?.code).toBe('provider_error');
      const message = messageIn(recording);
      if (message.stop_reason === 'pause_turn') expect(group?.error?.message).toMatch(/pause_turn/);
      else expect(group?.error?.message).toMatch(/without its search/);
    },
  );
});
