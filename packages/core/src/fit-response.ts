import { Buffer } from 'node:buffer';
import type { ResultGroup, WebSearchResponse, WebSearchResult } from '@openmates/contract';

/**
 * Even the response without any result, note or suggestion is over the ceiling. The engine's
 * configuration makes this impossible (see MIN_MAX_RESPONSE_BYTES), so reaching it is a bug.
 */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  /** The skeleton's serialized size (the larger of UTF-8 bytes and UTF-16 units). */
  readonly size: number;
  readonly maxBytes: number;
  constructor(size: number, maxBytes: number) {
    super(`The response without results needs ${size} bytes, over the ceiling of ${maxBytes}.`);
    this.size = size;
    this.maxBytes = maxBytes;
  }
}

/** The serialized size of `value`: `JSON.stringify` in UTF-16 units and in UTF-8 bytes. */
export function serializedSize(value: unknown): { utf16: number; utf8: number } {
  const json = JSON.stringify(value);
  return { utf16: json.length, utf8: Buffer.byteLength(json, 'utf8') };
}

/** `response`'s JSON when it fits under `maxBytes` (UTF-16 units and UTF-8 bytes), else undefined. */
function fittingJson(response: WebSearchResponse, maxBytes: number): string | undefined {
  const json = JSON.stringify(response);
  if (json.length > maxBytes) return undefined;
  // A UTF-16 unit encodes to at most 3 UTF-8 bytes: under a third of the ceiling, counting is moot.
  if (json.length * 3 <= maxBytes) return json;
  return Buffer.byteLength(json, 'utf8') <= maxBytes ? json : undefined;
}

/** The removals fitting may make, in the order it makes them. */
interface Plan {
  /** Results carrying a note, as [group, result] positions: last group first, last result first. */
  notes: [number, number][];
  suggestions: number;
  /** Results carrying page excerpts, as [group, result, how many] in the order of `notes`. */
  snippets: [number, number, number][];
  results: number;
}

function planOf(response: WebSearchResponse): Plan {
  const notes: [number, number][] = [];
  const snippets: [number, number, number][] = [];
  for (let g = response.results.length - 1; g >= 0; g -= 1) {
    const results = response.results[g]?.results ?? [];
    for (let r = results.length - 1; r >= 0; r -= 1) {
      const result = results[r];
      if (result?.note !== undefined) notes.push([g, r]);
      if (result?.extra_snippets !== undefined) snippets.push([g, r, result.extra_snippets.length]);
    }
  }
  return {
    notes,
    suggestions: response.suggestions_follow_up_requests?.length ?? 0,
    snippets,
    results: response.results.reduce((n, group) => n + group.results.length, 0),
  };
}

const stepsOf = (plan: Plan) => plan.notes.length + plan.suggestions + plan.snippets.length + plan.results;

function without(result: WebSearchResult, note: boolean, snippets: boolean): WebSearchResult {
  const { note: _note, extra_snippets: _snippets, ...rest } = result;
  const kept: WebSearchResult = rest;
  if (!note && result.note !== undefined) kept.note = result.note;
  if (!snippets && result.extra_snippets !== undefined) kept.extra_snippets = result.extra_snippets;
  return kept;
}

