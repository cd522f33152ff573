import { loadRecordings, type Recording, type RecordingServerRequest, startRecordingServer } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import { buildResults } from '../build-results.ts';
import { loadConfig } from '../config.ts';
import { createEngine } from '../engine.ts';
import { createLogger } from '../logger.ts';
import { createConfiguredProvider } from '../providers/registry.ts';

// The paging rule (ADR 0100) on real recorded answers: a query whose first recorded page already
// holds `count` results that pass every filter makes one provider call, tabloid filter on. A
// recording holds one page: a second call is answered with the provider's envelope and no results.

const SETTINGS = {
  brave: (baseUrl: string) => ({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: 'recorded-answers-test-key',
    BRAVE_SEARCH_BASE_URL: `${baseUrl}/res/v1`,
  }),
  searxng: (baseUrl: string) => ({ OPENMATES_PROVIDER: 'searxng', SEARXNG_BASE_URL: baseUrl }),
} as const;

/** How many of `recording`'s results the engine would return for `count`, tabloids filtered (no scope). */
function usable(recording: Recording, count: number): number {
  const body = JSON.parse(recording.body) as { web?: { results?: unknown[] }; results?: unknown[] };
  const results = (recording.provider === 'brave' ? body.web?.results : body.results) ?? [];
  const candidates = results.map((r) => {
    const { url, title } = r as { url?: unknown; title?: unknown };
    return { format: 'html' as const, url, title, description: '' };
  });
  return buildResults(candidates, { filterTabloids: true, redact: (text) => text, limit: count }).results.length;
}

/** The provider requests one engine search for `count` results makes on `recording` replayed as its first page. */
async function requestsFor(recording: Recording, count: number): Promise<RecordingServerRequest[]> {
  const server = await startRecordingServer([recording]);
  try {
    const provider = recording.provider === 'searxng' ? 'searxng' : 'brave';
    const config = loadConfig({ ...SETTINGS[provider](server.baseUrl), OPENMATES_CACHE_TTL_S: '0' });
    const logger = createLogger({ level: 'silent', redact: (text) => text });
    const engine = createEngine({ config, provider: createConfiguredProvider(config), logger });
    const { response } = await engine.search({ requests: [{ query: recording.query ?? 'recorded', count }] });
    expect(response.results[0]?.results).toHaveLength(usable(recording, count));
    expect(response.budget?.calls_used).toBe(server.requests.length);
    return server.requests;
  } finally {
    await server.close();
  }
}

describe('paging on recorded answers (tabloid filter on)', () => {
  it('a count of 20 on a recorded Brave page holding 20 usable results makes one call', async () => {
    const full = loadRecordings({ provider: 'brave', kind: 'web' }).filter((r) => usable(r, 20) === 20);
    expect(full.length).toBeGreaterThan(0);
    const calls: Record<string, number> = {};
    for (const recording of full) {
      const requests = await requestsFor(recording, 20);
      calls[recording.id] = requests.length;
      // The page size asked for is the window's (twice 20, at most 20 a page), as before.
      expect(requests[0]?.query.count).toBe('20');
    }
    console.log('Brave calls per recording for count 20:', calls);
    expect(calls).toEqual(Object.fromEntries(full.map((r) => [r.id, 1])));
  });
});

describe('paging on recorded SearXNG answers (tabloid filter on)', () => {
  const recordings = loadRecordings({ provider: 'searxng' });

  it.each([10, 20])('a count of %i makes one call on every answer holding that many usable results', async (count) => {
    expect(recordings.length).toBeGreaterThan(0);
    const calls: Record<string, number> = {};
    for (const recording of recordings) {
      const requests = await requestsFor(recording, count);
      calls[recording.id] = requests.length;
      expect(requests[0]?.query.pageno).toBe('1');
      if (usable(recording, count) >= count) expect(requests, recording.id).toHaveLength(1);
      // Fewer than `count` on the recorded page: at most the next page, which holds nothing more.
      else expect(requests.map((r) => r.query.pageno)).toEqual(['1', '2'].slice(0, requests.length));
    }
    console.log(`SearXNG calls per recording for count ${count}:`, calls);
  });
});
