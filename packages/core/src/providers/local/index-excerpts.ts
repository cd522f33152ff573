import { MAX_EXTRA_SNIPPET_LENGTH } from '@openmates/contract';
import { words } from './split-identifiers.ts';

/** Most excerpts cut from one document. */
export const MAX_LOCAL_EXCERPTS = 3;
/** Characters of a body read for its excerpts and for the order of named documents (a match further in is not seen). */
export const EXCERPT_BODY_CHARS = 20_000;

/** The query's distinct words, lowercase: what an excerpt must hold one of. */
export function queryTerms(query: string): string[] {
  return [...new Set(words(query.toLowerCase()))];
}

/**
 * How many of `text`'s words are a query word or begin with one (`elements` holds `element`,
 * `AbortController` holds `abort`): the tokenizer's stemming, roughly, without a stemmer.
 */
export function termOccurrences(text: string, terms: readonly string[]): number {
  if (terms.length === 0) return 0;
  let count = 0;
  for (const word of words(text.toLowerCase())) if (terms.some((term) => word.startsWith(term))) count += 1;
  return count;
}

/** The distinct query words that `text` holds (see `termOccurrences`). */
function distinctTerms(text: string, terms: readonly string[]): number {
  const own = words(text.toLowerCase());
  return terms.filter((term) => own.some((word) => word.startsWith(term))).length;
}

/** The body's segments: its lines, and a line longer than an excerpt cut into its sentences. */
function segments(body: string): string[] {
  const out: string[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (line === '') continue;
    if ([...line].length <= MAX_EXTRA_SNIPPET_LENGTH) out.push(line);
    else for (const sentence of line.split(/(?<=[.!?])\s+/)) if (sentence !== '') out.push(sentence);
  }
  return out;
}

/**
 * `segment` in at most MAX_EXTRA_SNIPPET_LENGTH code points: whole when it fits, else a window that
 * starts a little before its first query word, with `…` where text was cut.
 */
function window(segment: string, terms: readonly string[]): string {
  const chars = [...segment];
  if (chars.length <= MAX_EXTRA_SNIPPET_LENGTH) return segment;
  const lower = segment.toLowerCase();
  const firstAt = Math.min(...terms.map((term) => lower.indexOf(term)).filter((at) => at >= 0));
  // `indexOf` counts UTF-16 units; the window is cut in code points.
  const first = Number.isFinite(firstAt) ? [...segment.slice(0, firstAt)].length : 0;
  const budget = MAX_EXTRA_SNIPPET_LENGTH - 2;
  const start = Math.max(0, Math.min(first - 40, chars.length - budget));
  const end = Math.min(chars.length, start + budget);
  return `${start > 0 ? '…' : ''}${chars.slice(start, end).join('').trim()}${end < chars.length ? '…' : ''}`;
}

/**
 * True when `segment` says what the description (lowercase) says: one holds the other, or the
 * description holds what follows the segment's label (`elements dialog: The dialog element…`).
 */
function repeats(segment: string, description: string): boolean {
  if (description === '') return false;
  const lower = segment.toLowerCase();
  const colon = lower.indexOf(': ');
  const labelled = colon < 0 ? '' : lower.slice(colon + 2);
  return (
    description.includes(lower) || lower.includes(description) || (labelled !== '' && description.includes(labelled))
  );
}

/**
 * Up to MAX_LOCAL_EXCERPTS excerpts of `body` around the query's words: the segments (lines or
 * sentences) holding most of the query's distinct words first, then most occurrences, then in
 * body order. A segment the description holds, or that holds the description, adds nothing and is
 * skipped; so are repeats.
 */
export function excerptsOf(body: string, terms: readonly string[], description: string): string[] {
  if (terms.length === 0) return [];
  const plainDescription = description.replace(/\s+/g, ' ').trim().toLowerCase();
  const scored = segments(body)
    .map((text, position) => ({
      text,
      position,
      distinct: distinctTerms(text, terms),
      occurrences: termOccurrences(text, terms),
    }))
    .filter(({ text, distinct }) => distinct > 0 && !repeats(text, plainDescription))
    .sort((a, b) => b.distinct - a.distinct || b.occurrences - a.occurrences || a.position - b.position);
  const excerpts: string[] = [];
  for (const { text } of scored) {
    const excerpt = window(text, terms);
    if (excerpts.includes(excerpt)) continue;
    excerpts.push(excerpt);
    if (excerpts.length === MAX_LOCAL_EXCERPTS) break;
  }
  return excerpts;
}
