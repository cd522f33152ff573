import { describe, expect, it } from 'vitest';
import { type CodePointSpan, citationNote } from './citing-sentence.ts';

/** The code point span of `cited` in `text` (its first occurrence), as the API's annotations give it. */
function span(text: string, cited: string): [number, number] {
  const at = text.indexOf(cited);
  expect(at).toBeGreaterThanOrEqual(0);
  const start = Array.from(text.slice(0, at)).length;
  return [start, start + Array.from(cited).length];
}

function noteOf(text: string, cited: string, others: readonly CodePointSpan[] = []): string | undefined {
  const [start, end] = span(text, cited);
  return citationNote(text, start, end, others);
}

describe('citationNote', () => {
  const text = 'First claim here. Bun 1.3 is the latest release ([bun.sh](https://bun.sh/)). Next sentence.';

  it('is the citing sentence without the citation span', () => {
    expect(noteOf(text, '([bun.sh](https://bun.sh/))')).toBe('Bun 1.3 is the latest release.');
  });

  it('is the sentence before a citation written after its full stop, not the next one', () => {
    const after =
      "Mount Columbia is Alberta's highest point. ([britannica.com](https://www.britannica.com/place/Mount-Columbia?utm_source=openai)) It stands on the border with British Columbia.";
    expect(noteOf(after, after.slice(after.indexOf('(['), after.indexOf(')) ') + 2))).toBe(
      "Mount Columbia is Alberta's highest point.",
    );
  });

  it('gives every citation of a row after a full stop the sentence they close', () => {
    const a = '([peakbagger.com](https://www.peakbagger.com/peak.aspx?pid=2&utm_source=openai))';
    const b = '([en.wikipedia.org](https://en.wikipedia.org/wiki/Mount_Columbia_(Canada)?utm_source=openai))';
    const row = `Its summit is 3,747 m (12,293 ft) above sea level. ${a} ${b}\n\nThe first ascent was in 1902.`;
    const others = [span(row, a), span(row, b)];
    expect(noteOf(row, a, others)).toBe('Its summit is 3,747 m (12,293 ft) above sea level.');
    expect(noteOf(row, b, others)).toBe('Its summit is 3,747 m (12,293 ft) above sea level.');
  });

  it('is the whole sentence for a citation inside it, other citations left out', () => {
    const a = '([nodejs.org](https://nodejs.org/en/blog/release/v24.1.0?utm_source=openai))';
    const b = '([github.com](https://github.com/nodejs/node/releases?utm_source=openai))';
    const inside = `Node.js 24.1.0 came out on 21 May ${a}, and 22.16.0 followed ${b}. Both are LTS lines.`;
    const others = [span(inside, a), span(inside, b)];
    expect(noteOf(inside, b, others)).toBe('Node.js 24.1.0 came out on 21 May, and 22.16.0 followed.');
  });

  it('is the list item a citation ends, without its marker or emphasis', () => {
    const a = '([bun.sh](https://bun.sh/blog/bun-v1.3?utm_source=openai))';
    const list = `Current runtimes:\n\n- **Bun**: version 1.3, released in October ${a}\n- **Deno**: version 2.5 ([deno.com](https://deno.com/blog/v2.5))\n`;
    expect(noteOf(list, a)).toBe('Bun: version 1.3, released in October');
    expect(noteOf(list, '([deno.com](https://deno.com/blog/v2.5))')).toBe('Deno: version 2.5');
  });

  it('is the sentence before a citation alone on its line', () => {
    const alone = 'The bridge opened in 1932.\n([nsw.gov.au](https://www.nsw.gov.au/bridge))\nIt is 134 m tall.';
    expect(noteOf(alone, '([nsw.gov.au](https://www.nsw.gov.au/bridge))')).toBe('The bridge opened in 1932.');
  });

  it('does not end a sentence at an abbreviation, a decimal or a dot inside a word', () => {
    const dotted =
      'Dr. Smith of the U.S. Geological Survey measured 3.5 m of uplift with Node.js tools ([usgs.gov](https://www.usgs.gov/x)). Other work followed.';
    expect(noteOf(dotted, '([usgs.gov](https://www.usgs.gov/x))')).toBe(
      'Dr. Smith of the U.S. Geological Survey measured 3.5 m of uplift with Node.js tools.',
    );
  });

  it('is the sentence before a fragment the segmenter splits off after a dotted name', () => {
    const a = '([readthedocs.io](https://opentelemetry.readthedocs.io/fastapi.html))';
    const dotted = `Headers appear on spans as http.request.header.* and http.response.header.*. ${a}\n\nNext.`;
    expect(noteOf(dotted, a)).toBe('Headers appear on spans as http.request.header.* and http.response.header.');
  });

  it('does not end a sentence after a company suffix before more of the name', () => {
    const a = '([investopedia.com](https://www.investopedia.com/x))';
    const deal = `- A major media deal: Netflix is pursuing Warner Bros. Discovery (market coverage today). ${a}  \n- Next item.`;
    expect(noteOf(deal, a)).toBe(
      'A major media deal: Netflix is pursuing Warner Bros. Discovery (market coverage today).',
    );
  });

  it('keeps the label of a link that is part of the prose', () => {
    const prose =
      'The [Deno](https://deno.com) team shipped 2.5 in September ([deno.com](https://deno.com/blog/v2.5)).';
    expect(noteOf(prose, '([deno.com](https://deno.com/blog/v2.5))')).toBe('The Deno team shipped 2.5 in September.');
  });

  it('counts code points, so text before an emoji does not shift it', () => {
    const emoji = `🎉 ${text}`;
    expect(noteOf(emoji, '([bun.sh](https://bun.sh/))')).toBe('Bun 1.3 is the latest release.');
  });

  it('is undefined when the indices do not fit the text', () => {
    expect(citationNote(text, 5, 2)).toBeUndefined();
    expect(citationNote(text, 0, 10_000)).toBeUndefined();
    expect(citationNote(text, '1', 3)).toBeUndefined();
    expect(citationNote(undefined, 0, 1)).toBeUndefined();
  });

  it('is undefined when no words are left', () => {
    const only = '([bun.sh](https://bun.sh/))';
    expect(noteOf(only, only)).toBeUndefined();
  });
});
