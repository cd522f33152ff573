/**
 * Text rules shared by queries (cleaned on the way in) and provider text (sanitized on the way
 * out). Lengths are in Unicode code points.
 */

/** Whitespace, including line breaks, no-break spaces and every other space separator. */
const WHITESPACE = /[\t\n\v\f\r\u0085\u2028\u2029\p{Zs}]+/gu;
/**
 * Invisible and format characters: C0/C1 controls, format characters (zero-width space and
 * joiners, bidi embeddings, overrides and isolates, word joiner, BOM, soft hyphen, Unicode tag
 * characters), the Hangul fillers that render as nothing, and the whole Tags block: its
 * unassigned code points (U+E0000, U+E0002–E001F) are not Cf yet render as nothing all the same.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\u115F\u1160\u3164\uFFA0\u{E0000}-\u{E007F}]/gu;

// Without the `g` flag `test` keeps no state between calls, so one instance serves every call.
const HAS_INVISIBLE = new RegExp(INVISIBLE.source, 'u');

/** True when `text` holds a character that `cleanText` would remove. */
export function hasInvisible(text: string): boolean {
  return HAS_INVISIBLE.test(text);
}

/**
 * Removes invisible and format characters, turns every run of whitespace into one space and trims.
 * Whitespace becomes a space before invisible characters are removed, so `a\nb` reads `a b`.
 */
export function cleanText(text: string): string {
  return text.replace(WHITESPACE, ' ').replace(INVISIBLE, '').replace(/ {2,}/g, ' ').trim();
}

/** Length in Unicode code points (an emoji outside the BMP counts once). */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}
