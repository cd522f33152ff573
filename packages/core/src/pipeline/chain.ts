import type { GroupErrorCode, NormalizedRequestItem } from '@openmates/contract';
import { providerIssues } from '../capabilities.ts';
import type { CachedCall } from '../result-cache.ts';
import { rateLimitedError } from '../upstream-gate.ts';
import { type CallOutcome, callMember, lookup, type SearchRun } from './call.ts';
import type { Member } from './members.ts';

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
 * Every call made debits the budget.
 */
export async function settleGroup(
  run: SearchRun,
  members: readonly Member[],
  item: NormalizedRequestItem,
  index: number,
  deadline: number,
): Promise<Settled> {
  let last: Settled | undefined;
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
    if (!run.budget.debitCall()) {
      if (last !== undefined) skipped('budget');
      last ??= {
        outcome: { error: { code: 'provider_error', message: 'The call budget of this request is spent.' } },
        member: m,
      };
      break;
    }
    const outcome = await callMember(run, member, item, index, { failover, ...(looked ? { looked } : {}) });
    last = { outcome, member: m };
    if (!('error' in outcome) || !failover || !FAILOVER_CODES.has(outcome.error.code)) break;
    if (outcome.error.code === 'provider_auth')
      run.log.warn(
        { event: 'failover', group: index, provider: member.provider.id, code: outcome.error.code },
        'provider refused its credentials; the group goes to the next provider',
      );
  }
  return (
    last ?? {
      outcome: { error: { code: 'provider_error', message: 'No listed provider could take this query.' } },
      member: undefined,
    }
  );
}
