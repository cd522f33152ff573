import { createRequire } from 'node:module';
import type { Parser } from 'htmlparser2';

// htmlparser2 (and the entity decoding tables it brings) loads on the first text that has markup or
// an entity: a search whose results are plain text does not pay for it at cold start. `require` of
// this ES module is synchronous (Node >= 22.12), so the readers that use it stay synchronous.
const requireModule = createRequire(import.meta.url);
let parserClass: typeof Parser | undefined;
let textDecoder: ((text: string) => string) | undefined;

/** htmlparser2's `Parser` class, loaded on the first call. */
export function htmlParser(): typeof Parser {
  parserClass ??= (requireModule('htmlparser2') as typeof import('htmlparser2')).Parser;
  return parserClass;
}

/**
 * Decodes the character references of one run of HTML text exactly as htmlparser2 decodes text: with
 * the `entities` package htmlparser2 itself depends on, in the legacy mode its tokenizer uses for
 * text (`&amp` and `&copy` need no `;`). Loaded on the first call, as the parser is: its tables
 * take milliseconds to load. Resolved from htmlparser2's own directory rather than this package's:
 * that is the copy the tokenizer decodes with, and the one the bundled CLI (which ships htmlparser2
 * as a dependency, not `entities`) can reach; this package lists `entities` for its types only.
 */
export function decodeHtmlText(text: string): string {
  if (textDecoder === undefined) {
    const requireFromParser = createRequire(requireModule.resolve('htmlparser2'));
    const { decodeHTML, DecodingMode } = requireFromParser('entities/decode') as typeof import('entities/decode');
    textDecoder = (run) => decodeHTML(run, DecodingMode.Legacy);
  }
  return textDecoder(text);
}
