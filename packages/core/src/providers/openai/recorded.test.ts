import { loadRecordings, type Recording, startRecordingServer } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import { queryProvider } from '../../pipeline/query-provider.ts';
import { testContext, testQuery } from '../../testing/index.ts';
import { searchRecording } from '../../testing/recorded-replay.ts';
import { createOpenAIProvider } from './provider.ts';

// Every OpenAI recording of the corpus (real Responses streams and bodies), replayed on loopback
// through the provider and the engine. What each recording's answer ran, read from it by hand:
// `searches` are its `web_search_call`s whose action is `search`, `reads` those that open a page or
// find in one. `refused` names a rule of ours that refuses the answer whatever the limit.
const RAN: Record<string, { searches: number; reads: number; refused?: RegExp }> = {
  'pydantic-ai-test_durability_web_search_in_workflow': { searches: 4, reads: 0 },
  'pydantic-ai-test_web_search_agent_run_in_workflow': { searches: 2, reads: 0 },
  'pydantic-ai-test_thinking_with_native_tool_wire_contract-openai-responses': { searches: 7, reads: 2 },
  'pydantic-ai-test_run': { searches: 7, reads: 0 },
  'pydantic-ai-test_openai_include_raw_annotations_non_streaming': { searches: 1, reads: 0 },
  'pydantic-ai-test_openai_include_raw_annotations_non_streaming-1': { searches: 1, reads: 0 },
  'pydantic-ai-test_openai_include_raw_annotations_streaming': { searches: 2, reads: 0 },
  'pydantic-ai-test_openai_include_raw_annotations_streaming-1': { searches: 1, reads: 0 },
  'pydantic-ai-test_openai_responses_model_builtin_tools_web_search': { searches: 6, reads: 0 },
  'pydantic-ai-test_openai_responses_model_web_search_tool': { searches: 1, reads: 0 },
  'pydantic-ai-test_openai_responses_model_web_search_tool-1': { searches: 1, reads: 0 },
  'pydantic-ai-test_openai_responses_model_web_search_tool_stream': { searches: 1, reads: 0 },
  'pydantic-ai-test_openai_responses_model_web_search_tool_stream-1': { searches: 1, reads: 0 },
  'pydantic-ai-test_openai_responses_model_web_search_tool_with_allowed_domains': { searches: 2, reads: 2 },
  'pydantic-ai-test_openai_responses_model_web_search_tool_with_invalid_region': { searches: 1, reads: 0 },
  'pydantic-ai-test_openai_responses_model_web_search_tool_with_user_location': { searches: 1, reads: 0 },
  'pydantic-ai-test_openai_responses_model_web_search_tool_without_external_access': { searches: 1, reads: 0 },
  'vercel-ai-openai-web-search-tool-1-stream': { searches: 2, reads: 4 },
  'vercel-ai-openai-web-search-tool-1': { searches: 1, reads: 2 },
  // Azure's completed responses leave their calls at status "searching": no completed receipt under
  // OpenAI's rule (the azure-openai provider answers them under Azure's, ADR 0132).
  'vercel-ai-azure-web-search-preview-tool-1-stream': { searches: 1, reads: 0, refused: /never completed/ },
  'vercel-ai-azure-web-search-preview-tool-1': { searches: 2, reads: 0, refused: /never completed/ },
};

const recordings = loadRecordings({ provider: 'openai' });
const queryOf = (recording: Recording) => recording.query ?? 'what happened in tech today';
const tooMany = (limit: number) => new RegExp(`^OpenAI ran more than ${limit} web searches for one query`);

/** The group the engine answers for `recording`'s query, with `OPENMATES_OPENAI_MAX_SEARCHES` at `limit` (unset: the default). */
async function groupOf(recording: Recording, limit?: number) {
  const { response, requests } = await searchRecording(
    recording,
    { requests: [{ query: queryOf(recording), count: 20 }] },
    limit === undefined ? {} : { OPENMATES_OPENAI_MAX_SEARCHES: String(limit) },
  );
  expect(requests).toHaveLength(1);
  const [group] = response.results;
  if (group === undefined) throw new Error('no group');
  return group;
}

