import type { LocalHit } from './index-types.ts';
import { words } from './split-identifiers.ts';

/**
 * Orders the documents found by name: the title missing fewest of the query's words first
 * (`color value type`: `<color> CSS value type` before `color SVG attribute`), then one that holds
 * the query as typed (`<color>` names the type, not the `color` attribute), then the one with fewest
 * other words (`<div> HTML element` before `<div> (web platform feature)`), then the one whose body
 * uses the query's words most often (`occurrences`, by URL: the CSS property `font-family` is
 * described in words, while the SVG attribute's page only names it), then BM25's order (`ranked`),
 * then the order they were added in. BM25 alone would prefer the shorter page: FTS5 divides by the
 * whole document's length, so a page with text of its own loses to a sibling that has none.
 */
export function orderNamed(
  query: string,
  named: LocalHit[],
  ranked: LocalHit[],
  occurrences: ReadonlyMap<string, number> = new Map(),
): LocalHit[] {
  if (named.length < 2) return named;
  const asked = new Set(words(query.toLowerCase()));
  const literal = query.trim().toLowerCase();
  const bm25 = (hit: LocalHit) => {
    const at = ranked.findIndex((other) => other.url === hit.url);
    return at < 0 ? ranked.length : at;
  };
  const distance = (hit: LocalHit) => {
    const own = new Set(words(hit.title.toLowerCase()));
    let missing = 0;
    for (const word of asked) if (!own.has(word)) missing += 1;
    let extra = 0;
    for (const word of own) if (!asked.has(word)) extra += 1;
    // Missing words weigh most, then the literal, then extra words.
    return missing * 1_000_000 + (hit.title.toLowerCase().includes(literal) ? 0 : 100_000) + extra;
  };
  return named
    .map((hit, position) => ({
      hit,
      position,
      distance: distance(hit),
      uses: occurrences.get(hit.url) ?? 0,
      bm25: bm25(hit),
    }))
    .sort((a, b) => a.distance - b.distance || b.uses - a.uses || a.bm25 - b.bm25 || a.position - b.position)
    .map(({ hit }) => hit);
}
