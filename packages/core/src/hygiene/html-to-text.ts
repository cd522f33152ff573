import { cleanText } from '@openmates/contract';
import type { TextFormat } from '../provider.ts';
import { BLOCK_ELEMENTS, HIDDEN_ELEMENTS } from './html-elements.ts';
import { htmlParser } from './html-parser.ts';
import { truncate } from './truncate.ts';

/** In a `u` regex a well-formed pair is one code point, so only an unpaired half matches. */
const LONE_SURROGATE = /\p{Cs}/gu;
/** Printable ASCII only: no surrogates, no invisible or control characters, already NFC. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Turns untrusted HTML (or plain text) into plain text of at most `maxCodePoints` code points:
 * parsed by htmlparser2, tags and attributes removed, contents of `HIDDEN_ELEMENTS` elements removed,
 * entities decoded exactly once (by the parser), then cleaned as `cleanPlainText` does.
 * The result may contain `<` or `&`: it is text, and must be rendered as text.
 */
export function htmlToText(input: string, maxCodePoints: number): string {
  // Without `<` or `&` there is no markup and no entity: the parser would return the text as is.
  return cleanPlainText(input.includes('<') || input.includes('&') ? parseText(input) : input, maxCodePoints);
}

/**
 * Cleans untrusted plain text, never parsing it as HTML (`<div>` and `&amp;` stay as written): lone
 * surrogates replaced by U+FFFD, invisible, control, bidi and tag characters removed, whitespace
 * collapsed and trimmed, NFC, then cut between graphemes to at most `maxCodePoints` (see `truncate`).
 */
export function cleanPlainText(text: string, maxCodePoints: number): string {
  // Most provider text is printable ASCII, where cleaning only collapses runs of spaces and NFC
  // changes nothing: one scan instead of four passes with Unicode property classes.
  if (PRINTABLE_ASCII.test(text))
    return truncate(text.includes('  ') ? text.replace(/ {2,}/g, ' ') : text, maxCodePoints);
  // A lone surrogate (JSON can carry `\ud800`) becomes U+FFFD, as a UTF-8 encoder would make it.
  // Cleaning comes before NFC: removing a joiner between a letter and its mark leaves a pair to compose.
  return truncate(cleanText(text.replace(LONE_SURROGATE, '\uFFFD')).normalize('NFC'), maxCodePoints);
}

/** Provider text in `format` as bounded plain text: `htmlToText` for `html`, `cleanPlainText` for `text`. */
export function providerText(input: string, format: TextFormat, maxCodePoints: number): string {
  return format === 'text' ? cleanPlainText(input, maxCodePoints) : htmlToText(input, maxCodePoints);
}

/** The text content of an HTML fragment, without the contents of `HIDDEN_ELEMENTS` elements. */
function parseText(input: string): string {
  const parts: string[] = [];
  let dropDepth = 0;
  // The parser reports every open element's close (implied ones too), so the depth stays balanced
  // for unclosed and misnested tags; stray close tags without an open element are not reported.
  const Parser = htmlParser();
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN_ELEMENTS.has(name)) dropDepth += 1;
        else if (BLOCK_ELEMENTS.has(name)) parts.push(' ');
      },
      onclosetag(name) {
        if (HIDDEN_ELEMENTS.has(name)) dropDepth -= 1;
        else if (BLOCK_ELEMENTS.has(name)) parts.push(' ');
      },
      ontext(text) {
        if (dropDepth === 0) parts.push(text);
      },
    },
    { decodeEntities: true },
  );
  parser.write(input);
  parser.end();
  return parts.join('');
}
