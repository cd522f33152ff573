import { describe, expect, it } from 'vitest';
import { citationNote } from './candidates.ts';

describe('citationNote', () => {
  const text = 'First claim here. Bun 1.3 is the latest release ([bun.sh](https://bun.sh/)). Next sentence.';
  const start = Array.from(text).indexOf('(');
  const end = text.indexOf('))') + 2;

  it('is the citing sentence without the citation span', () => {
    expect(citationNote(text, start, end)).toBe('Bun 1.3 is the latest release.');
  });

  it('counts code points, so text before an emoji does not shift it', () => {
    const emoji = `🎉 ${text}`;
    const cpStart = Array.from(emoji).indexOf('(');
    expect(citationNote(emoji, cpStart, cpStart + (end - start))).toBe('Bun 1.3 is the latest release.');
  });

  it('is undefined when the indices do not fit the text', () => {
    expect(citationNote(text, 5, 2)).toBeUndefined();
    expect(citationNote(text, 0, 10_000)).toBeUndefined();
    expect(citationNote(text, '1', 3)).toBeUndefined();
    expect(citationNote(undefined, 0, 1)).toBeUndefined();
  });

  it('does not split a sentence at a dot inside a word', () => {
    const dotted = 'Node.js 24 is current ([nodejs.org](https://nodejs.org/)).';
    const s = dotted.indexOf('(');
    expect(citationNote(dotted, s, dotted.length - 1)).toBe('Node.js 24 is current.');
  });
});
