import {
  GROUP_ERROR_CODES,
  MAX_BATCH_ITEMS,
  MAX_COUNT,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_ID_LENGTH,
  MIN_MAX_RESPONSE_BYTES,
  type ResultGroup,
  type SearchBudget,
  type WebSearchResponse,
  WebSearchResponseSchema,
  type WebSearchResult,
} from '@openmates/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FittedJson, fitResponseJson, ResponseTooLargeError, serializedSize } from './fit-response.ts';
import { fitResponse } from './testing/fit.ts';

const size = (value: unknown) => Math.max(serializedSize(value).utf16, serializedSize(value).utf8);

function result(n: number, extra: Partial<WebSearchResult> = {}): WebSearchResult {
  return { title: `Title ${n}`, url: `https://example.org/${n}`, description: `About ${n}`, ...extra };
}

function tooLarge(run: () => unknown): ResponseTooLargeError {
  try {
    run();
  } catch (error) {
    if (error instanceof ResponseTooLargeError) return error;
    throw error;
  }
  throw new Error('expected a ResponseTooLargeError');
}

const zeroBudget: SearchBudget = {
  calls_used: 2,
  max_sources: 100,
  sources_admitted: 6,
  sources_cut: 0,
  notes_fitted_out: 0,
  suggestions_fitted_out: 0,
  results_fitted_out: 0,
};

function sample(): WebSearchResponse {
  return {
    results: [
      { id: 'a', results: [result(1, { note: 'first note' }), result(2), result(3, { note: 'third note' })] },
      { id: 'b', results: [result(4), result(5, { note: 'fifth note' }), result(6)] },
    ],
    provider: 'Brave Search',
    suggestions_follow_up_requests: ['one', 'two'],
    request_id: 'r1',
    budget: zeroBudget,
  };
}

