import { describe, expect, it } from 'vitest';
import { truncate } from './truncate.ts';

describe('truncate', () => {
  it('keeps text that fits, trimmed', () => {
    expect(truncate('  exactly10 ', 9)).toBe('exactly10');
    expect(truncate('😀😀', 2)).toBe('😀😀');
  });

  it('counts code points, not UTF-16 units', () => {
    // Four emoji are eight UTF-16 units but four code points.
    expect(truncate('😀😀😀😀', 4)).toBe('😀😀😀😀');
    expect(truncate('😀😀😀😀', 3)).toBe('😀😀…');
  });

  it('includes the ellipsis in the bound and trims before it', () => {
    expect(truncate('hello world', 7)).toBe('hello…');
    expect(truncate('hello world', 1)).toBe('…');
    expect(truncate('hello world', 0)).toBe('');
  });

  it('keeps the first code points of a single grapheme longer than the bound', () => {
    const zalgo = `a${'\u0301\u0316'.repeat(50)}`;
    expect(truncate(`${zalgo} tail`, 5)).toBe('a\u0301\u0316\u0301…');
  });

  it('never leaves a lone surrogate', () => {
    for (let max = 1; max < 12; max += 1) {
      expect(truncate('x😀y😀z😀w😀', max)).not.toMatch(/\p{Cs}/u);
    }
  });

  it('leaves no joiner dangling before the ellipsis', () => {
    // One emoji ZWJ sequence longer than the budget keeps its first code points, not its joiner.
    expect(truncate('👨\u200D👩\u200D👧 family', 3)).toBe('👨…');
    expect(truncate('👨\u200D👩\u200D👧 family', 4)).toBe('👨\u200D👩…');
    // A Persian word cut right after its ZWNJ.
    expect(truncate('کتاب\u200Cها خوب', 6)).toBe('کتاب…');
  });
});