describe('OpenAI recordings', () => {
  it('are all described here, as the recording shows them', () => {
    expect(recordings.map((r) => r.id).sort()).toEqual(Object.keys(RAN).sort());
  });

  const all = recordings.map((r) => [r.id, r] as const);
  // Those no rule but the limit refuses.
  const answerable = all.filter(([id]) => RAN[id]?.refused === undefined);

  it.each(all)(
    '%s is answered under the default limit of 4 searches exactly when it ran at most 4 (page reads not counted)',
    async (id, recording) => {
      const ran = RAN[id] ?? { searches: 0, reads: 0 };
      const group = await groupOf(recording);
      if (ran.refused === undefined && ran.searches <= 4) {
        expect(group.error).toBeUndefined();
        const urls = group.results.map((r) => r.url);
        expect(new Set(urls).size).toBe(urls.length);
      } else {
        expect(group.error?.code).toBe('provider_error');
        expect(group.error?.message).toMatch(ran.refused ?? tooMany(4));
        expect(group.results).toEqual([]);
      }
    },
  );

  it.each(answerable)(
    '%s bills the searches its receipt shows, not the limit it was allowed, at the configured price',
    async (id, recording) => {
      const searches = RAN[id]?.searches ?? 0;
      const group = await groupOf(recording, 20);
      expect(group.usage).toMatchObject({ source: 'provider', calls: 1, billed: searches });
      expect(group.usage?.cost_usd).toBeCloseTo(searches * 0.01, 8);
    },
  );

  it.each(answerable)('%s is answered with the limit at its searches, and refused one below', async (id, recording) => {
    const searches = RAN[id]?.searches ?? 0;
    expect((await groupOf(recording, searches)).error).toBeUndefined();
    const below = Math.max(1, searches - 1);
    const group = await groupOf(recording, below);
    if (searches > 1) expect(group.error?.message).toMatch(tooMany(below));
    else expect(group.error).toBeUndefined();
  });

  it.each(answerable)('%s gives every cited result a note', async (_id, recording) => {
    const server = await startRecordingServer([recording]);
    try {
      const provider = createOpenAIProvider({ apiKey: 'k', baseUrl: `${server.baseUrl}/v1`, maxSearches: 20 });
      const answer = await queryProvider(provider, testQuery(queryOf(recording)), testContext());
      for (const candidate of answer.candidates.filter((c) => c.title !== undefined))
        expect(candidate.note, String(candidate.url)).toMatch(/[\p{L}\p{N}]{2}/u);
    } finally {
      await server.close();
    }
  });
});

// The citing sentence, exactly, for a few citations placed as OpenAI places them: after the full
// stop, at the end of a list item, after an abbreviation.
const NOTES: [recording: string, url: string, note: string][] = [
  [
    'pydantic-ai-test_openai_include_raw_annotations_non_streaming',
    'https://www.britannica.com/place/Mount-Columbia',
    "The tallest mountain in Alberta is Mount Columbia, which rises to 3,747 m (12,294 ft) and is Alberta's highest point.",
  ],
  [
    'pydantic-ai-test_web_search_agent_run_in_workflow',
    'https://apnews.com/article/5d036e18057361281e984b44402d3b1b',
    'Severe floods and landslides across Veracruz, Hidalgo, and Puebla have cut off hundreds of communities and left dozens dead and many missing, prompting a major federal emergency response.',
  ],
  [
    'vercel-ai-openai-web-search-tool-1-stream',
    'https://techcrunch.com/2025/12/05/petco-confirms-security-lapse-exposed-customers-personal-data/',
    'Petco disclosed a customer-data exposure / security lapse.',
  ],
  [
    'vercel-ai-openai-web-search-tool-1-stream',
    'https://www.wired.com/story/the-big-interview-2025-recap',
    'WIRED published a recap of its “Big Interview” event (Dec 4).',
  ],
  [
    'vercel-ai-openai-web-search-tool-1',
    'https://www.investopedia.com/5-things-to-know-before-the-stock-market-opens-december-5-2025-11862701',
    'A major media deal: reports that Netflix is pursuing an $83B acquisition of Warner Bros. Discovery (market coverage today).',
  ],
];

describe('the note of a recorded citation', () => {
  it.each(NOTES)('%s: %s is noted with the sentence citing it', async (id, url, note) => {
    const recording = recordings.find((r) => r.id === id);
    if (recording === undefined) throw new Error(`no recording ${id}`);
    const group = await groupOf(recording);
    // The first result of the page: the citation, which comes before the same page among the sources.
    const result = group.results.find((r) => r.url.startsWith(url));
    expect(result?.note).toBe(note);
  });
});