/** The response after the first `steps` removals of `plan`, with the removals reported. */
function afterSteps(response: WebSearchResponse, plan: Plan, steps: number): WebSearchResponse {
  const clamp = (before: number, most: number) => Math.min(Math.max(steps - before, 0), most);
  const notesGone = plan.notes.slice(0, steps);
  const suggestionsGone = clamp(plan.notes.length, plan.suggestions);
  const snippetsGone = plan.snippets.slice(0, clamp(plan.notes.length + plan.suggestions, plan.snippets.length));
  let resultsGone = clamp(plan.notes.length + plan.suggestions + plan.snippets.length, plan.results);
  const resultsCut = resultsGone;

  const noteless = new Set(notesGone.map(([g, r]) => `${g}:${r}`));
  const snippetless = new Set(snippetsGone.map(([g, r]) => `${g}:${r}`));
  const groups: ResultGroup[] = new Array(response.results.length);
  for (let g = response.results.length - 1; g >= 0; g -= 1) {
    const group = response.results[g] as ResultGroup;
    const cut = Math.min(resultsGone, group.results.length);
    resultsGone -= cut;
    const results = group.results.slice(0, group.results.length - cut).map((result, r) => {
      const note = noteless.has(`${g}:${r}`);
      const snippets = snippetless.has(`${g}:${r}`);
      return note || snippets ? without(result, note, snippets) : result;
    });
    groups[g] =
      cut > 0
        ? { ...group, results, results_fitted_out: (group.results_fitted_out ?? 0) + cut }
        : { ...group, results };
  }

  const fitted: WebSearchResponse = { ...response, results: groups };
  const suggestions = response.suggestions_follow_up_requests;
  if (suggestions !== undefined && suggestionsGone > 0) {
    if (suggestionsGone < suggestions.length)
      fitted.suggestions_follow_up_requests = suggestions.slice(0, suggestions.length - suggestionsGone);
    else delete fitted.suggestions_follow_up_requests;
  }
  if (response.budget) {
    const excerpts = snippetsGone.reduce((n, [, , count]) => n + count, 0);
    fitted.budget = {
      ...response.budget,
      notes_fitted_out: response.budget.notes_fitted_out + notesGone.length,
      suggestions_fitted_out: response.budget.suggestions_fitted_out + suggestionsGone,
      results_fitted_out: response.budget.results_fitted_out + resultsCut,
    };
    const fittedOut = (response.budget.extra_snippets_fitted_out ?? 0) + excerpts;
    if (fittedOut > 0) fitted.budget.extra_snippets_fitted_out = fittedOut;
  }
  return fitted;
}

/** A fitted response and its `JSON.stringify`. */
export interface FittedJson {
  response: WebSearchResponse;
  json: string;
}

/**
 * Fits a response under `maxBytes`, counted both as UTF-8 bytes and as UTF-16 units of its JSON
 * (the larger of the two counts): serialize, measure, cut. Pure and deterministic. When it is over,
 * it removes, one at a time and in this order, until it fits: generated notes (last group first,
 * last result first), follow-up suggestions (from the end), page excerpts (a result's
 * `extra_snippets` at a time, in the order of notes), then results from the end of the last groups.
 * It never removes a group, its id or its error. Each removal is counted in the group's
 * `results_fitted_out` and in `budget` when the response carries one (`extra_snippets_fitted_out`
 * counts the excerpts, not the results). Returns `response` itself when it already fits, with the
 * JSON it measured, so a sender does not serialize the response again; throws
 * ResponseTooLargeError when even the skeleton (no results, notes or suggestions) does not fit.
 */
export function fitResponseJson(response: WebSearchResponse, maxBytes: number): FittedJson {
  const whole = fittingJson(response, maxBytes);
  if (whole !== undefined) return { response, json: whole };
  const plan = planOf(response);
  const total = stepsOf(plan);
  const skeleton = afterSteps(response, plan, total);
  const skeletonJson = fittingJson(skeleton, maxBytes);
  if (skeletonJson === undefined) {
    const { utf16, utf8 } = serializedSize(skeleton);
    throw new ResponseTooLargeError(Math.max(utf16, utf8), maxBytes);
  }
  // Every removal frees more bytes than its report adds (a note frees at least 11 and a counter
  // grows by at most one digit; a result frees at least 47 and its group's report adds at most 23;
  // a result's excerpts free at least 22, and only the first adds its counter, about 30),
  // so the size falls as steps grow and bisection finds the fewest removals that fit in a handful of
  // serializations. Whatever the sizes do, the answer is one that was measured to fit.
  let over = 0;
  let under = total;
  let best: FittedJson = { response: skeleton, json: skeletonJson };
  while (under - over > 1) {
    const mid = Math.floor((over + under) / 2);
    const candidate = afterSteps(response, plan, mid);
    const json = fittingJson(candidate, maxBytes);
    if (json === undefined) over = mid;
    else {
      under = mid;
      best = { response: candidate, json };
    }
  }
  return best;
}
