import type { BudgetSession } from '../budget.ts';
import { type AdmissionRules, admitCandidate } from '../build-results.ts';
import type { CallMeter } from '../call-meter.ts';
import type { AnswerPage, ProviderAnswer, ProviderQuery, RawCandidate } from '../provider.ts';
import { ProviderError } from '../provider.ts';
import { exchangePage } from './exchange.ts';
import type { Clock, Member } from './members.ts';
import type { Meter } from './meter.ts';
import { timed } from './timed.ts';
import { lastReachablePage, pageWindow } from './window.ts';

/** What paging needs of the search it runs in. */
export interface PagingRun {
  readonly signal: AbortSignal;
  readonly budget: BudgetSession;
  readonly clock: Clock;
  readonly meter?: CallMeter | undefined;
}

/** What the pages of one query gathered so far. */
interface Gathered {
  readonly candidates: RawCandidate[];
  readonly seen: Set<string>;
  readonly suggestions: unknown[];
  /** The normalized URLs of the candidates admission would keep, and how many they are. */
  readonly admitted: Set<string>;
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
 * Adds a page's new candidates and counts those admission would keep; returns how many were new. A
 * query that can take only one page needs neither: the count only decides whether to ask for a
 * further page, and result building drops repeats of one URL itself.
 */
function gather(
  gathered: Gathered,
  answer: AnswerPage,
  first: boolean,
  options: { rules: AdmissionRules; onePage: boolean },
) {
  if (first && answer.suggestions) gathered.suggestions.push(...answer.suggestions);
  if (first) gathered.altered = answer.altered;
  gathered.more = answer.more;
  gathered.emptyBecause ??= answer.emptyBecause;
  if (options.onePage) {
    gathered.candidates.push(...answer.candidates);
    return answer.candidates.length;
  }
  let added = 0;
  for (const candidate of answer.candidates) {
    // A candidate without a URL is kept for result building to refuse (and count); it is never new.
    const key = urlKey(candidate.url);
    if (key !== undefined && gathered.seen.has(key)) continue;
    if (key !== undefined) gathered.seen.add(key);
    added += 1;
    gathered.candidates.push(candidate);
    if (typeof admitCandidate(candidate, options.rules, gathered.admitted) !== 'string') gathered.kept += 1;
  }
  return added;
}

/**
 * A further page is a call of its own: debited from the request's budget and taken in the
 * provider's shared rate (a turn past the call's time ends paging). False: no further page.
 */
async function nextPage(run: PagingRun, member: Member, endsAt: number): Promise<boolean> {
  if (!run.budget.debitCall()) return false;
  // A further page is a call of the caller's quota too: a spent quota ends paging (ADR 0136).
  if (await run.meter?.debit(member.provider.id)) return false;
  try {
    await member.gate?.acquire(endsAt - run.clock.now(), run.signal);
    return true;
  } catch (error) {
    if (error instanceof ProviderError) return false;
    throw error;
  }
}

/**
 * The pages of one query of an HTTP provider (ADR 0075, ADR 0100), drawn in order from its result
 * page's provider window (ADR 0103): the first under the call's timeout, then further pages, each
 * under its own, while fewer than `count` candidates pass every admission rule result building will
 * apply (`rules`: URL rules, secrets, scope, tabloids, repeats), the last page said there is more
 * and added something new, and the budget allows. A later page that fails ends paging with what the
 * earlier ones gathered. `calls` counts the pages asked for; `meter` the exchanges and what they bill.
 */
export async function fetchPages(
  run: PagingRun,
  member: Member,
  query: ProviderQuery,
  options: { rules: AdmissionRules; failover: boolean; calls: { count: number }; meter?: Meter },
): Promise<ProviderAnswer> {
  const { rules, failover, calls, meter } = options;
  const base = { scoped: rules.scope !== undefined, wallClock: run.clock.wallClock() };
  const window = pageWindow(member.provider.capabilities, query, query.fetchCount);
  const last = window.first + window.size;
  const gathered: Gathered = {
    candidates: [],
    seen: new Set(),
    suggestions: [],
    admitted: new Set(),
    kept: 0,
    emptyBecause: undefined,
    altered: undefined,
    more: false,
  };
  for (let page = window.first; page < last; page += 1) {
    const endsAt = run.clock.now() + member.timeoutMs;
    const first = page === window.first;
    if (!first) {
      if (gathered.kept >= query.count || !(await nextPage(run, member, endsAt))) break;
      calls.count += 1;
    }
    let answer: AnswerPage;
    try {
      answer = await timed(member.timeoutMs, run.signal, (signal) =>
        exchangePage(member, query, { page, first, ...base }, signal, { clock: run.clock, endsAt, failover, meter }),
      );
    } catch (error) {
      if (first || run.signal.aborted) throw error;
      break;
    }
    if (gather(gathered, answer, first, { rules, onePage: window.size === 1 }) === 0 || !answer.more) break;
  }
  if (gathered.candidates.length === 0 && gathered.emptyBecause !== undefined)
    throw new ProviderError('provider_unavailable', gathered.emptyBecause);
  const { candidates, suggestions, altered } = gathered;
  // A next result page the provider cannot reach holds nothing to offer.
  const more =
    gathered.more && (query.page ?? 1) < lastReachablePage(member.provider.capabilities, query, query.fetchCount);
  return {
    candidates,
    more,
    ...(suggestions.length > 0 ? { suggestions } : {}),
    ...(altered === undefined ? {} : { altered }),
  };
}
