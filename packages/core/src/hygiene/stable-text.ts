/**
 * Characters that cleaning (the contract's `cleanText`) leaves alone and NFC never changes, alone or
 * next to each other, as inclusive code point ranges: printable ASCII; Latin-1's printable
 * characters but the no-break space (a space separator) and the soft hyphen (invisible); General
 * Punctuation's printable ranges, without its spaces, zero-widths, line and paragraph separators,
 * bidi controls, narrow and medium spaces and invisible operators; the currency signs. A test checks
 * every character and every pair.
 */
export const STABLE_TEXT_RANGES: readonly (readonly [number, number])[] = [
  [0x20, 0x7e],
  [0xa1, 0xac],
  [0xae, 0xff],
  [0x2010, 0x2027],
  [0x2030, 0x205e],
  [0x20a0, 0x20c0],
];

const unit = (codePoint: number) => `\\u${codePoint.toString(16).padStart(4, '0')}`;

/** Text made only of `STABLE_TEXT_RANGES` characters (the empty text too). */
export const STABLE_TEXT = new RegExp(`^[${STABLE_TEXT_RANGES.map(([a, b]) => `${unit(a)}-${unit(b)}`).join('')}]*$`);
