import type { GroupErrorCode, GroupUsage, NormalizedRequestItem } from '@openmates/contract';
import { providerIssues } from '../capabilities.ts';
import type { CachedCall } from '../result-cache.ts';
import { rateLimitedError } from '../upstream-gate.ts';
import { type CallOutcome, callMember, lookup, type SearchRun } from './call.ts';
import { joinFlight, startFlight } from './flights.ts';
import type { Member } from './members.ts';
import { groupUsage, type Meter, newMeter } from './meter.ts';

/**
 * The group error codes after which a group goes to the next provider of the chain: the provider's
 * own failures. A validation error never reaches a provider, and a caller that aborted gets nothing.
 */
const FAILOVER_CODES: ReadonlySet<GroupErrorCode> = new Set([
  'provider_rate_limited',
  'provider_unavailable',
  'provider_timeout',
  'provider_error',
  'provider_auth',
]);

/** A group's last outcome and the member it came from (undefined: none was tried). */
export interface Settled {
  readonly outcome: CallOutcome;
  readonly member: number | undefined;
  /** What answering it cost, over every provider tried. */
  readonly usage: GroupUsage;
}

/** One provider's part of a group: the call it made (or the flight it joined, or its cache). */
async function attempt(
  run: SearchRun,
  member: Member,
  item: NormalizedRequestItem,
  index: number,
  options: { failover: boolean; looked: { cached: CachedCall | undefined }; meter: Meter },
): Promise<{ outcome: CallOutcome; source: GroupUsage['source'] } | 'budget'> {
  const { cached } = options.looked;
  // An identical call in flight in this process answers this item too: no call, nothing debited (ADR 0134).
  const joined = cached ? undefined : joinFlight(member.flights, item, run.signal);
  if (joined) {
    run.log.info({ event: 'provider_call', group: index, shared: true }, 'waiting for an identical call');
    return { outcome: await joined, source: 'shared' };
  }
  if (!run.budget.debitCall()) return 'budget';
  if (cached) return { outcome: cached, source: 'cache' };
  const outcome = await startFlight(member.flights, item, run.signal, (signal) =>
    callMember({ ...run, signal }, member, item, index, options),
  );
  return { outcome, source: 'provider' };
}

/** Why a later member is not tried for this group, or undefined when it is. */
function skipReason(run: SearchRun, member: Member, item: NormalizedRequestItem, index: number, deadline: number) {
  // A caller that left gets nothing more started (a running call ends on the abort itself).
  run.signal.throwIfAborted();
  if (run.clock.now() >= deadline) return 'deadline';
  if (providerIssues(member.provider, item, index).length > 0) return 'options';
  return undefined;
}

const SKIPPED = {
  deadline: 'request deadline passed',
  options: 'provider cannot apply the options',
  paused: 'provider paused',
  budget: 'call budget spent',
} as const;

/**
 * With another provider behind it, a member paused by a shared 429 is skipped (no call, nothing
 * debited), though its cache is still asked: a pause only keeps calls away.
 */
async function pausedOrCached(run: SearchRun, member: Member, item: NormalizedRequestItem, index: number) {
  const looked = { cached: await lookup(run, member, item, index) };
  const pausedMs = looked.cached || member.gate === undefined ? 0 : await member.gate.pausedFor();
  if (pausedMs <= 0) return { looked };
  const refused = rateLimitedError(pausedMs);
  return { paused: { error: { code: refused.code, message: refused.message }, retryAfterMs: pausedMs } };
}

/**
 * One group through the chain (ADR 0069): the first provider, then the next one while a call fails
 * as the provider's fault and the request's deadline has not passed. A later provider that cannot
 * apply the item is skipped, and so is one paused by a shared 429 while another stands behind it.
 * Every call made debits the budget; an item identical to a call in flight waits for it instead.
 */
export async function settleGroup(
  run: SearchRun,
  members: readonly Member[],
  item: NormalizedRequestItem,
  index: number,
  deadline: number,
): Promise<Settled> {
  let last: Omit<Settled, 'usage'> | undefined;
  let source: GroupUsage['source'] = 'provider';
  const metered: { meter: Meter; unitUsd: number | undefined }[] = [];
  for (let m = 0; m < members.length; m += 1) {
    const member = members[m] as Member;
    const failover = m < members.length - 1;
    const skip = m > 0 ? skipReason(run, member, item, index, deadline) : undefined;
    const skipped = (why: keyof typeof SKIPPED) =>
      run.log.info({ event: 'failover', group: index, provider: member.provider.id, skipped: why }, SKIPPED[why]);
    if (skip === 'deadline') {
      skipped(skip);
      break;
    }
    if (skip === 'options') {
      skipped(skip);
      continue;
    }
    let looked: { cached: CachedCall | undefined } | undefined;
    if (failover && member.gate) {
      const state = await pausedOrCached(run, member, item, index);
      if (state.paused) {
        skipped('paused');
        last = { outcome: state.paused, member: m };
        continue;
      }
      looked = state.looked;
    }
    looked ??= { cached: await lookup(run, member, item, index) };
    const meter = newMeter();
    metered.push({ meter, unitUsd: member.unitUsd });
    const attempted = await attempt(run, member, item, index, { failover, looked, meter });
    if (attempted === 'budget') {
      if (last !== undefined) skipped('budget');
      last ??= {
        outcome: { error: { code: 'provider_error', message: 'The call budget of this request is spent.' } },
        member: m,
      };
      break;
    }
    const { outcome } = attempted;
    source = attempted.source;
    last = { outcome, member: m };
    if (!('error' in outcome) || !failover || !FAILOVER_CODES.has(outcome.error.code)) break;
    if (outcome.error.code === 'provider_auth')
      run.log.warn(
        { event: 'failover', group: index, provider: member.provider.id, code: outcome.error.code },
        'provider refused its credentials; the group goes to the next provider',
      );
  }
  const usage = groupUsage(source, metered);
  return {
    ...(last ?? {
      outcome: { error: { code: 'provider_error', message: 'No listed provider could take this query.' } },
      member: undefined,
    }),
    usage,
  };
}
