import { MAX_DESCRIPTION_LENGTH } from '@openmates/contract';

/** A span of an answer's text in code points, `[start, end)`, as the API's annotations count. */
export type CodePointSpan = readonly [start: number, end: number];

// A markdown link, its URL allowing one level of parentheses (`/wiki/Foo_(bar)`); group 1 holds the
// whole `([label](url))` when the link stands in parentheses of its own, as OpenAI writes citations.
const LINK = /\((\[[^\]\n]*\]\((?:[^()\s]|\([^()\s]*\))*\))\)|\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*\)/g;

// Abbreviations before a capitalized word, after which Intl.Segmenter ends a sentence although the
// sentence goes on: V8's segmenter has no suppression list, so "Dr. Smith" or "Warner Bros.
// Discovery" would otherwise be cut in two. Initials (`J. R. R.`, `U.S.`) count as well.
const ABBREVIATION =
  /(?:^|[\s(.])(?:[A-Z]|Dr|Mr|Mrs|Ms|Prof|Gen|Gov|Sen|Rep|St|Mt|Sr|Jr|Bros|Inc|Corp|Co|Ltd|vs|cf|ca|approx|e\.g|i\.e)\.$/;

let segmenter: Intl.Segmenter | undefined;

/**
 * Which UTF-16 units of `text` are no sentence's words: every citation span, every markdown link
 * written as a citation (`([label](url))`), and a bare link's brackets and URL (its label stays).
 */
function removedUnits(text: string, spans: readonly (readonly [number, number])[]): Uint8Array {
  const removed = new Uint8Array(text.length);
  for (const [from, to] of spans) removed.fill(1, from, to);
  for (const match of text.matchAll(LINK)) {
    const at = match.index;
    if (match[1] !== undefined || removed.subarray(at, at + match[0].length).includes(1)) {
      removed.fill(1, at, at + match[0].length);
    } else {
      // A bare link inside the prose: `[Node.js](…)` reads as "Node.js".
      const label = match[2] ?? '';
      removed[at] = 1;
      removed.fill(1, at + 1 + label.length, at + match[0].length);
    }
  }
  return removed;
}

/** The sentences of `masked` as `[start, end)` UTF-16 ranges, a sentence cut after an abbreviation joined again. */
function sentencesOf(masked: string): [number, number][] {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  const sentences: [number, number][] = [];
  for (const { segment, index } of segmenter.segment(masked)) {
    const last = sentences.at(-1);
    if (
      last !== undefined &&
      ABBREVIATION.test(masked.slice(last[0], last[1]).trimEnd()) &&
      !/\n/.test(masked.slice(last[0], last[1]))
    )
      last[1] = index + segment.length;
    else sentences.push([index, index + segment.length]);
  }
  return sentences;
}

/** The words of `text[from, to)` that are no citation, as one clean line of prose (markdown marks removed). */
function prose(text: string, removed: Uint8Array, from: number, to: number): string {
  let kept = '';
  for (let i = from; i < to; i += 1) kept += removed[i] === 1 ? ' ' : text[i];
  return kept
    .replace(/^\s*(?:#{1,6}\s+|>\s*|(?:[-*+•]|\d{1,3}[.)])\s+)+/, '')
    .replace(/\*\*|__/g, '')
    .replace(/\(\s*[,;]?\s*\)/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim();
}

// No word: punctuation or a fragment such as `*.` the segmenter split off after a dotted name.
const isEmpty = (note: string) => !/[\p{L}\p{N}]/u.test(note);

/**
 * The sentence of an answer that a citation closes, without any citation's own span (ADR 0098):
 * the sentence the citation stands in, or, for a citation written after a sentence's full stop
 * (`…highest point. ([britannica.com](…))`) or alone on its line, the sentence before it. Sentences
 * are Intl.Segmenter's (so decimals and `Node.js` do not end one), with every citation and link
 * URL masked first; `others` are the answer's other citation spans. Indices count code points.
 * Undefined when the indices do not fit the text or no words are left; at most
 * `MAX_DESCRIPTION_LENGTH` code points.
 */
export function citationNote(
  text: string | undefined,
  start: unknown,
  end: unknown,
  others: readonly CodePointSpan[] = [],
): string | undefined {
  if (text === undefined || !Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return undefined;
  const units = [0];
  for (const char of text) units.push((units.at(-1) ?? 0) + char.length);
  const unit = (codePoint: number) => units[codePoint];
  const from = start as number;
  const to = end as number;
  if (from < 0 || to < from || to >= units.length) return undefined;
  const spans = [[from, to], ...others.filter(([a, b]) => a >= 0 && b >= a && b < units.length)].map(
    ([a, b]) => [unit(a) ?? 0, unit(b) ?? 0] as const,
  );
  const removed = removedUnits(text, spans);
  let masked = '';
  for (let i = 0; i < text.length; i += 1) masked += removed[i] === 1 ? ' ' : text[i];
  const sentences = sentencesOf(masked);
  const at = unit(from) ?? 0;
  let index = sentences.findIndex(([a, b]) => a <= at && at < b);
  if (index === -1) index = sentences.length - 1;
  for (const candidate of [index, index - 1]) {
    const sentence = sentences[candidate];
    if (sentence === undefined) continue;
    const note = prose(text, removed, sentence[0], sentence[1]);
    if (!isEmpty(note)) return Array.from(note).slice(0, MAX_DESCRIPTION_LENGTH).join('');
  }
  return undefined;
}
