import { lineCollector, loadRecordings, type Recording, startRecordingServer } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import type { BuildStats } from '../../build-results.ts';
import { loadConfig } from '../../config.ts';
import { createEngine } from '../../engine.ts';
import { createLogger } from '../../logger.ts';
import { isHttpUrl, refusedCount, searchRecording, uncleanText } from '../../testing/recorded-replay.ts';
import { createConfiguredProvider } from '../registry.ts';

// The real Azure OpenAI answers of the corpus (recorded from Azure by vercel/ai with the
// `web_search_preview` tool; filed under `openai`, whose Responses API Azure serves). Their calls
// stay at `searching` inside a completed response and no `web_search_call.completed` event is ever
// sent: Azure's receipt rule (ADR 0132) answers them, OpenAI's rule for its own endpoint refuses them.
const RAN: Record<string, { searches: number }> = {
  'vercel-ai-azure-web-search-preview-tool-1-stream': { searches: 1 },
  'vercel-ai-azure-web-search-preview-tool-1': { searches: 2 },
};

const recordings = loadRecordings({ provider: 'openai' }).filter((r) => r.id.startsWith('vercel-ai-azure-'));
const all = recordings.map((r) => [r.id, r] as const);
const QUERY = 'what happened in the news today';

/** The engine's answer to `recording` served at Azure's route, searched as `azure-openai` with `env` added. */
async function asAzure(recording: Recording, env: Record<string, string> = {}) {
  const server = await startRecordingServer([recording]);
  try {
    const config = loadConfig({
      OPENMATES_PROVIDER: 'azure-openai',
      AZURE_OPENAI_API_KEY: 'recorded-answers-test-key',
      AZURE_OPENAI_ENDPOINT: server.baseUrl,
      OPENMATES_AZURE_OPENAI_DEPLOYMENT: 'gpt-4.1-mini',
      OPENMATES_AZURE_OPENAI_SEARCH_TOOL: 'web_search_preview',
      OPENMATES_CACHE_TTL_S: '0',
      ...env,
    });
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', redact: (text) => text, destination: lineCollector(lines) });
    const engine = createEngine({ config, provider: createConfiguredProvider(config), logger });
    const { response } = await engine.search({ requests: [{ query: QUERY, count: 20 }] });
    const [group] = response.results;
    if (group === undefined) throw new Error('no group');
    const calls = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.event === 'provider_call' && typeof line.candidates === 'number');
    return { group, calls: calls as unknown as BuildStats[], requests: server.requests };
  } finally {
    await server.close();
  }
}

/** The distinct cited URLs of a recording, read from it by hand (its `url_citation` annotations). */
function citedUrls(recording: Recording): string[] {
  const urls = [...recording.body.matchAll(/"type":\s*"url_citation"[^}]*?"url":\s*"([^"]+)"/g)].map((m) => m[1]);
  return [...new Set(urls)].filter((url): url is string => url !== undefined);
}

describe('the Azure OpenAI recordings', () => {
  it('are the two of the corpus', () => {
    expect(recordings.map((r) => r.id).sort()).toEqual(Object.keys(RAN).sort());
  });

  it.each(all)('%s is answered by azure-openai: results in = results out + refusals', async (_id, recording) => {
    const { group, calls, requests } = await asAzure(recording);
    expect(group.error).toBeUndefined();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /openai/v1/responses']);
    expect(calls).toHaveLength(1);
    const [stats] = calls;
    if (stats === undefined) throw new Error('no provider_call line');
    expect(stats.candidates).toBe(group.results.length + refusedCount(stats));
    const urls = group.results.map((r) => r.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls.every(isHttpUrl)).toBe(true);
    expect(group.results.map((r) => uncleanText(r)).filter((t) => t !== undefined)).toEqual([]);
    // Every page the answer cites is a result; the preview tool's calls carry no sources.
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.length).toBe(citedUrls(recording).length);
    for (const result of group.results) expect(result.note).toMatch(/[\p{L}\p{N}]{2}/u);
  });

  it.each(all)('%s is answered with the limit at its searches and refused one below', async (id, recording) => {
    const searches = RAN[id]?.searches ?? 0;
    const at = await asAzure(recording, { OPENMATES_AZURE_OPENAI_MAX_SEARCHES: String(searches) });
    expect(at.group.error).toBeUndefined();
    if (searches < 2) return;
    const below = await asAzure(recording, { OPENMATES_AZURE_OPENAI_MAX_SEARCHES: String(searches - 1) });
    expect(below.group.error?.message).toMatch(new RegExp(`ran more than ${searches - 1} web searches`));
    expect(below.group.results).toEqual([]);
  });

  it.each(all)(
    '%s is still refused when replayed as openai (its rule for its own endpoint)',
    async (_id, recording) => {
      const { response } = await searchRecording(recording, { requests: [{ query: QUERY, count: 20 }] });
      const [group] = response.results;
      expect(group?.error?.code).toBe('provider_error');
      expect(group?.error?.message).toMatch(/never completed/);
      expect(group?.results).toEqual([]);
    },
  );
});
