import { describe, expect, it } from 'vitest';
import { nameKey, nameKeys } from './name-key.ts';

describe('nameKey', () => {
  it.each([
    ['<div> HTML element', 'div'],
    ['div element', 'div'],
    ['<div>', 'div'],
    ['<div> (web platform feature)', 'div web platform feature'],
    ['@media CSS at-rule', 'media'],
    ['@media', 'media'],
    ['<color> CSS value type', 'color'],
    ['color value type', 'color'],
    [':has() CSS selector', 'has'],
    [':has', 'has'],
    ['Array.prototype.map()', 'array map'],
    ['Array: map', 'array map'],
    ['Array map', 'array map'],
    ['AbortController: abort() method', 'abortcontroller abort'],
    ['<input>: type="date"', 'input type date'],
    ['input type date', 'input type date'],
  ])('%s reads %s', (text, key) => {
    expect(nameKey(text)).toBe(key);
  });

  it('removes at most one label, the longest, and never the whole name', () => {
    expect(nameKey('Content-Type HTTP header')).toBe('content type');
    expect(nameKey('content-type header')).toBe('content type');
    expect(nameKey('element')).toBe('element');
    expect(nameKey('html element')).toBe('html');
  });

  it('is empty without words', () => {
    expect(nameKey('<> () @')).toBe('');
    expect(nameKeys('<> () @')).toEqual([]);
  });

  it('gives a query its words whole too when it removed a label', () => {
    expect(nameKeys('<filter-function>')).toEqual(['filter', 'filter function']);
    expect(nameKeys('div')).toEqual(['div']);
  });
});
