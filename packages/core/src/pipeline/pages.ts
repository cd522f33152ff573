import type { BudgetSession } from '../budget.ts';
import type { AnswerPage, ProviderAnswer, ProviderQuery, RawCandidate } from '../provider.ts';
import { ProviderError } from '../provider.ts';
import { candidateInScope, type ResultScope } from '../scope-filter.ts';
import { exchangePage } from './exchange.ts';
import type { Clock, Member } from './members.ts';
import { timed } from './timed.ts';
import { lastReachablePage, pageWindow } from './window.ts';

/** What paging needs of the search it runs in. */
export interface PagingRun {
  readonly signal: AbortSignal;
  readonly budget: BudgetSession;
  readonly clock: Clock;
}

/** What the pages of one query gathered so far. */
interface Gathered {
  readonly candidates: RawCandidate[];
  readonly seen: Set<string>;
  readonly suggestions: unknown[];
  kept: number;
  emptyBecause: string | undefined;
  /** What the first page said the provider searched for instead. */
  altered: unknown;
  /** The last page's word on whether more results exist past it. */
  more: boolean;
}

/** A key under which two spellings of one URL are one candidate (result building normalizes again). */
function urlKey(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  return URL.canParse(url) ? new URL(url).href : url;
}

/**
 * Adds a page's new candidates; returns how many were new. A query that can take only one page
 * needs no keys: they only tell whether a further page added anything, and result building drops
 * repeats of one URL itself.
 */
function gather(
  gathered: Gathered,
  answer: AnswerPage,
  first: boolean,
  options: { inScope: ((c: RawCandidate) => boolean) | undefined; onePage: boolean },
) {
  if (first && answer.suggestions) gathered.suggestions.push(...answer.suggestions);
  if (first) gathered.altered = answer.altered;
  gathered.more = answer.more;
  gathered.emptyBecause ??= answer.emptyBecause;
  if (options.onePage) {
    gathered.candidates.push(...answer.candidates);
    return answer.candidates.length;
  }
  const { inScope } = options;
  let added = 0;
  for (const candidate of answer.candidates) {
    // A candidate without a URL is kept for result building to refuse (and count); it is never new.
    const key = urlKey(candidate.url);
    if (key !== undefined && gathered.seen.has(key)) continue;
    if (key !== undefined) gathered.seen.add(key);
    added += 1;
    gathered.candidates.push(candidate);
    if (inScope === undefined || inScope(candidate)) gathered.kept += 1;
  }
  return added;
}

/**
 * A further page is a call of its own: debited from the request's budget and taken in the
 * provider's shared rate (a turn past the call's time ends paging). False: no further page.
 */
async function nextPage(run: PagingRun, member: Member, endsAt: number): Promise<boolean> {
  if (!run.budget.debitCall()) return false;
  try {
    await member.gate?.acquire(endsAt - run.clock.now(), run.signal);
    return true;
  } catch (error) {
    if (error instanceof ProviderError) return false;
    throw error;
  }
}

/**
 * The pages of one query of an HTTP provider (ADR 0075), in its result page's window (ADR 0106):
 * the window's first page under the call's timeout, then further pages of the window, each under
 * its own, while fewer than `fetchCount` distinct candidates (with a scope, candidates in scope) are
 * gathered, the last page said there is more and added something new, and
 * the budget allows. A later page that fails ends paging with what the earlier ones gathered.
 * `calls` counts the calls made.
 */
export async function fetchPages(
  run: PagingRun,
  member: Member,
  query: ProviderQuery,
  options: { scope: ResultScope | undefined; failover: boolean; calls: { count: number } },
): Promise<ProviderAnswer> {
  const { scope, failover, calls } = options;
  const inScope = scope === undefined ? undefined : candidateInScope(scope);
  const base = { scoped: scope !== undefined, wallClock: run.clock.wallClock() };
  const { capabilities } = member.provider;
  const window = pageWindow(capabilities, query, query.fetchCount);
  const last = window.first + window.size;
  const gathered: Gathered = {
    candidates: [],
    seen: new Set(),
    suggestions: [],
    kept: 0,
    emptyBecause: undefined,
    altered: undefined,
    more: false,
  };
  for (let page = window.first; page < last; page += 1) {
    const endsAt = run.clock.now() + member.timeoutMs;
    const first = page === window.first;
    if (!first) {
      if (gathered.kept >= query.fetchCount || !(await nextPage(run, member, endsAt))) break;
      calls.count += 1;
    }
    let answer: AnswerPage;
    try {
      answer = await timed(member.timeoutMs, run.signal, (signal) =>
        exchangePage(member, query, { page, first, ...base }, signal, { clock: run.clock, endsAt, failover }),
      );
    } catch (error) {
      if (first || run.signal.aborted) throw error;
      break;
    }
    if (gather(gathered, answer, first, { inScope, onePage: window.size === 1 }) === 0 || !answer.more) break;
  }
  if (gathered.candidates.length === 0 && gathered.emptyBecause !== undefined)
    throw new ProviderError('provider_unavailable', gathered.emptyBecause);
  const { candidates, suggestions, altered } = gathered;
  // A next result page the provider cannot reach holds nothing to offer.
  const more = gathered.more && (query.page ?? 1) < lastReachablePage(capabilities, query, query.fetchCount);
  return {
    candidates,
    more,
    ...(suggestions.length > 0 ? { suggestions } : {}),
    ...(altered === undefined ? {} : { altered }),
  };
}
