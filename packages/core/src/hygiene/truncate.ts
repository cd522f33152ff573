import { codePointLength } from '@openmates/contract';

/** The mark appended to text that was cut; it counts towards the bound. */
export const ELLIPSIS = '\u2026';

// Made on the first cut, not at import: building a segmenter loads ICU data, which a cold
// CLI start would pay for, and most texts fit without one.
let graphemes: Intl.Segmenter | undefined;
const TRAILING_JOINERS = /[\u200C\u200D]+$/;

/**
 * Bounds `text` to `maxCodePoints` code points, cutting only between graphemes (never inside a
 * surrogate pair, an emoji sequence or a letter with its combining marks), trimming, and ending a
 * cut text with `…`, which the bound includes. Text that fits is only trimmed.
 */
export function truncate(text: string, maxCodePoints: number): string {
  const max = Math.max(0, Math.floor(maxCodePoints));
  const trimmed = text.trim();
  if (fitsIn(trimmed, max)) return trimmed;
  if (max === 0) return '';
  // One code point is reserved for the ellipsis.
  const budget = max - 1;
  let kept = '';
  let used = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(trimmed)) {
    const size = codePointLength(segment);
    if (used + size > budget) {
      // A single grapheme longer than the whole budget (a letter under hundreds of combining
      // marks) would leave nothing: keep its first code points rather than an empty title.
      if (used === 0) kept = Array.from(segment).slice(0, budget).join('');
      break;
    }
    kept += segment;
    used += size;
  }
  // A joiner left at the cut joins nothing to the ellipsis, so it goes as cleaning would take it.
  return `${kept.replace(TRAILING_JOINERS, '').trimEnd()}${ELLIPSIS}`;
}

/** Whether `text` has at most `max` code points, without counting past `max`. */
function fitsIn(text: string, max: number): boolean {
  // A UTF-16 string of n units has at least n/2 code points.
  if (text.length <= max) return true;
  if (text.length > 2 * max) return false;
  return codePointLength(text) <= max;
}
