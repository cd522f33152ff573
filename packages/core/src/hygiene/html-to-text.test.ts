import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-to-text.ts';

const BIG = 1000;

describe('htmlToText on a hostile corpus', () => {
  it.each([
    ['plain text passes through', 'Rust ownership explained', 'Rust ownership explained'],
    [
      'inline tags are removed without gluing or splitting words',
      'The <strong>Rust</strong> <em>Book</em>',
      'The Rust Book',
    ],
    ['inline tags inside a word keep it whole', 'Vec<b>tor</b>', 'Vector'],
    [
      'block tags separate words',
      '<p>one</p><p>two</p><div>three</div>four<br>five<li>six',
      'one two three four five six',
    ],
    ['table cells separate words', '<table><tr><td>a<td>b</table>c', 'a b c'],
    ['nested tags', '<div><p><span><b><i>deep</i></b></span></p></div>', 'deep'],
    ['misnested tags', '<b><i>x</b>y</i>z', 'xyz'],
    ['stray close tags are ignored, as browsers do', 'a</script>b</div>c</span>d', 'abcd'],
    ['a stray </p> or </br> still breaks, as browsers do', 'a</p>b</br>c', 'a b c'],
    ['an unclosed tag at the end is dropped', 'text <a href="x', 'text'],
    ['an unclosed tag before more text', 'a<b c<d', 'a'],
    ['a tag inside an attribute is not text', '<a title="<script>alert(1)</script>">link</a>', 'link'],
    ['an attribute is never text', '<img src=x onerror="alert(1)" alt="alt text">caption', 'caption'],
    ['script contents are dropped', 'before<script>alert("x")</script>after', 'beforeafter'],
    ['style contents are dropped', 'a <style>p { color: red }</style>b', 'a b'],
    ['an unclosed script drops the rest', 'safe <script>document.cookie', 'safe'],
    ['script in upper case', 'x <SCRIPT>evil()</SCRIPT> y', 'x y'],
    [
      'noscript, template, iframe and object are dropped',
      'a<noscript>n</noscript>b<template>t</template>c<iframe>i</iframe>d<object>o</object>e',
      'abcde',
    ],
    [
      'svg and math markup are dropped',
      'a <svg><title>icon</title><text>svg</text></svg>b <math><mi>x</mi></math>c',
      'a b c',
    ],
    [
      'a document head is dropped, its body kept',
      '<html><head><title>Doc</title><style>x</style></head><body>Body</body></html>',
      'Body',
    ],
    ['a bare title element is the text', '<title>The title</title>', 'The title'],
    ['comments, CDATA and processing instructions are dropped', 'a<!-- hidden -->b<![CDATA[c]]>d<?xml x?>e', 'abde'],
    ['a split script tag name is text, not a tag', '<scr<script>ipt>alert(1)</script>', 'ipt>alert(1)'],
    ['entity-encoded tags read as text', 'Vec&lt;T&gt;', 'Vec<T>'],
    ['entity-encoded script is text, not markup', '&lt;script&gt;alert(1)&lt;/script&gt;', '<script>alert(1)</script>'],
    ['double-encoded entities are decoded once', '&amp;lt;b&amp;gt; &amp;amp;', '&lt;b&gt; &amp;'],
    ['numeric entities', '&#60;tag&#x3E; &#8212; &#x1F600;', '<tag> — 😀'],
    ['named entities', 'caf&eacute; &copy; 2024 &hellip;', 'café © 2024 …'],
    ['legacy entities without a semicolon, as browsers read them', 'AT&T &copy 1 &notanentity', 'AT&T © 1 ¬anentity'],
    ['a bare ampersand and less-than stay', 'a & b < c', 'a & b < c'],
    ['an encoded no-break space is whitespace', 'a&nbsp;&nbsp;b', 'a b'],
    ['encoded invisible characters are removed after decoding', 'a&#x200B;b&#8238;c', 'abc'],
    ['zero-width characters are removed', 'z\u200Be\u200Cr\u200Do\u2060w\uFEFFidth', 'zerowidth'],
    ['bidi controls are removed', '\u202Eevil\u202C \u2066isolate\u2069 \u200Fmark', 'evil isolate mark'],
    ['unicode tag characters are removed', 'hi\u{E0001}\u{E0068}\u{E0069}\u{E007F} there', 'hi there'],
    ['unassigned code points of the tag block are removed too', 'a\u{E0000}b\u{E0002}c', 'abc'],
    ['control characters are removed', 'a\u0000b\u0007c\u001Bd\u007Fe\u0085f', 'abcde f'],
    ['whitespace is collapsed and trimmed', '  \n\t a \u00A0\u2003 b\r\n  ', 'a b'],
    ['decomposed text is composed (NFC)', 'cafe\u0301', 'caf\u00E9'],
    ['a joiner between a letter and its mark does not block composition', 'e\u200D\u0301', '\u00E9'],
    ['a lone surrogate becomes a replacement character', 'a\uD800b\uDC00', 'a\uFFFDb\uFFFD'],
    ['markup only becomes empty', '<b></b><script>x</script><br>', ''],
    ['an empty string stays empty', '', ''],
  ])('%s', (_name, input, expected) => {
    expect(htmlToText(input, BIG)).toBe(expected);
  });

  it('bounds a 10 KB title to the limit, ending with an ellipsis', () => {
    const title = 'word '.repeat(2048);
    const out = htmlToText(title, 300);
    expect(Array.from(out)).toHaveLength(300);
    expect(out).toBe(`${'word '.repeat(59)}word…`);
  });

  it('bounds after removing markup, so tags do not use up the limit', () => {
    const out = htmlToText(`<b>${'<i></i>'.repeat(2000)}short</b>`, 10);
    expect(out).toBe('short');
  });

  it('never cuts an emoji at the cut point', () => {
    // 8 letters, then a 2-unit emoji across the bound of 10 (one point goes to the ellipsis).
    expect(htmlToText('abcdefgh😀😀😀', 10)).toBe('abcdefgh😀…');
    expect(htmlToText('abcdefghi😀😀😀', 10)).toBe('abcdefghi…');
  });

  it('never separates a letter from its combining marks at the cut point', () => {
    // `q̣̇` has no precomposed form, so it stays three code points after NFC.
    // `abcdefg q̣̇` is 11 code points; the ellipsis makes 12.
    expect(htmlToText('abcdefg q\u0323\u0307 tail', 12)).toBe('abcdefg q\u0323\u0307…');
    expect(htmlToText('abcdefg q\u0323\u0307 tail', 11)).toBe('abcdefg…');
    expect(htmlToText('abcdefg q\u0323\u0307 tail', 10)).toBe('abcdefg…');
  });

  it('never splits a multi-code-point emoji at the cut point', () => {
    const flag = '\u{1F1EC}\u{1F1E7}'; // two regional indicators, one grapheme
    const keycap = '1\uFE0F\u20E3'; // three code points, one grapheme
    expect(htmlToText(`abcd${flag}xyz`, 6)).toBe('abcd…');
    expect(htmlToText(`abcd${flag}xyz`, 7)).toBe(`abcd${flag}…`);
    expect(htmlToText(`abcd${keycap}xyz`, 7)).toBe('abcd…');
    expect(htmlToText(`abcd${keycap}xyz`, 8)).toBe(`abcd${keycap}…`);
  });

  it('keeps joiners where they join (emoji ZWJ sequences, Indic and Persian words) and removes them elsewhere', () => {
    // ADR 0004: the contract's cleanText rule, the same for queries and provider text.
    expect(htmlToText('<b>👨\u200D👩\u200D👧</b> family', BIG)).toBe('👨\u200D👩\u200D👧 family');
    expect(htmlToText('<i>क्\u200Dष</i> and می\u200Cخواهم', BIG)).toBe('क्\u200Dष and می\u200Cخواهم');
    expect(htmlToText('jo\u200Din\u200Cer &amp; 👨 \u200D👩', BIG)).toBe('joiner & 👨 👩');
  });
});
