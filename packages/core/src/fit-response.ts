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

/** Remembered JSON, with its UTF-8 bytes once an answer has been written from it. */
interface Known {
  readonly json: string;
  utf8?: Buffer;
}

/**
 * The JSON of results, and of arrays of them, that can no longer change (the in-process cache's
 * frozen entries), written the first time a response holds them; null for one not written yet.
 */
const knownJson = new WeakMap<object, Known | null>();

/** A search's own array of results that holds a remembered array's results whole, in order: → that array. */
const wholeCopies = new WeakMap<object, readonly WebSearchResult[]>();

/**
 * Remembers `value`, a result or an array of results, which must be frozen all the way down: the
 * first response holding it keeps its JSON, and later ones take that JSON, and its bytes, instead
 * of serializing and encoding it again (a cache hit's results, on every hit). A cache miss, which
 * serializes its own fresh results, pays nothing for it.
 */
export function rememberJson(value: Readonly<WebSearchResult> | readonly WebSearchResult[]): void {
  knownJson.set(value, null);
}

/**
 * Tells fitting that `copy` holds every result of the remembered array `of`, in order (a hit
 * admitted whole), so that its JSON is `of`'s: a hit's group does not serialize its results again.
 */
export function copiedWhole(copy: readonly WebSearchResult[], of: readonly WebSearchResult[]): void {
  if (knownJson.has(of)) wholeCopies.set(copy, of);
}

/** `value`'s remembered JSON (written now if it is not yet), or, for a value not remembered, `serialize()`. */
function rememberedJson(value: object, serialize: () => string): string | Known {
  const known = knownJson.get(value);
  if (known === undefined) return serialize();
  if (known !== null) return known;
  const made: Known = { json: serialize() };
  knownJson.set(value, made);
  return made;
}

const textOf = (piece: string | Known) => (typeof piece === 'string' ? piece : piece.json);

/** The pieces' text joined: as a rope V8 flattens only if it is ever read whole. */
function textOfAll(pieces: readonly (string | Known)[]): string {
  let text = '';
  for (const piece of pieces) text += textOf(piece);
  return text;
}

/** A piece's UTF-8 bytes: a remembered one's encoded once and kept. */
function bytesOf(piece: string | Known): Buffer {
  if (typeof piece === 'string') return Buffer.from(piece);
  piece.utf8 ??= Buffer.from(piece.json);
  return piece.utf8;
}

/** A piece's size in UTF-8 bytes. */
const sizeOf = (piece: string | Known) =>
  typeof piece === 'string' ? Buffer.byteLength(piece) : bytesOf(piece).length;

const jsonOf = (result: WebSearchResult) => rememberedJson(result, () => JSON.stringify(result));

/**
 * A response's JSON as it is written: text serialized now, and remembered JSON between, kept
 * apart so that an answer takes the remembered JSON's bytes instead of encoding it again.
 */
class Pieces {
  readonly #pieces: (string | Known)[] = [];
  #text = '';

  add(piece: string | Known): void {
    if (typeof piece === 'string') this.#text += piece;
    else {
      this.#endText();
      this.#pieces.push(piece);
    }
  }

  done(): (string | Known)[] {
    this.#endText();
    return this.#pieces;
  }

  #endText(): void {
    if (this.#text !== '') this.#pieces.push(this.#text);
    this.#text = '';
  }
}

/** The key whose value fitting writes itself: an array of groups, or of a group's results. */
const isResults = (key: string, value: unknown): value is readonly object[] =>
  key === 'results' && Array.isArray(value);

/**
 * Adds `JSON.stringify(object)` for a plain data object, with the value of `results` written by
 * `results`; a property serializing to nothing is left out, as JSON.stringify leaves it out.
 */
function addObject(out: Pieces, object: object, results: (out: Pieces, value: readonly object[]) => void): void {
  let first = true;
  out.add('{');
  for (const key of Object.keys(object)) {
    const value = (object as Record<string, unknown>)[key];
    const head = `${first ? '' : ','}${JSON.stringify(key)}:`;
    if (isResults(key, value)) {
      out.add(head);
      results(out, value);
    } else {
      const json = JSON.stringify(value);
      if (json === undefined) continue;
      out.add(`${head}${json}`);
    }
    first = false;
  }
  out.add('}');
}

function addArray<T>(out: Pieces, items: readonly T[], add: (out: Pieces, item: T) => void): void {
  out.add('[');
  items.forEach((item, i) => {
    if (i > 0) out.add(',');
    add(out, item);
  });
  out.add(']');
}

