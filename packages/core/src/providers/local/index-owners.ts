import { deciding as decidingOf } from './fts-query.ts';
import type { IndexConnection } from './index-connection.ts';
import { EXCERPT_BODY_CHARS, queryTerms } from './index-excerpts.ts';
import { searchFilters } from './index-filters.ts';
import { type HitRow, hitOf, LEADING_BODY_CHARS, leadingWords } from './index-hits.ts';
import type { LocalHit, LocalSearchOptions } from './index-types.ts';
import { nameKey } from './name-key.ts';
import { words } from './split-identifiers.ts';

/**
 * Results looked at for members of one owner: `WebSocket: close` and `WebSocket: send` among the
 * first ten bring `WebSocket` before them.
 */
const OWNER_WINDOW = 10;
/** Most documents read for one owner's name key (a name is shared by a handful of pages). */
const MAX_OWNER_ROWS = 20;

/** The owner a member's title names (`WebSocket` in `WebSocket: close`), or undefined. */
function ownerOf(title: string): string | undefined {
  const at = title.indexOf(': ');
  if (at <= 0) return undefined;
  const owner = title.slice(0, at).trim();
  return owner.includes(' ') ? undefined : owner;
}

/** True when `title` holds each of `words` (lowercase) as a word. */
function holdsAll(title: string, wanted: readonly string[]): boolean {
  const own = new Set(words(title.toLowerCase()));
  return wanted.every((word) => own.has(word));
}

/**
 * `ranked` with owners' pages brought forward (ADR 0121): when two or more of the first
 * OWNER_WINDOW results are members of one owner (`CloseEvent: code`, `CloseEvent: reason`) and the
 * index holds a page titled with the owner's name alone (`CloseEvent`) that the search's filters
 * admit, that page comes right before the first of them whose title does not hold every deciding
 * word of the query, moved up when it was further down. A question's words are spread over an
 * interface's members, and the interface's page is where its answer starts; a member the query
 * names (`addEventListener`) stays first.
 */
export function withOwners(
  connection: IndexConnection,
  ranked: LocalHit[],
  options: LocalSearchOptions,
  query: string,
): LocalHit[] {
  const counts = new Map<string, number>();
  for (const hit of ranked.slice(0, OWNER_WINDOW)) {
    const owner = ownerOf(hit.title);
    if (owner !== undefined) counts.set(owner, (counts.get(owner) ?? 0) + 1);
  }
  const owners = [...counts].filter(([, count]) => count > 1).map(([owner]) => owner);
  if (owners.length === 0) return ranked;
  const filters = searchFilters(options);
  const terms = queryTerms(query);
  const deciding = decidingOf(query).map((word) => word.toLowerCase());
  const statement = connection.statement(
    `SELECT d.url, f.title, d.description, d.language, d.published, d.family_friendly,
       CASE WHEN d.description IS NULL THEN substr(f.body, 1, ${LEADING_BODY_CHARS}) END AS snippet,
       ${options.excerpts === true ? `substr(f.body, 1, ${EXCERPT_BODY_CHARS})` : 'NULL'} AS body
     FROM docs d CROSS JOIN docs_fts f ON f.rowid = d.id
     WHERE d.name_key = ? AND ${filters.sql}
     ORDER BY d.id LIMIT ?`,
  );
  let result = ranked;
  for (const owner of owners) {
    const rows = statement.all(nameKey(owner), ...filters.values, MAX_OWNER_ROWS) as unknown as HitRow[];
    const row = rows.find((candidate) => candidate.title === owner);
    if (row === undefined) continue;
    const first = result.findIndex((hit) => ownerOf(hit.title) === owner && !holdsAll(hit.title, deciding));
    if (first < 0) continue;
    const present = result.findIndex((hit) => hit.url === row.url);
    if (present >= 0 && present < first) continue;
    const page =
      present >= 0
        ? result[present]
        : hitOf({ ...row, snippet: row.snippet === null ? null : leadingWords(row.snippet) }, options, terms);
    if (page === undefined) continue;
    const rest = result.filter((hit) => hit.url !== row.url);
    result = [...rest.slice(0, first), page, ...rest.slice(first)];
  }
  return result;
}
