import { describe, expect, it } from 'vitest';
import { buildMatchExpression } from './fts-query.ts';
import { identifierParts, splitIdentifier } from './split-identifiers.ts';

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
    expect(buildMatchExpression('"foo" OR bar*', 'all')).toBe('"foo" AND "OR" AND "bar"');
    expect(buildMatchExpression('NEAR(a b)', 'any')).toBe('"NEAR" OR "a" OR "b"');
  });

  it('matches a camelCase query word whole or by its parts', () => {
    expect(buildMatchExpression('AbortController', 'all')).toBe('("AbortController" OR ("abort" AND "controller"))');
  });

  it('has no expression for a query without word characters', () => {
    expect(buildMatchExpression('"*(): -+^', 'all')).toBeUndefined();
  });
});
