import type { LocalHit } from './index-types.ts';
import { words } from './split-identifiers.ts';

/**
 * Orders the documents found by name: the title missing fewest of the query's words first
 * (`color value type`: `<color> CSS value type` before `color SVG attribute`), then one that holds
 * the query as typed (`<color>` names the type, not the `color` attribute), then the one with fewest
 * other words (`<div> HTML element` before `<div> (web platform feature)`), then BM25's order
 * (`ranked`), then the order they were added in.
 */
export function orderNamed(query: string, named: LocalHit[], ranked: LocalHit[]): LocalHit[] {
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
    // Missing words weigh most, then the literal, then extra words, then BM25's place.
    return missing * 1_000_000 + (hit.title.toLowerCase().includes(literal) ? 0 : 100_000) + extra * 1_000 + bm25(hit);
  };
  return named
    .map((hit, position) => ({ hit, position, distance: distance(hit) }))
    .sort((a, b) => a.distance - b.distance || a.position - b.position)
    .map(({ hit }) => hit);
}
