import { cleanText } from '@openmates/contract';
import type { TextFormat } from '../provider.ts';
import { BARE_INLINE_ELEMENTS, BLOCK_ELEMENTS, HIDDEN_ELEMENTS } from './html-elements.ts';
import { decodeHtmlText, htmlParser } from './html-parser.ts';
import { STABLE_TEXT } from './stable-text.ts';
import { truncate } from './truncate.ts';

/** In a `u` regex a well-formed pair is one code point, so only an unpaired half matches. */
const LONE_SURROGATE = /\p{Cs}/gu;
/** A bare open or close tag of a `BARE_INLINE_ELEMENTS` element in any case, matched at `lastIndex`. */
const BARE_INLINE_TAG = new RegExp(`</?(?:${BARE_INLINE_ELEMENTS.join('|')})>`, 'iy');

/**
 * Turns untrusted HTML (or plain text) into plain text of at most `maxCodePoints` code points:
 * parsed by htmlparser2, tags and attributes removed, contents of `HIDDEN_ELEMENTS` elements removed,
 * entities decoded exactly once (by the parser), then cleaned as `cleanPlainText` does. Text whose
 * only markup is bare inline tags gets the same answer without a parser (see `inlineText`).
 * The result may contain `<` or `&`: it is text, and must be rendered as text.
 */
export function htmlToText(input: string, maxCodePoints: number): string {
  // Without `<` there is no markup: the parser would only decode the entities, if any.
  if (!input.includes('<')) return cleanPlainText(input.includes('&') ? decodeHtmlText(input) : input, maxCodePoints);
  return cleanPlainText(inlineText(input) ?? parseText(input), maxCodePoints);
}

/**
 * The text of `input` when its only markup is bare inline tags (see `BARE_INLINE_ELEMENTS`), as the
 * parser would give it, without building one; `undefined` for any other markup. Search engines mark
 * the query's words so (`<strong>`), and a parser per title and description costs more than the rest
 * of a result's hygiene. Each run between tags is decoded alone: the parser ends a reference at a
 * tag, so `&am<b></b>p;` stays `&amp;`.
 */
function inlineText(input: string): string | undefined {
  const decode = input.includes('&');
  let text = '';
  let runStart = 0;
  for (let open = input.indexOf('<'); open !== -1; open = input.indexOf('<', runStart)) {
    BARE_INLINE_TAG.lastIndex = open;
    if (!BARE_INLINE_TAG.test(input)) return undefined;
    const run = input.slice(runStart, open);
    text += decode && run.includes('&') ? decodeHtmlText(run) : run;
    runStart = BARE_INLINE_TAG.lastIndex;
  }
  const run = input.slice(runStart);
  return text + (decode && run.includes('&') ? decodeHtmlText(run) : run);
}

/**
 * Cleans untrusted plain text, never parsing it as HTML (`<div>` and `&amp;` stay as written): lone
 * surrogates replaced by U+FFFD, invisible, control, bidi and tag characters removed, whitespace
 * collapsed and trimmed, NFC, then cut between graphemes to at most `maxCodePoints` (see `truncate`).
 */
export function cleanPlainText(text: string, maxCodePoints: number): string {
  // Most provider text is printable ASCII, with perhaps a dash, a quote or a Latin-1 letter, where
  // cleaning only collapses runs of spaces and NFC changes nothing (see `STABLE_TEXT_RANGES`): one
  // scan instead of four passes with Unicode property classes.
  if (STABLE_TEXT.test(text)) return truncate(text.includes('  ') ? text.replace(/ {2,}/g, ' ') : text, maxCodePoints);
  return cleanPlainTextFully(text, maxCodePoints);
}

/** `cleanPlainText` by its whole rule, for any text: what its shortcut must give on the text it takes. */
export function cleanPlainTextFully(text: string, maxCodePoints: number): string {
  // A lone surrogate (JSON can carry `\ud800`) becomes U+FFFD, as a UTF-8 encoder would make it.
  // Cleaning comes before NFC: removing a joiner between a letter and its mark leaves a pair to compose.
  return truncate(cleanText(text.replace(LONE_SURROGATE, '\uFFFD')).normalize('NFC'), maxCodePoints);
}

/** Provider text in `format` as bounded plain text: `htmlToText` for `html`, `cleanPlainText` for `text`. */
export function providerText(input: string, format: TextFormat, maxCodePoints: number): string {
  return format === 'text' ? cleanPlainText(input, maxCodePoints) : htmlToText(input, maxCodePoints);
}

/**
 * The text content of an HTML fragment, without the contents of `HIDDEN_ELEMENTS` elements and with
 * a space for each open and close of a `BLOCK_ELEMENTS` element, as htmlparser2 gives it: what the
 * inline-markup shortcut must give on the text it takes.
 */
export function parseText(input: string): string {
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
