import { loadRecordings, type Recording } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import {
  isHttpUrl,
  type Replay,
  refusedCount,
  replay,
  searchRecording,
  squeezed,
  uncleanText,
  urlKey,
} from '../../testing/recorded-replay.ts';

// Every Serper recording of the corpus replayed on loopback through the Serper provider and the
// engine: what comes out is accounted for, reads as plain text, keeps the date Google gave, and
// the related searches come back as suggestions. The corpus holds one real answer (haystack's
// test dict, converted to JSON: see the manifest).

interface SerperResult {
  link?: unknown;
  title?: unknown;
  snippet?: unknown;
  date?: unknown;
}
interface SerperAnswer {
  organic?: SerperResult[];
  relatedSearches?: { query?: unknown }[];
}

const recordings = loadRecordings({ provider: 'serper' });
const all = recordings.map((r) => [r.id, r] as const);
const answerOf = (recording: Recording): SerperAnswer => JSON.parse(recording.body) as SerperAnswer;
const resultsOf = (recording: Recording): SerperResult[] => answerOf(recording).organic ?? [];

// One engine search per recording: one page of ten, so the one recorded page is the whole answer.
const replays = new Map<string, Promise<Replay>>();
const replayed = (recording: Recording): Promise<Replay> => {
  const known = replays.get(recording.id) ?? replay(recording, { count: 10, filter_tabloids: false });
  replays.set(recording.id, known);
  return known;
};

describe('Serper recordings', () => {
  it('are there, each with organic results', () => {
    expect(recordings.length).toBeGreaterThan(0);
    for (const recording of recordings) expect(resultsOf(recording).length).toBeGreaterThan(0);
  });

  it.each(all)('%s: every result comes out or is counted as refused with its reason', async (_id, recording) => {
    const recorded = resultsOf(recording);
    const { group, stats, requests } = await replayed(recording);
    expect(group.error).toBeUndefined();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /search']);
    expect(stats.candidates).toBe(recorded.length);
    expect(group.results.length + refusedCount(stats)).toBe(recorded.length);
    expect(stats.badUrl).toBeGreaterThanOrEqual(recorded.filter((r) => !isHttpUrl(r.link)).length);
    for (const result of group.results) {
      const own = recorded.filter((r) => isHttpUrl(r.link) && urlKey(String(r.link)) === urlKey(result.url));
      expect(own.length, result.url).toBeGreaterThan(0);
    }
    expect(new Set(group.results.map((r) => r.url)).size).toBe(group.results.length);
  });

  it.each(all)('%s: no title or description carries markup or an entity', async (_id, recording) => {
    const { group } = await replayed(recording);
    expect(group.results.length).toBeGreaterThan(0);
    for (const result of group.results) expect(uncleanText(result), result.url).toBeUndefined();
  });

  it.each(all)('%s: title, snippet and date survive', async (_id, recording) => {
    const { group } = await replayed(recording);
    for (const result of group.results) {
      const own = resultsOf(recording).find((r) => isHttpUrl(r.link) && new URL(String(r.link)).href === result.url);
      if (own === undefined) throw new Error(`no recorded result for ${result.url}`);
      expect(squeezed(result.title)).toBe(squeezed(own.title));
      expect(squeezed(result.description)).toBe(squeezed(own.snippet));
      if (typeof own.date === 'string') expect(result.age, result.url).toBe(own.date);
      expect(result.meta_url?.hostname).toBe(new URL(result.url).hostname);
    }
  });

  it.each(all)('%s: the related searches come back as follow-up suggestions, in order', async (_id, recording) => {
    const { response } = await searchRecording(recording, {
      requests: [{ query: recording.query ?? 'recorded', count: 10, filter_tabloids: false }],
    });
    const related = (answerOf(recording).relatedSearches ?? []).map((r) => r.query);
    const shown = response.suggestions_follow_up_requests ?? [];
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).toEqual(related.slice(0, shown.length));
  });
});
