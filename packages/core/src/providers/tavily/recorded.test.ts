import { loadRecordings, type Recording } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import { isHttpUrl, type Replay, refusedCount, replay, uncleanText, urlKey } from '../../testing/recorded-replay.ts';

// Every Tavily recording of the corpus (real `POST /search` answers of a basic search, from
// pydantic-ai's cassettes) replayed on loopback through the Tavily provider and the engine: what
// comes out is accounted for, reads as plain text, keeps Tavily's title and content, and holds no
// URL twice.

interface TavilyResult {
  url?: unknown;
  title?: unknown;
  content?: unknown;
}

const recordings = loadRecordings({ provider: 'tavily' });
const all = recordings.map((r) => [r.id, r] as const);
const resultsOf = (recording: Recording): TavilyResult[] =>
  (JSON.parse(recording.body) as { results?: TavilyResult[] }).results ?? [];

const replays = new Map<string, Promise<Replay>>();
const replayed = (recording: Recording): Promise<Replay> => {
  const known = replays.get(recording.id) ?? replay(recording, { count: 20 });
  replays.set(recording.id, known);
  return known;
};

describe('Tavily recordings', () => {
  it('are there, three at least, each with results', () => {
    expect(recordings.length).toBeGreaterThanOrEqual(3);
    for (const recording of recordings) expect(resultsOf(recording).length).toBeGreaterThan(0);
  });

  it.each(all)('%s: every result comes out or is counted as refused with its reason', async (_id, recording) => {
    const recorded = resultsOf(recording);
    const { group, stats, requests } = await replayed(recording);
    expect(group.error).toBeUndefined();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /search']);
    expect(stats.candidates).toBe(recorded.length);
    expect(group.results.length + refusedCount(stats)).toBe(recorded.length);
    for (const result of group.results) {
      const own = recorded.filter((r) => isHttpUrl(r.url) && urlKey(String(r.url)) === urlKey(result.url));
      expect(own.length, result.url).toBeGreaterThan(0);
    }
  });

  it.each(all)('%s: no title or description carries markup or an entity', async (_id, recording) => {
    const { group } = await replayed(recording);
    expect(group.results.length).toBeGreaterThan(0);
    for (const result of group.results) expect(uncleanText(result), result.url).toBeUndefined();
  });

  it.each(all)('%s: title and content are kept as the title and description', async (_id, recording) => {
    const { group } = await replayed(recording);
    for (const result of group.results) {
      const own = resultsOf(recording).find((r) => isHttpUrl(r.url) && new URL(String(r.url)).href === result.url);
      expect(own, result.url).toBeDefined();
      expect(result.title.length).toBeGreaterThan(0);
      if (typeof own?.title === 'string' && own.title.length < 100) expect(result.title).toBe(own.title.trim());
      expect(result.description?.length ?? 0).toBeGreaterThan(0);
    }
  });

  it.each(all)('%s: no URL twice', async (_id, recording) => {
    const { group } = await replayed(recording);
    const keys = group.results.map((r) => urlKey(r.url));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
