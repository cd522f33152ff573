/**
 * Text rules shared by queries (cleaned on the way in) and provider text (sanitized on the way
 * out). Lengths are in Unicode code points.
 */
import { JOINS_BACKWARD, JOINS_FORWARD, VIRAMA } from './generated/joiners.ts';

/**
 * Invisible and format characters: C0/C1 controls, format characters (zero-width space, bidi
 * embeddings, overrides and isolates, word joiner, BOM, soft hyphen, Unicode tag characters), the
 * Hangul fillers that render as nothing, and the whole Tags block: its unassigned code points
 * (U+E0000, U+E0002–E001F) are not Cf yet render as nothing all the same. The two joiners (ZWNJ
 * U+200C, ZWJ U+200D) are format characters too, but words and emoji need them: see `strayJoiner`.
 */
const INVISIBLE_SOURCE = '\\p{Cc}\\p{Cf}\\u115F\\u1160\\u3164\\uFFA0\\u{E0000}-\\u{E007F}';

/** The patterns `cleanText` and `hasInvisible` run on, for text of one alphabet or another. */
export interface TextPatterns {
  /** Whitespace, including line breaks, no-break spaces and every other space separator. */
  readonly whitespace: RegExp;
  /** An invisible character, the joiners aside (see `strayJoiner`). */
  readonly invisible: RegExp;
  /** An invisible character, joiners included; without the `g` flag, `test` keeps no state between calls. */
  readonly anyInvisible: RegExp;
}

let unicodeText: TextPatterns | undefined;

/**
 * The patterns for any text, by Unicode property. Built on first use: V8 parses a pattern when it
 * creates it, and a property class costs a fraction of a millisecond to parse and as much again to
 * compile, on every start of a process that loads this module.
 */
export function unicodeTextPatterns(): TextPatterns {
  unicodeText ??= {
    whitespace: /[\t\n\v\f\r\u0085\u2028\u2029\p{Zs}]+/gu,
    // The `u` flag with a lookahead rather than the `v` flag's class subtraction: older browsers load this too.
    invisible: new RegExp(`(?![\\u200C\\u200D])[${INVISIBLE_SOURCE}]`, 'gu'),
    anyInvisible: new RegExp(`[${INVISIBLE_SOURCE}]`, 'u'),
  };
  return unicodeText;
}

/**
 * The same patterns for text that is all ASCII, as most queries and URLs are: each class reduced to
 * its ASCII members (the controls are the only invisible characters, the space the only space
 * separator). A test holds both to the same answers on ASCII text.
 */
export const ASCII_TEXT_PATTERNS: TextPatterns = {
  whitespace: /[\t\n\v\f\r ]+/g,
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it finds
  invisible: /[\u0000-\u001F\u007F]/g,
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it finds
  anyInvisible: /[\u0000-\u001F\u007F]/,
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII starts with the controls
const ASCII = /^[\u0000-\u007F]*$/;

/** True when every character of `text` is ASCII. */
export function isAscii(text: string): boolean {
  return ASCII.test(text);
}

/**
 * A joiner that neither of its uses needs, so it is removed like any other format character (ADR
 * 0004). Kept: ZWJ inside an emoji ZWJ sequence (UTS #51: a pictograph, with its presentation
 * selector or skin-tone modifier, joined to the next pictograph, e.g. 👩‍💻); ZWJ or ZWNJ right after
 * a virama (RFC 5892 CONTEXTJ, e.g. Devanagari half forms); ZWNJ between a letter that joins forward
 * and one that joins backward, marks allowed between (CONTEXTJ, e.g. Persian می‌خواهم). The letter
 * and virama classes are generated from Unicode's data (`generated/joiners.ts`).
 */
const strayJoiner = () =>
  new RegExp(
    `(?!(?<=${VIRAMA})[\\u200C\\u200D]` +
      '|(?<=\\p{Extended_Pictographic}[\\uFE0F\\p{Emoji_Modifier}]?)\\u200D(?=\\p{Extended_Pictographic})' +
      `|(?<=${JOINS_FORWARD}[\\p{Mn}\\p{Me}]*)\\u200C(?=[\\p{Mn}\\p{Me}]*${JOINS_BACKWARD}))[\\u200C\\u200D]`,
    'gu',
  );
// Built on the first joiner: most text has none, and the classes are long.
let STRAY_JOINER: RegExp | undefined;

/** True when `text` holds an invisible or format character, a joiner included (a URL keeps none). */
export function hasInvisible(text: string): boolean {
  return (isAscii(text) ? ASCII_TEXT_PATTERNS : unicodeTextPatterns()).anyInvisible.test(text);
}

/**
 * Removes invisible and format characters (joiners where they join nothing, see `strayJoiner`),
 * turns every run of whitespace into one space and trims. Whitespace becomes a space before
 * invisible characters are removed, so `a\nb` reads `a b`; joiners are judged once the other
 * invisible characters are gone, so cleaning twice changes nothing.
 */
export function cleanText(text: string): string {
  return cleanTextWith(isAscii(text) ? ASCII_TEXT_PATTERNS : unicodeTextPatterns(), text);
}

/** `cleanText` with the patterns given (`ASCII_TEXT_PATTERNS` only for ASCII text). */
export function cleanTextWith(patterns: TextPatterns, text: string): string {
  let out = text.replace(patterns.whitespace, ' ').replace(patterns.invisible, '');
  if (out.includes('\u200C') || out.includes('\u200D')) {
    STRAY_JOINER ??= strayJoiner();
    out = out.replace(STRAY_JOINER, '');
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/** Length in Unicode code points (an emoji outside the BMP counts once). */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}
