import type { NormalizedRequestItem, ResultGroup } from '@openmates/contract';
import type { SearchRun } from '../pipeline/call.ts';
import type { Settled } from '../pipeline/chain.ts';
import type { Member } from '../pipeline/members.ts';
import type { ScopedQuery } from '../providers/shared/site-operators.ts';

/**
 * One group of a search as admitted: the group, the member that answered it (the last one tried,
 * for a failed one), the wait a rate-limited group asked for, and its query, its domain scope (the
 * operators the engine added) and its provider's suggestions.
 */
export interface AdmittedGroup extends ScopedQuery {
  readonly group: ResultGroup;
  answeredBy: number | undefined;
  retryAfterMs: number | undefined;
  suggestions: readonly unknown[];
}

/** What the groups of one search came to, in item order. */
export type Admitted = readonly AdmittedGroup[];

export function emptyAdmission(items: readonly NormalizedRequestItem[]): AdmittedGroup[] {
  return items.map(({ id, query, include_domains, exclude_domains }) => ({
    group: { id, results: [] },
    answeredBy: undefined,
    retryAfterMs: undefined,
    query,
    include_domains,
    exclude_domains,
    suggestions: [],
  }));
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
  const entry = admitted[index] as AdmittedGroup;
  const { group } = entry;
  entry.answeredBy = member;
  if (members.length > 1) group.provider = run.redact((members[member ?? 0] as Member).provider.name);
  if ('error' in outcome) {
    group.error = outcome.error;
    entry.retryAfterMs = outcome.retryAfterMs;
    return group;
  }
  const { admitted: results, cut } = run.budget.admit(outcome.results, item.count);
  group.results = results;
  group.more = outcome.more;
  if (outcome.altered_query !== undefined) group.altered_query = outcome.altered_query;
  if (cut > 0) group.sources_cut = cut;
  entry.suggestions = outcome.suggestions;
  return group;
}
