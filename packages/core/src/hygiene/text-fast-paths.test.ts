// The cleaner's two shortcuts, held by properties to the cleaner's own full paths (the whole
// cleaning rule, htmlparser2's text), which it exports: no copy of either is written here.
import { unicodeTextPatterns } from '@openmates/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BARE_INLINE_ELEMENTS, BLOCK_ELEMENTS, HIDDEN_ELEMENTS } from './html-elements.ts';
import { cleanPlainText, cleanPlainTextFully, htmlToText, parseText } from './html-to-text.ts';
import { STABLE_TEXT, STABLE_TEXT_RANGES } from './stable-text.ts';

/** Every character of `STABLE_TEXT_RANGES`, in order. */
const STABLE_CHARS = STABLE_TEXT_RANGES.flatMap(([first, last]) =>
  Array.from({ length: last - first + 1 }, (_, i) => String.fromCodePoint(first + i)),
);

describe('the stable-text shortcut of cleanPlainText', () => {
  it('its pattern accepts exactly the characters of its ranges', () => {
    const stable = new Set(STABLE_CHARS);
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp += 1) {
      const char = String.fromCodePoint(cp);
      if (STABLE_TEXT.test(char) !== stable.has(char)) wrong.push(`U+${cp.toString(16)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('holds no whitespace, no invisible character, nothing NFC changes, alone or in any pair', () => {
    const { whitespace, anyInvisible } = unicodeTextPatterns();
    const changed: string[] = [];
    for (const a of STABLE_CHARS) {
      whitespace.lastIndex = 0;
      if (a !== ' ' && whitespace.test(a)) changed.push(`whitespace ${a}`);
      if (anyInvisible.test(a)) changed.push(`invisible ${a}`);
      if (a.normalize('NFC') !== a) changed.push(`NFC ${a}`);
      for (const b of STABLE_CHARS) if ((a + b).normalize('NFC') !== a + b) changed.push(`NFC ${a}${b}`);
    }
    expect(changed).toEqual([]);
  });

  it('cleans text over its characters as the full rule does', () => {
    const stable = fc.string({
      unit: fc.oneof(fc.constantFrom(...STABLE_CHARS), fc.constantFrom(' ', '  ', '\u00e9', '\u2014')),
      maxLength: 80,
    });
    fc.assert(
      fc.property(stable, fc.integer({ min: 0, max: 60 }), (input, max) => {
        expect(cleanPlainText(input, max)).toBe(cleanPlainTextFully(input, max));
      }),
      { numRuns: 3000 },
    );
  });
});

const INLINE_TAGS = BARE_INLINE_ELEMENTS.flatMap((name) => {
  const title = name.charAt(0).toUpperCase() + name.slice(1);
  return [name, name.toUpperCase(), title].flatMap((spelt) => [`<${spelt}>`, `</${spelt}>`]);
});
const OTHER_MARKUP = ['<b >', '< b>', '<b/>', '<br>', '</br>', '<b class="x">', '<p>', '</p>', '<script>', '<title>'];
const STRAY = ['<', '>', '</', '</>', '<>', '<!--', '-->'];
const REFERENCES = [
  '&',
  '&amp;',
  '&amp',
  '&ampx',
  '&mdash;',
  '&notit;',
  '&not',
  '&#0;',
  '&#x110000;',
  '&#xD800;',
  '&#65',
  '&#x41;',
  '&#',
  '&#x',
  '&unknown;',
  '&am',
  'p;',
  '&nbsp;',
];
const LETTERS = [' ', '  ', '\n', '\t', 'é', 'ß', 'Ω', 'я', '中', 'e', '\u0301', '\u0323', '\u00a0', '\u2014', '😀'];

/** Text without `<`, so a string of these pieces and inline tags takes the shortcut. */
const noMarkup = fc.string({ unit: 'binary', maxLength: 8 }).map((text) => text.replaceAll('<', ''));
const inlineOnly = fc
  .array(fc.oneof(fc.constantFrom(...INLINE_TAGS, ...REFERENCES, ...LETTERS), noMarkup), { maxLength: 40 })
  .map((pieces) => pieces.join(''));
const mixed = fc
  .array(
    fc.oneof(
      fc.constantFrom(...INLINE_TAGS, ...OTHER_MARKUP, ...STRAY, ...REFERENCES, ...LETTERS),
      fc.string({ unit: 'binary', maxLength: 8 }),
    ),
    { maxLength: 40 },
  )
  .map((pieces) => pieces.join(''));

describe('the inline-markup shortcut of htmlToText', () => {
  it('gives what htmlparser2 gives, then the full cleaning, for text marked with bare inline tags', () => {
    fc.assert(
      fc.property(inlineOnly, fc.integer({ min: 0, max: 120 }), (input, max) => {
        expect(htmlToText(input, max)).toBe(cleanPlainTextFully(parseText(input), max));
      }),
      { numRuns: 5000 },
    );
  });

  it('gives what htmlparser2 gives for any mix of inline tags, other markup, stray brackets and references', () => {
    fc.assert(
      fc.property(mixed, fc.integer({ min: 0, max: 120 }), (input, max) => {
        expect(htmlToText(input, max)).toBe(cleanPlainTextFully(parseText(input), max));
      }),
      { numRuns: 5000 },
    );
  });

  it('declares only elements the text rules and the parser treat as plain text', () => {
    for (const name of BARE_INLINE_ELEMENTS) {
      expect(HIDDEN_ELEMENTS.has(name), name).toBe(false);
      expect(BLOCK_ELEMENTS.has(name), name).toBe(false);
      // The parser keeps the text inside and after an unclosed one: no raw text, no implied close.
      expect(parseText(`a<${name}>b &amp; <i>c</i>&lt;d`), name).toBe('ab & c<d');
    }
  });

  it.each([
    ['bare inline tags in any case are dropped', 'The <STRONG>Rust</Strong> <em>Book</EM>', 'The Rust Book'],
    ['a reference is decoded in its run', 'Result <strong>3</strong> &amp; answer', 'Result 3 & answer'],
    ['a reference never spans an inline tag', '&am<b></b>p; &l<i>t;</i>', '&amp; &lt;'],
    ['a reference without `;` ends at an inline tag', '&amp<b>x</b>&copy', '&x©'],
    ['numeric edge cases decode as the parser does', '<b>&#0; &#x110000; &#65 &#x41;</b>', '\uFFFD \uFFFD A A'],
    ['a legacy prefix of a longer name decodes alone', '<i>&notit; &unknown;</i>', '¬it; &unknown;'],
    ['an inline tag with an attribute is parsed as usual', '<b class="x">a</b> <b >b</b>', 'a b'],
    ['a block tag among inline tags still separates words', '<b>a</b><br>b', 'a b'],
    ['a stray `<` among inline tags stays text', '<b>a</b> < b', 'a < b'],
    ['a comment among inline tags is dropped', '<b>a</b><!-- <b> -->b', 'ab'],
    ['an entity in text without markup is decoded', 'AT&T &mdash; caf&eacute;', 'AT&T — café'],
  ])('%s', (_name, input, expected) => {
    expect(htmlToText(input, 1000)).toBe(expected);
  });

  it('Latin-1, punctuation and currency text keeps its characters and only collapses spaces', () => {
    expect(cleanPlainText('  Caf\u00e9 \u2014  \u201cquoted\u201d  \u20ac5 \u2030 \u00bd ', 100)).toBe(
      'Caf\u00e9 \u2014 \u201cquoted\u201d \u20ac5 \u2030 \u00bd',
    );
  });
});
