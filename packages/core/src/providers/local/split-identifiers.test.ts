import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildMatchExpression } from './fts-query.ts';
import {
  ASCII_IDENTIFIER_PATTERNS,
  identifierParts,
  identifierPartsWith,
  splitIdentifier,
  splitIdentifierWith,
  unicodeIdentifierPatterns,
  wordsWith,
} from './split-identifiers.ts';

// Every ASCII character, and identifier-like runs of the ones that matter most.
const ASCII = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));
const asciiText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...ASCII), maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...'aZ09_- .xMLHttpRequest264'), maxLength: 40 }),
);

describe('the ASCII patterns', () => {
  it('answer as the Unicode ones on all-ASCII text', () => {
    const unicode = unicodeIdentifierPatterns();
    fc.assert(
      fc.property(asciiText, (text) => {
        expect(wordsWith(ASCII_IDENTIFIER_PATTERNS, text)).toEqual(wordsWith(unicode, text));
        expect(splitIdentifierWith(ASCII_IDENTIFIER_PATTERNS, text)).toEqual(splitIdentifierWith(unicode, text));
        expect(identifierPartsWith(ASCII_IDENTIFIER_PATTERNS, text)).toEqual(identifierPartsWith(unicode, text));
      }),
      { numRuns: 2000 },
    );
    for (const char of ASCII) expect(wordsWith(ASCII_IDENTIFIER_PATTERNS, char)).toEqual(wordsWith(unicode, char));
  });

  it('are not used on text with any other character', () => {
    expect(splitIdentifier('ÄbortController')).toEqual(['äbort', 'controller']);
    expect(identifierParts('naïveParser')).toBe('naïve Parser');
  });
});

describe('splitIdentifier', () => {
  it('splits camelCase, PascalCase, acronyms and snake_case into lowercase parts', () => {
    expect(splitIdentifier('AbortController')).toEqual(['abort', 'controller']);
    expect(splitIdentifier('fetchEventSource')).toEqual(['fetch', 'event', 'source']);
    expect(splitIdentifier('snake_case')).toEqual(['snake', 'case']);
    expect(splitIdentifier('XMLHttpRequest')).toEqual(['xml', 'http', 'request']);
    expect(splitIdentifier('h264Decoder')).toEqual(['h', '264', 'decoder']);
  });

  it('leaves plain words whole', () => {
    expect(splitIdentifier('controller')).toEqual(['controller']);
    expect(splitIdentifier('HTML')).toEqual(['html']);
  });
});

describe('identifierParts', () => {
  it('lists the parts of the words that split, and nothing for prose', () => {
    expect(identifierParts('Use AbortController with fetchEventSource here')).toBe(
      'Abort Controller fetch Event Source',
    );
    expect(identifierParts('plain words only')).toBe('');
  });
});

describe('buildMatchExpression', () => {
  it('quotes every word and never passes FTS5 syntax through', () => {
    expect(buildMatchExpression('"foo" NOT bar*', 'all')).toBe('"foo" AND "NOT" AND "bar"');
    expect(buildMatchExpression('NEAR(x y)', 'any')).toBe('"NEAR" OR "x" OR "y"');
  });

  it('matches a camelCase query word whole or by its parts', () => {
    expect(buildMatchExpression('AbortController', 'all')).toBe('("AbortController" OR ("abort" AND "controller"))');
  });

  it('leaves out stop words and question words, unless nothing else is left', () => {
    expect(buildMatchExpression('How do I sort an array?', 'all')).toBe('"sort" AND "array"');
    expect(buildMatchExpression('how to', 'all')).toBe('"how" AND "to"');
    // Names on the web platform are not stop words: the GET method, JavaScript's `this` and `in`.
    expect(buildMatchExpression('get this in', 'all')).toBe('"get" AND "this" AND "in"');
  });

  it('searches the words a question uses with the words reference pages use for them', () => {
    expect(buildMatchExpression('array remove duplicates', 'all')).toBe(
      '"array" AND ("remove duplicates" OR "unique values")',
    );
    expect(buildMatchExpression('how do I center a div', 'any')).toBe('("center" OR "align") OR "div"');
  });

  it('has no expression for a query without word characters', () => {
    expect(buildMatchExpression('"*(): -+^', 'all')).toBeUndefined();
  });
});