/** A group's results: the remembered array's JSON when the group holds one whole, else each result's. */
function addResults(out: Pieces, results: readonly object[]): void {
  const whole = wholeCopies.get(results);
  if (whole === undefined) addArray(out, results as readonly WebSearchResult[], (o, result) => o.add(jsonOf(result)));
  else out.add(rememberedJson(whole, () => `[${whole.map((result) => textOf(jsonOf(result))).join(',')}]`));
}

const addGroups = (out: Pieces, groups: readonly object[]) =>
  addArray(out, groups, (o, group) => addObject(o, group, addResults));

/** The pieces of `JSON.stringify(response)`, or undefined when none of its results is remembered. */
function piecesOf(response: WebSearchResponse): (string | Known)[] | undefined {
  const known = response.results.some(
    (group) => wholeCopies.has(group.results) || group.results.some((result) => knownJson.has(result)),
  );
  if (!known) return undefined;
  const out = new Pieces();
  addObject(out, response, addGroups);
  return out.done();
}

/**
 * `JSON.stringify(response)`, byte for byte, taking the remembered JSON of the results that are
 * remembered; when none is, JSON.stringify itself.
 */
export function responseJson(response: WebSearchResponse): string {
  return serialized(response).json;
}

/** A response's JSON: its text, and its pieces when it holds remembered JSON. */
interface Measured {
  json: string;
  pieces?: (string | Known)[] | undefined;
}

function serialized(response: WebSearchResponse): Measured {
  const pieces = piecesOf(response);
  return pieces === undefined ? { json: JSON.stringify(response) } : { json: textOfAll(pieces), pieces };
}

/** `response`'s JSON when it fits under `maxBytes` (UTF-16 units and UTF-8 bytes), else undefined. */
function fittingJson(response: WebSearchResponse, maxBytes: number): Measured | undefined {
  const { json, pieces } = serialized(response);
  if (json.length > maxBytes) return undefined;
  // A UTF-16 unit encodes to at most 3 UTF-8 bytes: under a third of the ceiling, counting is moot.
  if (json.length * 3 <= maxBytes) return { json, pieces };
  const size = pieces === undefined ? Buffer.byteLength(json, 'utf8') : pieces.reduce((n, p) => n + sizeOf(p), 0);
  return size <= maxBytes ? { json, pieces } : undefined;
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

/**
 * Fits a response under `maxBytes`, counted both as UTF-8 bytes and as UTF-16 units of its JSON
 * (the larger of the two counts). Pure and deterministic. When it is over, it removes, one at a
 * time and in this order, until it fits: generated notes (last group first, last result first), follow-up
 * suggestions (from the end), page excerpts (a result's `extra_snippets` at a time, in the order of
 * notes), then results from the end of the last groups. It never removes a group, its id or its
 * error. Each removal is counted in the group's `results_fitted_out` and in `budget` when the
 * response carries one (`extra_snippets_fitted_out` counts the excerpts, not the results). Returns `response` itself when it already fits; throws
 * ResponseTooLargeError when even the skeleton (no results, notes or suggestions) does not fit.
 */
export function fitResponse(response: WebSearchResponse, maxBytes: number): WebSearchResponse {
  return fitted(response, maxBytes).response;
}

/** A fitted response, its `JSON.stringify`, and that JSON's UTF-8 bytes when it holds remembered JSON. */
export interface FittedJson {
  response: WebSearchResponse;
  json: string;
  /** The UTF-8 bytes of `json`, made from the remembered JSON's own (a cache hit's): absent for fresh results. */
  utf8?: Uint8Array;
}

function fittedOf(response: WebSearchResponse, { json, pieces }: Measured): FittedJson {
  if (pieces === undefined) return { response, json };
  return { response, json, utf8: Buffer.concat(pieces.map(bytesOf)) };
}

/**
 * `fitResponse`, also returning the fitted response's `JSON.stringify`, which fitting measured
 * anyway: a caller that sends it (the server) does not serialize the response a second time.
 */
export function fitResponseJson(response: WebSearchResponse, maxBytes: number): FittedJson {
  const { response: fit, measured } = fitted(response, maxBytes);
  return fittedOf(fit, measured);
}

/** The fitted response and its JSON as measured (its UTF-8 bytes not made: only a sender needs them). */
function fitted(response: WebSearchResponse, maxBytes: number): { response: WebSearchResponse; measured: Measured } {
  const whole = fittingJson(response, maxBytes);
  if (whole !== undefined) return { response, measured: whole };
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
  let best = { response: skeleton, measured: skeletonJson };
  while (under - over > 1) {
    const mid = Math.floor((over + under) / 2);
    const candidate = afterSteps(response, plan, mid);
    const measured = fittingJson(candidate, maxBytes);
    if (measured === undefined) over = mid;
    else {
      under = mid;
      best = { response: candidate, measured };
    }
  }
  return best;
}
