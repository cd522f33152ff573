import { buildMatchExpression, wordExpressions } from './fts-query.ts';
import type { IndexConnection } from './index-connection.ts';
import { EXCERPT_BODY_CHARS, queryTerms, termOccurrences } from './index-excerpts.ts';
import { searchFilters } from './index-filters.ts';
import { type HitRow, hitOf, LEADING_BODY_CHARS, leadingWords, SNIPPET_TOKENS } from './index-hits.ts';
import { withOwners } from './index-owners.ts';
import type { LocalHit, LocalSearchOptions } from './index-types.ts';
import { nameKeys } from './name-key.ts';
import { orderNamed } from './named-order.ts';

/**
 * Most documents read for one name key; they are ordered (see `orderNamed`) before the search's own
 * limit applies. Names are shared by a handful of pages (`<a>` in HTML, SVG and MathML), never more.
 */
const MAX_NAMED = 20;
/**
 * A search whose every word finds fewer documents than this (or than asked for) is relaxed, unless
 * the query names a page.
 */
const RELAX_BELOW = 3;

/**
 * BM25 search on the query's deciding words (ADR 0121), every word required; when that finds little
 * (nothing, when the query names a page), relaxed to any word. The documents the query names (see
 * `namedHits`) come first, then owners' pages before their members (see `withOwners`).
 */
export function searchIndex(connection: IndexConnection, query: string, options: LocalSearchOptions): LocalHit[] {
  const limit = Math.max(0, Math.floor(options.limit));
  if (limit === 0) return [];
  const all = buildMatchExpression(query, 'all');
  if (all === undefined) return [];
  const terms = queryTerms(query);
  return connection.run('read', () => {
    const named = namedHits(connection, query, options, terms);
    // BM25 ranks the rest; asking for as many more as can be named keeps `limit` after removing them.
    const wanted = limit + Math.min(named.length, limit);
    let ranked = rankedHits(connection, all, wanted, options, terms);
    const expressions = wordExpressions(query);
    // Relaxed: any deciding word, ranked by BM25, so a rarer word of the question counts for more.
    // A query that names a page is answered by name; it is relaxed only when nothing else matched.
    const little = named.length === 0 ? Math.min(RELAX_BELOW, wanted) : 1;
    if (ranked.length < little && expressions.length > 1)
      ranked = rankedHits(connection, expressions.join(' OR '), wanted, options, terms);
    ranked = withOwners(connection, ranked, options, query).slice(0, wanted);
    if (named.length === 0) return ranked;
    const occurrences = new Map(named.map(({ hit, occurrences }) => [hit.url, occurrences]));
    const namedOnly = named.map(({ hit }) => hit);
    return [
      ...orderNamed(query, namedOnly, ranked, occurrences),
      ...ranked.filter((hit) => !occurrences.has(hit.url)),
    ].slice(0, limit);
  });
}

/**
 * The documents whose name key is the query's (`div element` finds `<div> HTML element`), at most
 * MAX_NAMED, in the order they were added: one probe
 * of the name-key index and a rowid lookup per document found, with no full-text work, so a query
 * that names nothing costs one index probe. Without a stored description, the beginning of the
 * body stands in for the snippet: the page is about the name. Each comes with how often its body
 * uses the query's words, which `orderNamed` weighs.
 */
function namedHits(
  connection: IndexConnection,
  query: string,
  options: LocalSearchOptions,
  terms: readonly string[],
): { hit: LocalHit; occurrences: number }[] {
  const keys = nameKeys(query);
  const key = keys[0];
  if (key === undefined) return [];
  const filters = searchFilters(options);
  // CROSS JOIN keeps the name-key probe as the outer loop; FTS5 is only read by rowid.
  const rows = connection
    .statement(
      `SELECT d.url, f.title, d.description, d.language, d.published, d.family_friendly,
         CASE WHEN d.description IS NULL THEN substr(f.body, 1, ${LEADING_BODY_CHARS}) END AS snippet,
         substr(f.body, 1, ${EXCERPT_BODY_CHARS}) AS body
       FROM docs d CROSS JOIN docs_fts f ON f.rowid = d.id
       WHERE d.name_key IN (?, ?) AND ${filters.sql}
       ORDER BY d.id LIMIT ?`,
    )
    .all(key, keys[1] ?? key, ...filters.values, MAX_NAMED) as unknown as HitRow[];
  return rows.map((row) => ({
    hit: hitOf({ ...row, snippet: row.snippet === null ? null : leadingWords(row.snippet) }, options, terms),
    occurrences: termOccurrences(row.body ?? '', terms),
  }));
}

/**
 * The documents matching the FTS5 expression `match`, best BM25 rank first, at most `limit`; their
 * bodies are read only for excerpts.
 */
function rankedHits(
  connection: IndexConnection,
  match: string,
  limit: number,
  options: LocalSearchOptions,
  terms: readonly string[],
): LocalHit[] {
  const filters = searchFilters(options);
  const body = options.excerpts === true ? `substr(f.body, 1, ${EXCERPT_BODY_CHARS})` : 'NULL';
  const rows = connection
    .statement(
      `SELECT d.url, f.title, d.description, d.language, d.published, d.family_friendly,
         CASE WHEN d.description IS NULL THEN snippet(docs_fts, 1, '', '', '…', ${SNIPPET_TOKENS}) END AS snippet,
         ${body} AS body
       FROM docs_fts f JOIN docs d ON d.id = f.rowid
       WHERE docs_fts MATCH ? AND ${filters.sql}
       ORDER BY f.rank LIMIT ?`,
    )
    .all(match, ...filters.values, limit) as unknown as HitRow[];
  return rows.map((row) => hitOf(row, options, terms));
}
