import type { NormalizedRequestItem, ResultGroup } from '@openmates/contract';
import { copiedWhole } from '../fit-response.ts';
import type { SearchRun } from '../pipeline/call.ts';
import type { Settled } from '../pipeline/chain.ts';
import type { Member } from '../pipeline/members.ts';
import type { ScopedQuery } from '../providers/shared/site-operators.ts';

/** What the groups of one search came to, in item order. */
export interface Admitted {
  readonly groups: ResultGroup[];
  /** The member that answered each group (the last one tried, for a failed one). */
  readonly answeredBy: (number | undefined)[];
  /** The wait a rate-limited group asked for. */
  readonly retryAfterMs: (number | undefined)[];
  /** Each group's query, its domain scope (the operators the engine added) and its provider's suggestions. */
  readonly suggestions: (ScopedQuery & { suggestions: readonly unknown[] })[];
}

export function emptyAdmission(items: readonly NormalizedRequestItem[]): Admitted {
  return {
    groups: items.map((item) => ({ id: item.id, results: [] })),
    answeredBy: items.map(() => undefined),
    retryAfterMs: items.map(() => undefined),
    suggestions: items.map(({ query, include_domains, exclude_domains }) => ({
      query,
      include_domains,
      exclude_domains,
      suggestions: [],
    })),
  };
}

/**
 * Admits one settled group, synchronously when its call completes: completion order, so the
 * distinct-source budget is never overbooked. Says who answered only when several may answer.
 * Returns the group as admitted.
 */
export function admit(
  run: SearchRun,
  members: readonly Member[],
  admitted: Admitted,
  item: NormalizedRequestItem,
  index: number,
  settled: Settled,
): ResultGroup {
  const { outcome, member } = settled;
  const group = admitted.groups[index] as ResultGroup;
  admitted.answeredBy[index] = member;
  if (members.length > 1) group.provider = run.redact((members[member ?? 0] as Member).provider.name);
  group.usage = settled.usage;
  if ('error' in outcome) {
    group.error = outcome.error;
    admitted.retryAfterMs[index] = outcome.retryAfterMs;
    return group;
  }
  const { admitted: results, cut } = run.budget.admit(outcome.results, item.count);
  group.results = results;
  group.more = outcome.more;
  if (outcome.altered_query !== undefined) group.altered_query = outcome.altered_query;
  if (results.length === outcome.results.length) copiedWhole(results, outcome.results);
  if (cut > 0) group.sources_cut = cut;
  (admitted.suggestions[index] as { suggestions: readonly unknown[] }).suggestions = outcome.suggestions;
  return group;
}
