import {
  type GroupErrorCode,
  MAX_ERROR_MESSAGE_LENGTH,
  type ResultGroup,
  type UsageTotals,
  type WebSearchResponse,
} from '@openmates/contract';
import { mergeSuggestions } from '../build-results.ts';
import { EngineError } from '../engine-error.ts';
import { fitResponseJson, ResponseTooLargeError } from '../fit-response.ts';
import { truncate } from '../hygiene/index.ts';
import type { SearchRun } from '../pipeline/call.ts';
import type { Member } from '../pipeline/members.ts';
import { roundUsd } from '../pipeline/meter.ts';
import type { Admitted } from './admit.ts';

/** A search's response, the JSON that fitting measured, and the wait to advise when only rate limits failed it. */
export interface SearchJson {
  response: WebSearchResponse;
  json: string;
  /** Seconds before a retry can succeed, when every group failed as `provider_rate_limited` (or every one as `quota_exceeded`). */
  retryAfterS?: number;
}

function formatId(id: string | number): string {
  return typeof id === 'number' ? String(id) : JSON.stringify(id);
}

/** The response-level error: which groups failed, and the first failure's message. */
function summarizeFailures(groups: readonly ResultGroup[]): { error: string; code: GroupErrorCode } | undefined {
  const failed = groups.filter((g) => g.error !== undefined);
  const first = failed[0]?.error;
  if (!first) return undefined;
  const scope = failed.length === groups.length ? 'every query' : `${failed.length} of ${groups.length} queries`;
  const ids = failed.map((g) => formatId(g.id)).join(', ');
  const error = truncate(
    `The search failed for ${scope} (id${failed.length === 1 ? '' : 's'} ${ids}): ${first.message}`,
    MAX_ERROR_MESSAGE_LENGTH,
  );
  return { error, code: first.code };
}

/**
 * The response's `provider`: the names of the providers that answered a group, in request order,
 * each once, joined with ", "; the first provider's name when none answered.
 */
function answeredNames(members: readonly Member[], admitted: Admitted): string {
  const first = (members[0] as Member).provider.name;
  if (members.length === 1) return first;
  const names: string[] = [];
  for (const { group, answeredBy: member } of admitted) {
    if (group.error !== undefined || member === undefined) continue;
    const name = (members[member] as Member).provider.name;
    if (!names.includes(name)) names.push(name);
  }
  return names.length > 0 ? names.join(', ') : first;
}

/** The request's usage: its groups' summed. */
function usageTotals(groups: readonly ResultGroup[]): UsageTotals {
  const totals: UsageTotals = { calls: 0, from_cache: 0, shared: 0 };
  let usd: number | undefined;
  for (const { usage } of groups) {
    if (!usage) continue;
    totals.calls += usage.calls;
    if (usage.source === 'cache') totals.from_cache += 1;
    if (usage.source === 'shared') totals.shared += 1;
    if (usage.cost_usd !== undefined) usd = (usd ?? 0) + usage.cost_usd;
  }
  if (usd !== undefined) totals.cost_usd = roundUsd(usd);
  return totals;
}

/** The whole response before fitting: groups, provider, suggestions, the error summary and the budget. */
function assemble(run: SearchRun, members: readonly Member[], admitted: Admitted, requestId: string) {
  const groups = admitted.map((entry) => entry.group);
  const response: WebSearchResponse = { results: groups, provider: run.redact(answeredNames(members, admitted)) };
  const merged = mergeSuggestions(admitted, run.redact);
  if (merged.length > 0) response.suggestions_follow_up_requests = merged;
  const failure = summarizeFailures(groups);
  if (failure) {
    response.error = run.redact(failure.error);
    response.code = failure.code;
  }
  response.request_id = requestId;
  const { budget } = run;
  response.budget = {
    calls_used: budget.callsUsed,
    max_sources: budget.maxSources,
    sources_admitted: budget.sourcesAdmitted,
    sources_cut: budget.sourcesCut,
    notes_fitted_out: 0,
    suggestions_fitted_out: 0,
    results_fitted_out: 0,
  };
  response.usage = usageTotals(groups);
  return { response, code: failure?.code };
}

/**
 * The engine's last step: the response assembled and fitted under `maxResponseBytes` (generated
 * text first, then results), logged once, with the wait to advise when only rate limits failed it.
 */
export function fit(
  run: SearchRun,
  members: readonly Member[],
  admitted: Admitted,
  options: { requestId: string; maxResponseBytes: number; started: number },
): SearchJson {
  const { response, code } = assemble(run, members, admitted, options.requestId);
  let fitted: ReturnType<typeof fitResponseJson>;
  try {
    fitted = fitResponseJson(response, options.maxResponseBytes);
  } catch (error) {
    if (!(error instanceof ResponseTooLargeError)) throw error;
    run.log.error(
      { event: 'search', code: 'internal_error', size: error.size, max_bytes: error.maxBytes },
      'response does not fit even without results',
    );
    throw new EngineError('internal_error', undefined, { cause: error });
  }
  const groups = admitted.map((entry) => entry.group);
  run.log.info(
    {
      event: 'search',
      groups: groups.length,
      failed: groups.filter((g) => g.error).length,
      code,
      results: fitted.response.results.reduce((n, g) => n + g.results.length, 0),
      sources_admitted: run.budget.sourcesAdmitted,
      sources_cut: run.budget.sourcesCut,
      results_fitted_out: fitted.response.budget?.results_fitted_out,
      elapsed_ms: Math.round(run.clock.now() - options.started),
    },
    'search finished',
  );
  // Every group refused by a rate limit, or every group refused by the key's quota (ADR 0136).
  const waited = (code: string) => groups.every((g) => g.error?.code === code);
  if (!waited('provider_rate_limited') && !waited('quota_exceeded')) return fitted;
  const wait = Math.max(...admitted.map((entry) => entry.retryAfterMs ?? 0));
  return { ...fitted, retryAfterS: Math.max(1, Math.ceil(wait / 1000)) };
}
