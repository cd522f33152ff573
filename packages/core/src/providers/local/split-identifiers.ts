/**
 * Identifier splitting. FTS5's `porter unicode61` tokenizer keeps `AbortController` as one token
 * (`abortcontrol` once stemmed), so a search for `abort` would never find it. Every word that holds
 * more than one identifier part is split here, and the parts are indexed in extra columns; queries
 * are split the same way.
 */
import { isAscii } from '@openmates/contract';

/** The three patterns the splitting runs on, for text of one alphabet or another. */
export interface IdentifierPatterns {
  /**
   * Words as the index and the query parser see them: a letter or digit followed by letters, marks
   * and digits (a word never starts with a lone combining mark, which the tokenizer would fold away).
   */
  readonly word: RegExp;
  /** Parts of an identifier: `HTMLElement` → `HTML`, `Element`; `h264Decoder` → `h`, `264`, `Decoder`. */
  readonly part: RegExp;
  /** Cheap test for a word that may split: a case change or a letter–digit boundary inside it. */
  readonly splittable: RegExp;
}

let unicode: IdentifierPatterns | undefined;

/**
 * The patterns for any text, by Unicode property. Built on first use: V8 parses a pattern when it
 * creates it, and parsing and compiling these property classes would cost every start of a process
 * that loads this module.
 */
export function unicodeIdentifierPatterns(): IdentifierPatterns {
  unicode ??= {
    word: /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu,
    part: /\p{Lu}+(?![\p{Ll}\p{M}])|\p{Lu}?[\p{Ll}\p{M}]+|\p{Lu}+|\p{Lo}+|\p{N}+/gu,
    splittable: /[\p{Ll}\p{N}]\p{Lu}|\p{Lu}\p{Lu}\p{Ll}|\p{L}\p{N}|\p{N}\p{L}/u,
  };
  return unicode;
}

/**
 * The same patterns for text that is all ASCII, each property reduced to its ASCII members (`Lu`
 * `A-Z`, `Ll` `a-z`, `N` `0-9`; no mark or other letter is ASCII). A test holds both to the same
 * answers on ASCII text; most queries and most of the demo corpus are ASCII.
 */
export const ASCII_IDENTIFIER_PATTERNS: IdentifierPatterns = {
  word: /[A-Za-z0-9]+/g,
  part: /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g,
  splittable: /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]|[A-Za-z][0-9]|[0-9][A-Za-z]/,
};

/** The patterns for `text`: the ASCII ones when it is all ASCII. */
function patternsFor(text: string): IdentifierPatterns {
  return isAscii(text) ? ASCII_IDENTIFIER_PATTERNS : unicodeIdentifierPatterns();
}

/** The words of `text` (letters, marks and digits; everything else separates). */
export function words(text: string): string[] {
  return wordsWith(patternsFor(text), text);
}

/** `words` with the patterns given (`ASCII_IDENTIFIER_PATTERNS` only for ASCII text); so the two below. */
export function wordsWith(patterns: IdentifierPatterns, text: string): string[] {
  return text.match(patterns.word) ?? [];
}

/**
 * Splits one identifier into lowercase parts: `AbortController` → `abort controller`,
 * `fetchEventSource` → `fetch event source`, `snake_case` → `snake case`, `XMLHttpRequest` →
 * `xml http request`. A plain word comes back as itself.
 */
export function splitIdentifier(identifier: string): string[] {
  return splitIdentifierWith(patternsFor(identifier), identifier);
}

export function splitIdentifierWith(patterns: IdentifierPatterns, identifier: string): string[] {
  const parts: string[] = [];
  for (const word of wordsWith(patterns, identifier)) {
    if (!patterns.splittable.test(word)) parts.push(word.toLowerCase());
    else for (const part of word.match(patterns.part) ?? [word]) parts.push(part.toLowerCase());
  }
  return parts;
}

/**
 * The extra text indexed next to `text`: the parts of every word that splits into more than one,
 * separated by spaces. Empty for ordinary prose, which keeps the extra columns small.
 */
export function identifierParts(text: string): string {
  return identifierPartsWith(patternsFor(text), text);
}

export function identifierPartsWith(patterns: IdentifierPatterns, text: string): string {
  let out = '';
  for (const word of wordsWith(patterns, text)) {
    if (!patterns.splittable.test(word)) continue;
    const parts = word.match(patterns.part);
    if (parts === null || parts.length < 2) continue;
    out += out === '' ? parts.join(' ') : ` ${parts.join(' ')}`;
  }
  return out;
}
