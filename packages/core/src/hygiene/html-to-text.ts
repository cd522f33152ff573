import { cleanText } from '@openmates/contract';
import { Parser } from 'htmlparser2';
import { truncate } from './truncate.ts';

/**
 * Elements whose contents are never readable text: code, styling, embedded documents and
 * fallbacks, vector markup, and a document's head (its `<title>` is metadata of that document, not
 * of the search result). A bare `<title>` outside a head is kept: in a result field it is the text.
 */
const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'head',
  'noembed',
  'noframes',
  'canvas',
  'audio',
  'video',
]);

/** Elements that separate words when rendered, so `<p>a</p><p>b</p>` reads `a b`, not `ab`. */
const BREAKING = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'option',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'title',
  'tr',
  'ul',
]);

/** In a `u` regex a well-formed pair is one code point, so only an unpaired half matches. */
const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * Turns untrusted HTML (or plain text) into plain text of at most `maxCodePoints` code points:
 * parsed by htmlparser2, tags and attributes removed, contents of `DROPPED` elements removed,
 * entities decoded exactly once (by the parser), lone surrogates replaced by U+FFFD, invisible,
 * control, bidi and tag characters removed, whitespace collapsed and trimmed, NFC, then cut between
 * graphemes (see `truncate`).
 * The result may contain `<` or `&`: it is text, and must be rendered as text.
 */
export function htmlToText(input: string, maxCodePoints: number): string {
  // Without `<` or `&` there is no markup and no entity: the parser would return the text as is.
  const text = input.includes('<') || input.includes('&') ? parseText(input) : input;
  // A lone surrogate (JSON can carry `\ud800`) becomes U+FFFD, as a UTF-8 encoder would make it.
  // Cleaning comes before NFC: removing a joiner between a letter and its mark leaves a pair to compose.
  return truncate(cleanText(text.replace(LONE_SURROGATE, '\uFFFD')).normalize('NFC'), maxCodePoints);
}

/** The text content of an HTML fragment, without the contents of `DROPPED` elements. */
function parseText(input: string): string {
  const parts: string[] = [];
  let dropDepth = 0;
  // The parser reports every open element's close (implied ones too), so the depth stays balanced
  // for unclosed and misnested tags; stray close tags without an open element are not reported.
  const parser = new Parser(
    {
      onopentag(name) {
        if (DROPPED.has(name)) dropDepth += 1;
        else if (BREAKING.has(name)) parts.push(' ');
      },
      onclosetag(name) {
        if (DROPPED.has(name)) dropDepth -= 1;
        else if (BREAKING.has(name)) parts.push(' ');
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
