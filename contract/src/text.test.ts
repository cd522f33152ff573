import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASCII_TEXT_PATTERNS, cleanText, cleanTextWith, hasInvisible, isAscii, unicodeTextPatterns } from './text.ts';

const ZWJ = '\u200D';
const ZWNJ = '\u200C';

/** Code points of a property, for generators: every one of them, not a sample picked by hand. */
function codePoints(property: RegExp, from: number, to: number): string[] {
  const found: string[] = [];
  for (let cp = from; cp <= to; cp++) if (property.test(String.fromCodePoint(cp))) found.push(String.fromCodePoint(cp));
  return found;
}

const pictograph = fc.constantFrom(...codePoints(/^\p{Extended_Pictographic}$/u, 0x2000, 0x1faff));
const modifier = fc.constantFrom('', '\uFE0F', '\u{1F3FB}', '\u{1F3FD}', '\u{1F3FF}');
/** UTS #51 emoji ZWJ sequences: pictographs, each with an optional presentation selector or skin tone, joined by ZWJ. */
const emojiZwjSequence = fc
  .array(fc.tuple(pictograph, modifier), { minLength: 2, maxLength: 4 })
  .map((elements) => elements.map(([base, mod]) => base + mod).join(ZWJ));

const consonant = fc.constantFrom(...codePoints(/^\p{L}$/u, 0x0915, 0x0939));
const vowelSign = fc.constantFrom('', '\u093E', '\u093F', '\u0940', '\u0947', '\u094B');
/** Devanagari words whose conjuncts are written with an explicit half form (ZWJ) or a visible virama (ZWNJ). */
const devanagariWord = fc
  .array(fc.tuple(consonant, fc.constantFrom('', `\u094D${ZWJ}`, `\u094D${ZWNJ}`, '\u094D'), vowelSign), {
    minLength: 1,
    maxLength: 6,
  })
  .map((parts) => parts.map((p) => p.join('')).join(''));

// Persian letters that join on both sides (dual-joining) and those that join only to the letter before.
const DUAL_JOINING = [...'بپتثجچحخسشصضطظعغفقکگلمنهی'];
const RIGHT_JOINING = [...'آادذرزژو'];
const harakat = fc.constantFrom('', '\u064E', '\u0650', '\u064F', '\u0651');
/** Persian words where ZWNJ separates a dual-joining letter from the next letter (می‌خواهم, کتاب‌ها). */
const persianWord = fc
  .array(fc.tuple(fc.constantFrom(...DUAL_JOINING, ...RIGHT_JOINING), harakat, fc.boolean()), {
    minLength: 2,
    maxLength: 8,
  })
  .map((parts) =>
    parts
      .map(([letter, mark, joiner], i) =>
        joiner && DUAL_JOINING.includes(letter) && i < parts.length - 1 ? letter + mark + ZWNJ : letter + mark,
      )
      .join(''),
  );

const latinWord = fc.stringMatching(/^[A-Za-z]{1,12}$/);

describe('joiners in cleaning (ADR 0004)', () => {
  it('keeps emoji ZWJ sequences whole, alone or inside a query', () => {
    fc.assert(
      fc.property(emojiZwjSequence, latinWord, (sequence, word) => {
        expect(cleanText(sequence)).toBe(sequence);
        expect(cleanText(` ${word} ${sequence}\u200B ${word} `)).toBe(`${word} ${sequence} ${word}`);
      }),
    );
  });

  it('keeps ZWJ and ZWNJ after a virama in Devanagari words', () => {
    fc.assert(
      fc.property(devanagariWord, (word) => {
        expect(cleanText(word)).toBe(word);
      }),
    );
  });

  it('keeps ZWNJ between Persian letters that join', () => {
    fc.assert(
      fc.property(persianWord, (word) => {
        expect(cleanText(word)).toBe(word);
      }),
    );
    expect(cleanText('می\u200Cخواهم کتاب\u200Cها')).toBe('می\u200Cخواهم کتاب\u200Cها');
  });

  it('removes a lone joiner between Latin letters', () => {
    fc.assert(
      fc.property(latinWord, latinWord, fc.constantFrom(ZWJ, ZWNJ), (a, b, joiner) => {
        expect(cleanText(a + joiner + b)).toBe(a + b);
      }),
    );
  });

  it('removes joiners where they join nothing', () => {
    expect(cleanText(`${ZWJ}👩`)).toBe('👩');
    expect(cleanText(`👩${ZWJ}`)).toBe('👩');
    expect(cleanText(`👨 ${ZWJ}👩`)).toBe('👨 👩');
    expect(cleanText(`👨${ZWJ}${ZWJ}👩`)).toBe('👨👩');
    expect(cleanText(`👨${ZWNJ}👩`)).toBe('👨👩');
    // A ZWJ between consonants with no virama, a ZWNJ after a letter that does not join forward.
    expect(cleanText(`क${ZWJ}ष`)).toBe('कष');
    expect(cleanText(`ا${ZWNJ}ب`)).toBe('اب');
    expect(cleanText(`ب${ZWNJ} ب`)).toBe('ب ب');
    // Other invisible characters go first, so a joiner is judged by what is visible around it.
    expect(cleanText(`👨\u200B${ZWJ}\u2066👩`)).toBe(`👨${ZWJ}👩`);
  });

  it('is idempotent when joiners are mixed into any of these scripts', () => {
    const piece = fc.oneof(
      emojiZwjSequence,
      devanagariWord,
      persianWord,
      latinWord,
      fc.constantFrom(ZWJ, ZWNJ, ' ', '\u200B', '\u094D', '\uFE0F'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const once = cleanText(pieces.join(''));
        expect(cleanText(once)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the ASCII patterns', () => {
  const ASCII = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));
  const unicode = unicodeTextPatterns();

  it('answer as the Unicode ones on all-ASCII text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...ASCII), maxLength: 40 }), (text) => {
        expect(isAscii(text)).toBe(true);
        expect(cleanTextWith(ASCII_TEXT_PATTERNS, text)).toBe(cleanTextWith(unicode, text));
        expect(ASCII_TEXT_PATTERNS.anyInvisible.test(text)).toBe(unicode.anyInvisible.test(text));
      }),
      { numRuns: 2000 },
    );
    for (const char of ASCII) {
      expect(cleanTextWith(ASCII_TEXT_PATTERNS, `a${char}b`)).toBe(cleanTextWith(unicode, `a${char}b`));
      expect(ASCII_TEXT_PATTERNS.anyInvisible.test(char)).toBe(unicode.anyInvisible.test(char));
    }
  });

  it('are not used on text with any other character', () => {
    expect(isAscii('a\u0080')).toBe(false);
    expect(cleanText('a\u00A0\u200Bb  c')).toBe('a b c');
    expect(hasInvisible('https://example.org/\u00AD')).toBe(true);
    expect(hasInvisible('https://example.org/\u0007')).toBe(true);
    expect(hasInvisible('https://example.org/')).toBe(false);
  });
});
