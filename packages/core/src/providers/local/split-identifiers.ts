/**
 * Identifier splitting. FTS5's `porter unicode61` tokenizer keeps `AbortController` as one token
 * (`abortcontrol` once stemmed), so a search for `abort` would never find it. Every word that holds
 * more than one identifier part is split here, and the parts are indexed in extra columns; queries
 * are split the same way.
 */

/**
 * Words as the index and the query parser see them: a letter or digit followed by letters, marks
 * and digits (a word never starts with a lone combining mark, which the tokenizer would fold away).
 */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
/** Parts of an identifier: `HTMLElement` → `HTML`, `Element`; `h264Decoder` → `h`, `264`, `Decoder`. */
const PART = /\p{Lu}+(?![\p{Ll}\p{M}])|\p{Lu}?[\p{Ll}\p{M}]+|\p{Lu}+|\p{Lo}+|\p{N}+/gu;
/** Cheap test for a word that may split: a case change or a letter–digit boundary inside it. */
const SPLITTABLE = /[\p{Ll}\p{N}]\p{Lu}|\p{Lu}\p{Lu}\p{Ll}|\p{L}\p{N}|\p{N}\p{L}/u;

/** The words of `text` (letters, marks and digits; everything else separates). */
export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/**
 * Splits one identifier into lowercase parts: `AbortController` → `abort controller`,
 * `fetchEventSource` → `fetch event source`, `snake_case` → `snake case`, `XMLHttpRequest` →
 * `xml http request`. A plain word comes back as itself.
 */
export function splitIdentifier(identifier: string): string[] {
  const parts: string[] = [];
  for (const word of words(identifier)) {
    if (!SPLITTABLE.test(word)) parts.push(word.toLowerCase());
    else for (const part of word.match(PART) ?? [word]) parts.push(part.toLowerCase());
  }
  return parts;
}

/**
 * The extra text indexed next to `text`: the parts of every word that splits into more than one,
 * separated by spaces. Empty for ordinary prose, which keeps the extra columns small.
 */
export function identifierParts(text: string): string {
  let out = '';
  for (const word of words(text)) {
    if (!SPLITTABLE.test(word)) continue;
    const parts = word.match(PART);
    if (parts === null || parts.length < 2) continue;
    out += out === '' ? parts.join(' ') : ` ${parts.join(' ')}`;
  }
  return out;
}
