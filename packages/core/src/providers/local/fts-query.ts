import { splitIdentifier, words } from './split-identifiers.ts';

/**
 * FTS5 query building. Query text is never handed to FTS5 as syntax: it is cut into words here and
 * each word becomes a quoted FTS5 string, so `"foo" OR bar*` or `NEAR(` are searched as words.
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
 * The FTS5 MATCH expression for `query`, or undefined when the query has no word characters.
 * Duplicate words (case-insensitively) are searched once.
 */
export function buildMatchExpression(query: string, mode: MatchMode): string | undefined {
  const unique = [...new Map(words(query).map((word) => [word.toLowerCase(), word])).values()];
  if (unique.length === 0) return undefined;
  return unique.map(termExpression).join(mode === 'all' ? ' AND ' : ' OR ');
}

/** True when `query` has more than one distinct word, so an any-word search could find more. */
export function hasSeveralWords(query: string): boolean {
  return new Set(words(query).map((word) => word.toLowerCase())).size > 1;
}
