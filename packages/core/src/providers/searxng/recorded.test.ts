import { loadRecordings, type Recording } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import { isHttpUrl, type Replay, refusedCount, replay, uncleanText, urlKey } from '../../testing/recorded-replay.ts';

// Every SearXNG recording of the corpus (real `format=json` answers of SearXNG instances) replayed
// on loopback through the SearXNG provider and the engine: what comes out is accounted for, reads
// as plain text, and keeps the publication date SearXNG gave.

interface SearxngResult {
  url?: unknown;
  publishedDate?: unknown;
}

const recordings = loadRecordings({ provider: 'searxng' });
const all = recordings.map((r) => [r.id, r] as const);
const resultsOf = (recording: Recording): SearxngResult[] =>
  (JSON.parse(recording.body) as { results?: SearxngResult[] }).results ?? [];

// One engine search per recording, shared by the tests below (SearXNG has no extra snippets to ask for).
const replays = new Map<string, Promise<Replay>>();
const replayed = (recording: Recording): Promise<Replay> => {
  const known = replays.get(recording.id) ?? replay(recording, { count: 20 });
  replays.set(recording.id, known);
  return known;
};

describe('SearXNG recordings', () => {
  it('are there, each with results', () => {
    expect(recordings.length).toBeGreaterThan(0);
    for (const recording of recordings) expect(resultsOf(recording).length).toBeGreaterThan(0);
  });

  it.each(all)('%s: every result comes out or is counted as refused with its reason', async (_id, recording) => {
    const recorded = resultsOf(recording);
    const { group, stats } = await replayed(recording);
    expect(group.error).toBeUndefined();
    expect(stats.candidates).toBe(recorded.length);
    // Admission stops once `count` are admitted: past that, candidates are neither kept nor refused.
    const examined = group.results.length + refusedCount(stats);
    if (group.results.length < 20) expect(examined).toBe(recorded.length);
    else expect(examined).toBeLessThanOrEqual(recorded.length);
    expect(stats.badUrl).toBeGreaterThanOrEqual(recorded.slice(0, examined).filter((r) => !isHttpUrl(r.url)).length);
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

  it.each(all)('%s: a recorded publication date survives as the result age', async (_id, recording) => {
    const { group } = await replayed(recording);
    for (const result of group.results) {
      const own = resultsOf(recording).find((r) => isHttpUrl(r.url) && new URL(String(r.url)).href === result.url);
      const published = own?.publishedDate;
      if (typeof published === 'string' && !Number.isNaN(Date.parse(published)))
        expect(result.age, result.url).toBe(published.slice(0, 10));
      expect(result.meta_url?.hostname).toBe(new URL(result.url).hostname);
    }
  });
});