describe('fitResponse', () => {
  it('returns the response itself when it fits', () => {
    const response = sample();
    expect(fitResponse(response, size(response))).toBe(response);
  });

  it('removes notes first, last group first, and reports them', () => {
    const response = sample();
    const fitted = fitResponse(response, size(response) - 1);
    expect(fitted.results[1]?.results[1]).toEqual(result(5));
    expect(fitted.results[0]?.results.map((r) => r.note)).toEqual(['first note', undefined, 'third note']);
    expect(fitted.budget?.notes_fitted_out).toBe(1);
    expect(fitted.suggestions_follow_up_requests).toEqual(['one', 'two']);
    expect(response.results[1]?.results[1]?.note).toBe('fifth note');
  });

  it('removes page excerpts after notes and suggestions, before any result, and counts the excerpts', () => {
    const response = sample();
    const first = response.results[0]?.results ?? [];
    const second = response.results[1]?.results ?? [];
    response.results = [
      { id: 'a', results: [{ ...first[0], extra_snippets: ['a1', 'a2'] } as WebSearchResult, ...first.slice(1)] },
      {
        id: 'b',
        results: [second[0], { ...second[1], extra_snippets: ['b1', 'b2', 'b3'] }, second[2]] as WebSearchResult[],
      },
    ];
    // Notes and suggestions all gone, nothing else: the excerpts are untouched.
    const { suggestions_follow_up_requests: _, ...rest } = response;
    const stripped: WebSearchResponse = {
      ...rest,
      results: response.results.map((g) => ({ ...g, results: g.results.map(({ note: _, ...r }) => r) })),
      budget: { ...zeroBudget, notes_fitted_out: 3, suggestions_fitted_out: 2 },
    };
    const noNotes = fitResponse(response, size(stripped));
    expect(noNotes).toEqual(stripped);
    expect(noNotes.budget?.notes_fitted_out).toBe(3);
    expect(noNotes.budget?.suggestions_fitted_out).toBe(2);
    expect(noNotes.budget).not.toHaveProperty('extra_snippets_fitted_out');
    // One more removal: the last group's excerpts go first, three strings counted.
    const oneResult = fitResponse(response, size(noNotes) - 1);
    expect(oneResult.results[1]?.results[1]).not.toHaveProperty('extra_snippets');
    expect(oneResult.results[0]?.results[0]?.extra_snippets).toEqual(['a1', 'a2']);
    expect(oneResult.budget?.extra_snippets_fitted_out).toBe(3);
    expect(oneResult.budget?.results_fitted_out).toBe(0);
    // Then the first group's; only then a result.
    const noExcerpts: WebSearchResponse = {
      ...stripped,
      results: stripped.results.map((g) => ({ ...g, results: g.results.map(({ extra_snippets: _, ...r }) => r) })),
      budget: { ...zeroBudget, notes_fitted_out: 3, suggestions_fitted_out: 2, extra_snippets_fitted_out: 5 },
    };
    expect(fitResponse(response, size(noExcerpts))).toEqual(noExcerpts);
    const oneCut = fitResponse(response, size(noExcerpts) - 1);
    expect(oneCut.budget).toMatchObject({ extra_snippets_fitted_out: 5, results_fitted_out: 1 });
    expect(oneCut.results[1]?.results).toHaveLength(2);
  });

  it('then drops suggestions from the end, then results from the end of the last groups', () => {
    const response = sample();
    const noNotes = fitResponse(response, size(response) - 60);
    expect(noNotes.budget?.notes_fitted_out).toBe(3);
    const skeletonish: WebSearchResponse = fitResponse(response, size(noNotes) - 25);
    expect(skeletonish.suggestions_follow_up_requests).toBeUndefined();
    expect(skeletonish.budget?.suggestions_fitted_out).toBe(2);
    expect(skeletonish.results.flatMap((g) => g.results)).toHaveLength(6);

    const oneCut = fitResponse(response, size(skeletonish) - 1);
    expect(oneCut.results.map((g) => g.results.map((r) => r.url))).toEqual([
      ['https://example.org/1', 'https://example.org/2', 'https://example.org/3'],
      ['https://example.org/4', 'https://example.org/5'],
    ]);
    expect(oneCut.results[1]?.results_fitted_out).toBe(1);
    expect(oneCut.budget?.results_fitted_out).toBe(1);

    const emptied = fitResponse(response, size(skeletonish) - 200);
    expect(emptied.results[1]).toEqual({ id: 'b', results: [], results_fitted_out: 3 });
    expect(emptied.results[0]?.results.length).toBeLessThan(3);
  });

  it('keeps every group, id and error even at the smallest ceiling the skeleton allows', () => {
    const response: WebSearchResponse = {
      ...sample(),
      results: [...sample().results, { id: 7, results: [], error: { code: 'provider_timeout', message: 'Too slow.' } }],
      error: 'The search failed for 1 of 3 queries (id 7): Too slow.',
      code: 'provider_timeout',
    };
    const skeletonSize = tooLarge(() => fitResponse(response, 1)).size;
    const fitted = fitResponse(response, skeletonSize);
    expect(size(fitted)).toBe(skeletonSize);
    expect(fitted.results.map((g) => [g.id, g.error, g.results.length])).toEqual([
      ['a', undefined, 0],
      ['b', undefined, 0],
      [7, { code: 'provider_timeout', message: 'Too slow.' }, 0],
    ]);
    expect(fitted.error).toBe(response.error);
    expect(fitted.budget).toMatchObject({ notes_fitted_out: 3, suggestions_fitted_out: 2, results_fitted_out: 6 });
  });

  it('throws instead of truncating when even the skeleton does not fit', () => {
    const error = tooLarge(() => fitResponse(sample(), 100));
    expect(error.size).toBeGreaterThan(100);
    expect(error.maxBytes).toBe(100);
  });

  it('counts UTF-8 bytes where they exceed UTF-16 units (astral titles)', () => {
    const astral: WebSearchResponse = {
      results: [{ id: 1, results: [result(1, { title: '𝄞'.repeat(100) }), result(2, { title: '𝄞'.repeat(100) })] }],
      provider: 'p',
    };
    const { utf16, utf8 } = serializedSize(astral);
    expect(utf8).toBe(utf16 + 400);
    // Fits in UTF-16 units but not in bytes: one result must go.
    const fitted = fitResponse(astral, utf16 + 10);
    expect(fitted.results[0]?.results).toHaveLength(1);
    expect(serializedSize(fitted).utf8).toBeLessThanOrEqual(utf16 + 10);
  });

  it('fits the largest skeleton the contract allows under MIN_MAX_RESPONSE_BYTES', () => {
    // Every code point at its worst JSON cost: a control character, escaped as \u0001 (6 bytes).
    const worst = (length: number, tag: number) => '\u0001'.repeat(length - 1) + String.fromCodePoint(0x10 + tag);
    const groups: ResultGroup[] = Array.from({ length: MAX_BATCH_ITEMS }, (_, i) => ({
      id: worst(MAX_ID_LENGTH, i),
      results: [],
      error: { code: 'provider_unavailable', message: worst(MAX_ERROR_MESSAGE_LENGTH, 0) },
      sources_cut: MAX_COUNT,
      results_fitted_out: MAX_COUNT,
    }));
    const skeleton: WebSearchResponse = {
      results: groups,
      provider: `OpenAI web_search (${'m'.repeat(100)})`,
      error: worst(MAX_ERROR_MESSAGE_LENGTH, 0),
      code: 'provider_unavailable',
      request_id: crypto.randomUUID(),
      budget: {
        calls_used: MAX_BATCH_ITEMS,
        max_sources: Number.MAX_SAFE_INTEGER,
        sources_admitted: MAX_BATCH_ITEMS * MAX_COUNT,
        sources_cut: MAX_BATCH_ITEMS * MAX_COUNT,
        notes_fitted_out: MAX_BATCH_ITEMS * MAX_COUNT,
        suggestions_fitted_out: 5,
        results_fitted_out: MAX_BATCH_ITEMS * MAX_COUNT,
      },
    };
    expect(WebSearchResponseSchema.safeParse(skeleton).success).toBe(true);
    expect(size(skeleton)).toBeGreaterThan(MIN_MAX_RESPONSE_BYTES / 2);
    expect(size(skeleton)).toBeLessThanOrEqual(MIN_MAX_RESPONSE_BYTES);
  });
});

