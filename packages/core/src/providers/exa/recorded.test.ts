import { loadRecordings, type Recording } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import { ELLIPSIS } from '../../hygiene/truncate.ts';
import { isHttpUrl, type Replay, refusedCount, replay, squeezed, uncleanText } from '../../testing/recorded-replay.ts';

// Every Exa recording of the corpus (real answers of Exa's `POST /search`, from crewAI's cassettes)
// replayed on loopback through the Exa provider and the engine: what comes out is accounted for,
// reads as plain text, and keeps the facts Exa gave about each page.

interface ExaResult {
  url?: unknown;
  title?: unknown;
  text?: unknown;
  publishedDate?: unknown;
  favicon?: unknown;
}

const resultsOf = (recording: Recording): ExaResult[] =>
  (JSON.parse(recording.body) as { results?: ExaResult[] }).results ?? [];

const replays = new Map<string, Promise<Replay>>();
const replayed = (recording: Recording): Promise<Replay> => {
  const known = replays.get(recording.id) ?? replay(recording, { count: 20 });
  replays.set(recording.id, known);
  return known;
};

describe('Exa recordings', () => {
  const recordings = loadRecordings({ provider: 'exa' });
  const all = recordings.map((r) => [r.id, r] as const);

  it('are there, at least three, each with results', () => {
    expect(recordings.length).toBeGreaterThanOrEqual(3);
    for (const recording of recordings) expect(resultsOf(recording).length).toBeGreaterThan(0);
  });

  it.each(all)('%s: every result comes out or is counted as refused with its reason', async (_id, recording) => {
    const recorded = resultsOf(recording);
    const { group, stats, requests } = await replayed(recording);
    expect(group.error).toBeUndefined();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/search' });
    expect(stats.candidates).toBe(recorded.length);
    expect(group.results.length + refusedCount(stats)).toBe(recorded.length);
    for (const result of group.results)
      expect(
        recorded.some((r) => r.url === result.url || (isHttpUrl(r.url) && new URL(String(r.url)).href === result.url)),
      ).toBe(true);
  });

  it.each(all)('%s: no URL twice, and no title or description carries markup or an entity', async (_id, recording) => {
    const { group } = await replayed(recording);
    expect(group.results.length).toBeGreaterThan(0);
    const urls = group.results.map((result) => result.url);
    expect(new Set(urls).size).toBe(urls.length);
    for (const result of group.results) expect(uncleanText(result), result.url).toBeUndefined();
  });

  it.each(all)('%s: title, page text, published date and favicon survive', async (_id, recording) => {
    const { group } = await replayed(recording);
    for (const result of group.results) {
      const own = resultsOf(recording).find((r) => r.url === result.url);
      if (own === undefined) throw new Error(`no recorded result for ${result.url}`);
      if (typeof own.title === 'string' && own.title.trim() !== '') expect(result.title).toMatch(/\S/);
      // The description is the page text's start, at most cut short.
      const shown = result.description ?? '';
      const kept = squeezed(shown.endsWith(ELLIPSIS) ? shown.slice(0, -ELLIPSIS.length) : shown);
      expect(kept.length, result.url).toBeGreaterThan(0);
      expect(squeezed(own.text).includes(kept), result.url).toBe(true);
      if (typeof own.publishedDate === 'string') expect(result.age, result.url).toBe(own.publishedDate.slice(0, 10));
      if (typeof own.favicon === 'string' && own.favicon.startsWith('https:'))
        expect(result.meta_url?.favicon, result.url).toBe(own.favicon);
    }
  });
});
