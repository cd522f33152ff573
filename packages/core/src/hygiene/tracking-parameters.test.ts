import { loadRecordings } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import { searchRecording } from '../testing/recorded-replay.ts';
import { isTrackingParameter } from './tracking-parameters.ts';

describe('the tracking parameter table', () => {
  it('names utm_* and the click ids, and nothing that merely looks like them', () => {
    for (const name of ['utm_source', 'UTM_Campaign', 'utm_', 'gclid', 'fbclid', 'msclkid', 'mc_cid', 'mc_eid'])
      expect(isTrackingParameter(name), name).toBe(true);
    for (const name of ['utm', 'utmsource', 'q', 'id', 'ref', 'source', 'gclid_x', 'page', ''])
      expect(isTrackingParameter(name), name).toBe(false);
  });
});

// OpenAI cites a page as `…?utm_source=openai` and lists the same page among the search's sources
// without it: recorded answers that do so come out with each page once, without the tag.
const TWICE = ['vercel-ai-openai-web-search-tool-1', 'vercel-ai-openai-web-search-tool-1-stream'];

describe('one page once, without its tracking tag (recorded OpenAI answers)', () => {
  const recordings = loadRecordings({ provider: 'openai' }).filter((r) => TWICE.includes(r.id));

  it('holds the recordings', () => {
    expect(recordings.map((r) => r.id).sort()).toEqual([...TWICE].sort());
  });

  it.each(recordings.map((r) => [r.id, r] as const))('%s', async (_id, recording) => {
    expect(recording.body).toContain('?utm_source=openai');
    const { response } = await searchRecording(recording, {
      requests: [{ query: recording.query ?? 'news today', count: 20 }],
    });
    const results = response.results[0]?.results ?? [];
    expect(results.length).toBeGreaterThan(0);
    const urls = results.map((r) => r.url);
    expect(urls.filter((url) => url.includes('utm_'))).toEqual([]);
    expect(new Set(urls).size).toBe(urls.length);
    // The cited pages are among them, once each, with the citation's note.
    expect(results.filter((r) => r.note !== undefined).length).toBeGreaterThan(0);
  });
});
