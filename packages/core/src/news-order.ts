import type { RawCandidate } from './provider.ts';
import { publishedAt } from './scope-filter.ts';

/**
 * News candidates newest first: those whose publication date reads as an ISO date in the order of
 * their dates, latest first (ties in the provider's order), then the undated ones in the provider's
 * order. A news result's worth is mostly its date; the provider's own rank still decides among equals.
 */
export function newestFirst(candidates: readonly RawCandidate[]): RawCandidate[] {
  const dated: { candidate: RawCandidate; at: number }[] = [];
  const undated: RawCandidate[] = [];
  for (const candidate of candidates) {
    const at = publishedAt(candidate.published);
    if (at === undefined) undated.push(candidate);
    else dated.push({ candidate, at });
  }
  dated.sort((a, b) => b.at - a.at);
  return [...dated.map(({ candidate }) => candidate), ...undated];
}
