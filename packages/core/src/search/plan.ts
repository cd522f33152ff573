import { MAX_BATCH_ITEMS } from '@openmates/contract';
import { BudgetSession } from '../budget.ts';
import { maxCallsPerQuery } from '../capabilities.ts';
import type { AnyEngineConfig } from '../config.ts';
import type { Member } from '../pipeline/members.ts';

/**
 * The search's budget: a call ceiling that counts every provider of the chain (a group may call
 * each of them, each for its pages), and the distinct-source ceiling of the configuration.
 */
export function plan(config: AnyEngineConfig, members: readonly Member[]): BudgetSession {
  const callsPerItem = members.reduce((sum, member) => sum + maxCallsPerQuery(member.provider), 0);
  return new BudgetSession({ maxCalls: MAX_BATCH_ITEMS * callsPerItem, maxSources: config.maxSources });
}
