import { loadRecordings, type Recording } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import { ELLIPSIS } from '../../hygiene/truncate.ts';
import {
  isHttpUrl,
  type Replay,
  refusedCount,
  replay,
  squeezed,
  uncleanText,
  urlKey,
} from '../../testing/recorded-replay.ts';

// Every Brave recording of the corpus (real answers of Brave's web and news search API) replayed on
// loopback through the Brave provider and the engine, as a new user's answer would be: what comes
// out is accounted for, reads as plain text, and keeps the facts Brave gave about each page.

interface BraveResult {
  url?: unknown;
  description?: unknown;
  age?: unknown;
  page_age?: unknown;
  language?: unknown;
  family_friendly?: unknown;
  meta_url?: { netloc?: unknown; path?: unknown; favicon?: unknown };
  extra_snippets?: unknown;
}

/** The request item each kind of recording is replayed with: 20 results, extra snippets asked for. */
const ITEMS = {
  web: { count: 20, extra_snippets: true },
  news: { topic: 'news', count: 20, extra_snippets: true },
} as const;

/** A web answer's results are `web.results`, a news answer's `results`. */
function resultsOf(recording: Recording): BraveResult[] {
  const body = JSON.parse(recording.body) as { web?: { results?: BraveResult[] }; results?: BraveResult[] };
  return (recording.kind === 'news' ? body.results : body.web?.results) ?? [];
}

// One engine search per recording, shared by the tests below.
const replays = new Map<string, Promise<Replay>>();
const replayed = (recording: Recording): Promise<Replay> => {
  const known = replays.get(recording.id) ?? replay(recording, ITEMS[recording.kind === 'news' ? 'news' : 'web']);
  replays.set(recording.id, known);
  return known;
};
const nonBlank = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** The recorded result an output result came from: the same host and path, the same full URL first. */
function recordedFor(recording: Recording, url: string): BraveResult | undefined {
  const candidates = resultsOf(recording).filter((r) => isHttpUrl(r.url) && urlKey(String(r.url)) === urlKey(url));
  return candidates.find((r) => new URL(String(r.url)).href === url) ?? candidates[0];
}

describe.each(Object.keys(ITEMS) as (keyof typeof ITEMS)[])('Brave %s recordings', (kind) => {
  const recordings = loadRecordings({ provider: 'brave', kind });
  const all = recordings.map((r) => [r.id, r] as const);

  it('are there, each with results', () => {
    expect(recordings.length).toBeGreaterThan(0);
    for (const recording of recordings) expect(resultsOf(recording).length).toBeGreaterThan(0);
  });

  it.each(all)('%s: every result comes out or is counted as refused with its reason', async (_id, recording) => {
    const recorded = resultsOf(recording);
    const { group, stats, requests } = await replayed(recording);
    expect(group.error).toBeUndefined();
    expect(requests[0]?.query.extra_snippets).toBe('true');
    // Every candidate of every page is examined while fewer than `count` are admitted.
    expect(stats.candidates).toBe(recorded.length);
    if (group.results.length < 20) expect(group.results.length + refusedCount(stats)).toBe(recorded.length);
    else expect(group.results.length + refusedCount(stats)).toBeLessThanOrEqual(recorded.length);
    // A URL that is not http(s) can only be refused as a bad URL.
    expect(stats.badUrl).toBeGreaterThanOrEqual(recorded.filter((r) => !isHttpUrl(r.url)).length);
    for (const result of group.results) expect(recordedFor(recording, result.url), result.url).toBeDefined();
  });

  it.each(all)(
    '%s: no title, description, breadcrumb or snippet carries markup or an entity',
    async (_id, recording) => {
      const { group } = await replayed(recording);
      expect(group.results.length).toBeGreaterThan(0);
      for (const result of group.results) expect(uncleanText(result), result.url).toBeUndefined();
    },
  );

  it.each(all)('%s: age, language, family_friendly, meta_url and extra_snippets survive', async (_id, recording) => {
    const { group } = await replayed(recording);
    for (const result of group.results) {
      const own = recordedFor(recording, result.url);
      if (own === undefined) throw new Error(`no recorded result for ${result.url}`);
      if (nonBlank(own.age) || nonBlank(own.page_age)) expect(result.age, result.url).toMatch(/\S/);
      if (nonBlank(own.language)) expect(result.language, result.url).toBe(own.language);
      if (typeof own.family_friendly === 'boolean') expect(result.family_friendly).toBe(own.family_friendly);
      const host = new URL(result.url).host;
      expect(result.meta_url?.hostname).toBe(new URL(result.url).hostname);
      const netloc = nonBlank(own.meta_url?.netloc) ? own.meta_url.netloc.toLowerCase() : undefined;
      if (netloc === host || `www.${netloc}` === host) expect(result.meta_url?.netloc, result.url).toBe(netloc);
      if (nonBlank(own.meta_url?.path))
        expect(result.meta_url?.path, result.url).toBe(own.meta_url.path.replace(/\s+/g, ' ').trim());
      if (nonBlank(own.meta_url?.favicon) && own.meta_url.favicon.startsWith('https:'))
        expect(result.meta_url?.favicon, result.url).toBe(own.meta_url.favicon);
      // Read the simple way: an excerpt that only repeats the description is left out on purpose, any
      // other one is kept, and every excerpt shown is one Brave gave, at most cut short.
      const description = squeezed(own.description).toLowerCase();
      const excerpts = (Array.isArray(own.extra_snippets) ? own.extra_snippets : []).map(squeezed).filter(Boolean);
      if (excerpts.some((excerpt) => excerpt.toLowerCase() !== description))
        expect(result.extra_snippets?.length, result.url).toBeGreaterThan(0);
      for (const shown of result.extra_snippets ?? []) {
        const kept = squeezed(shown.endsWith(ELLIPSIS) ? shown.slice(0, -ELLIPSIS.length) : shown);
        expect(
          excerpts.some((excerpt) => excerpt.startsWith(kept)),
          `${result.url}: ${shown}`,
        ).toBe(true);
      }
    }
  });
});
