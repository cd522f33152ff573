import { QUESTION_PHRASE_LENGTHS, QUESTION_VOCABULARY, STOP_WORDS } from './question-words.ts';
import { splitIdentifier, words } from './split-identifiers.ts';

/**
 * FTS5 query building. Query text is never handed to FTS5 as syntax: it is cut into words here and
 * each word becomes a quoted FTS5 string, so `"foo" OR bar*` or `NEAR(` are searched as words.
 * Stop words and question words are left out, and a word people ask with is searched together with
 * the words reference pages use for it (ADR 0121).
 */

/** How query words combine: every word required, or any word. */
export type MatchMode = 'all' | 'any';

/** Quotes one word as an FTS5 string (double quotes doubled). */
export function quoteTerm(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** One query word as an FTS5 expression: `AbortController` also matches `abort` AND `controller`. */
function termExpression(word: string): string {
  const parts = splitIdentifier(word);
  if (parts.length < 2) return quoteTerm(word);
  return `(${quoteTerm(word)} OR (${parts.map(quoteTerm).join(' AND ')}))`;
}

/**
 * The words of `query` that decide what it is about, once each (case-insensitively): its words
 * without stop words, or all of them when nothing else is left.
 */
export function deciding(query: string): string[] {
  const unique = [...new Map(words(query).map((word) => [word.toLowerCase(), word])).values()];
  const kept = unique.filter((word) => !STOP_WORDS.has(word.toLowerCase()));
  return kept.length > 0 ? kept : unique;
}

/** Words searched as one: one word, or several in a row (`remove duplicates`), as a phrase. */
function phraseExpression(phrase: string): string {
  return phrase.includes(' ') ? quoteTerm(phrase) : termExpression(phrase);
}

/**
 * The FTS5 expression of each deciding word of `query` (see `deciding`), in query order. Words the
 * question vocabulary knows, alone or in a row (`remove duplicates`), are one expression with the
 * reference's words for them as alternatives (`"remove duplicates" OR "unique values"`).
 */
export function wordExpressions(query: string): string[] {
  const kept = deciding(query);
  const lower = kept.map((word) => word.toLowerCase());
  const expressions: string[] = [];
  for (let at = 0; at < kept.length; ) {
    const known = QUESTION_PHRASE_LENGTHS.map((length) => lower.slice(at, at + length).join(' ')).find((phrase) =>
      QUESTION_VOCABULARY.has(phrase),
    );
    if (known === undefined) {
      expressions.push(termExpression(kept[at] ?? ''));
      at += 1;
      continue;
    }
    const alternatives = QUESTION_VOCABULARY.get(known) ?? [];
    expressions.push(`(${[known, ...alternatives].map(phraseExpression).join(' OR ')})`);
    at += known.split(' ').length;
  }
  return expressions;
}

/**
 * The FTS5 MATCH expression for `query`, or undefined when the query has no word characters.
 * Duplicate words (case-insensitively) are searched once, stop words only when nothing else is left.
 */
export function buildMatchExpression(query: string, mode: MatchMode): string | undefined {
  const expressions = wordExpressions(query);
  if (expressions.length === 0) return undefined;
  return expressions.join(mode === 'all' ? ' AND ' : ' OR ');
}