describe('fitResponse properties', () => {
  // Astral and other non-ASCII text (UTF-8 bytes > UTF-16 units) and plain ASCII (equal).
  const text = (min: number, max: number) =>
    fc.oneof(
      fc.string({ unit: 'binary', minLength: min, maxLength: max }),
      fc.string({ unit: 'binary-ascii', minLength: min, maxLength: max }),
    );
  const resultArb: fc.Arbitrary<WebSearchResult> = fc
    .record(
      {
        title: text(1, 120),
        path: fc.nat(10_000),
        description: text(0, 200),
        note: text(1, 200),
        age: fc.constantFrom('2 days ago', '2024-01-01'),
        extra_snippets: fc.array(text(1, 80), { minLength: 1, maxLength: 5 }),
      },
      { requiredKeys: ['title', 'path', 'description'] },
    )
    .map(({ path, ...rest }) => ({ url: `https://example.org/${path}`, ...rest }))
    .map(({ url, title, description, note, age, extra_snippets }) => {
      const r: WebSearchResult = { title, url, description };
      if (age !== undefined) r.age = age;
      if (note !== undefined) r.note = note;
      if (extra_snippets !== undefined) r.extra_snippets = extra_snippets;
      return r;
    });
  const groupArb = (id: string | number): fc.Arbitrary<ResultGroup> =>
    fc.oneof(
      fc.array(resultArb, { maxLength: 20 }).map((results) => ({ id, results })),
      fc
        .record({ code: fc.constantFrom(...GROUP_ERROR_CODES), message: text(1, 120) })
        .map((error) => ({ id, results: [], error })),
    );
  const responseArb: fc.Arbitrary<WebSearchResponse> = fc
    .uniqueArray(fc.oneof(fc.nat(99), text(1, MAX_ID_LENGTH)), {
      minLength: 1,
      maxLength: MAX_BATCH_ITEMS,
      selector: (id) => String(id),
    })
    .chain((ids) =>
      fc.record(
        {
          results: fc.tuple(...ids.map(groupArb)),
          suggestions_follow_up_requests: fc.array(text(1, 40), { minLength: 1, maxLength: 5 }),
          budget: fc.constant(zeroBudget),
        },
        { requiredKeys: ['results'] },
      ),
    )
    .map(({ results, ...rest }) => ({ results, provider: 'Fixture provider', ...rest }));
  // Ceilings spread over the response's own size, so every way fitting can end is reached.
  const caseArb = responseArb.chain((response) =>
    fc.integer({ min: 50, max: Math.ceil(size(response) * 1.1) }).map((maxBytes) => [response, maxBytes] as const),
  );

  it('yields valid JSON within both ceilings, or refuses when the skeleton cannot fit', () => {
    fc.assert(
      fc.property(caseArb, ([response, maxBytes]) => {
        let fitted: WebSearchResponse;
        try {
          fitted = fitResponse(response, maxBytes);
        } catch (error) {
          expect(error).toBeInstanceOf(ResponseTooLargeError);
          expect((error as ResponseTooLargeError).size).toBeGreaterThan(maxBytes);
          return;
        }
        const { utf16, utf8 } = serializedSize(fitted);
        expect(utf16).toBeLessThanOrEqual(maxBytes);
        expect(utf8).toBeLessThanOrEqual(maxBytes);
        const parsed = WebSearchResponseSchema.safeParse(JSON.parse(JSON.stringify(fitted)));
        expect(parsed.success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('hands back the JSON of exactly the response it fitted', () => {
    fc.assert(
      fc.property(caseArb, ([response, maxBytes]) => {
        let fitted: FittedJson;
        try {
          fitted = fitResponseJson(response, maxBytes);
        } catch (error) {
          expect(error).toBeInstanceOf(ResponseTooLargeError);
          return;
        }
        expect(fitted.json).toBe(JSON.stringify(fitted.response));
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic and leaves its input untouched', () => {
    fc.assert(
      fc.property(caseArb, ([response, maxBytes]) => {
        const before = structuredClone(response);
        const run = () => {
          try {
            return fitResponse(structuredClone(response), maxBytes);
          } catch (error) {
            return (error as Error).name;
          }
        };
        const first = run();
        expect(run()).toEqual(first);
        try {
          fitResponse(response, maxBytes);
        } catch {}
        expect(response).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });

  it('never drops a group, its id or its error, and cuts in order: notes, suggestions, excerpts, results from the end', () => {
    // Each way fitting can end is exercised, so the property is not vacuous.
    const seen = { refused: 0, untouched: 0, notesOrSuggestions: 0, results: 0 };
    fc.assert(
      fc.property(caseArb, ([response, maxBytes]) => {
        let fitted: WebSearchResponse;
        try {
          fitted = fitResponse(response, maxBytes);
        } catch {
          seen.refused += 1;
          return;
        }
        expect(fitted.results.map((g) => [g.id, g.error])).toEqual(response.results.map((g) => [g.id, g.error]));
        const kept = fitted.results.map((g) => g.results.length);
        const had = response.results.map((g) => g.results.length);
        const cut = had.map((n, i) => n - (kept[i] ?? 0));
        const resultsCut = cut.reduce((a, b) => a + b, 0);
        // Results are a prefix of the originals (notes aside), and a group loses results only once
        // every later group is empty.
        fitted.results.forEach((group, i) => {
          const original = response.results[i]?.results ?? [];
          expect(group.results.map((r) => r.url)).toEqual(original.slice(0, group.results.length).map((r) => r.url));
          expect(group.results_fitted_out).toBe(cut[i] === 0 ? undefined : cut[i]);
          if ((cut[i] ?? 0) > 0) for (const later of kept.slice(i + 1)) expect(later).toBe(0);
        });
        const notesBefore = response.results.flatMap((g) => g.results).filter((r) => r.note).length;
        const notesAfter = fitted.results.flatMap((g) => g.results).filter((r) => r.note).length;
        const suggestionsCut =
          (response.suggestions_follow_up_requests?.length ?? 0) - (fitted.suggestions_follow_up_requests?.length ?? 0);
        const excerpts = (r: WebSearchResponse) =>
          r.results.flatMap((g) => g.results).reduce((n, result) => n + (result.extra_snippets?.length ?? 0), 0);
        const excerptsCut = excerpts(response) - excerpts(fitted);
        if (suggestionsCut > 0 || resultsCut > 0) expect(notesAfter).toBe(0);
        if (excerptsCut > 0) {
          expect(notesAfter).toBe(0);
          expect(fitted.suggestions_follow_up_requests).toBeUndefined();
        }
        if (resultsCut > 0) {
          expect(fitted.suggestions_follow_up_requests).toBeUndefined();
          expect(excerpts(fitted)).toBe(0);
        }
        // Excerpts go a result at a time: a kept result has all of its own or none.
        fitted.results.forEach((group, i) => {
          group.results.forEach((kept, r) => {
            const snippets = kept.extra_snippets;
            if (snippets !== undefined) expect(snippets).toEqual(response.results[i]?.results[r]?.extra_snippets);
          });
        });
        if (fitted.budget && fitted !== response)
          expect(fitted.budget.extra_snippets_fitted_out).toBe(
            resultsCut > 0 ? excerpts(response) || undefined : excerptsCut || undefined,
          );
        if (fitted.budget)
          expect(fitted.budget).toMatchObject({
            results_fitted_out: resultsCut,
            suggestions_fitted_out: suggestionsCut,
          });
        if (fitted.budget && resultsCut === 0) expect(fitted.budget.notes_fitted_out).toBe(notesBefore - notesAfter);
        if (fitted === response) seen.untouched += 1;
        else if (resultsCut > 0) seen.results += 1;
        else seen.notesOrSuggestions += 1;
      }),
      { numRuns: 300 },
    );
    for (const count of Object.values(seen)) expect(count).toBeGreaterThan(0);
  });
});
