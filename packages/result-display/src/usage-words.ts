import type { GroupUsage, UsageTotals } from '@openmates/contract';

/**
 * What a search cost, as a person reads it (docs/usage-and-quotas.md): under each group where its
 * answer came from and what it cost, and a total for the search. The GUI and the MCP App page show
 * these words; the CLI prints the same in its own dim line.
 */

/** US dollars as a person reads an estimate: two decimals from a dollar up, two significant digits below. */
export function usdText(usd: number): string {
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  return `$${Number(usd.toPrecision(2))}`;
}

const calls = (n: number) => `${n} provider ${n === 1 ? 'call' : 'calls'}`;

/** A group's usage in one sentence. */
export function groupUsageText(usage: GroupUsage): string {
  if (usage.source === 'cache') return 'From the cache: no provider call.';
  if (usage.source === 'shared') return 'Shared an identical search already in flight: no call of its own.';
  const billed = usage.billed === usage.calls ? '' : `, ${usage.billed} billed`;
  const cost = usage.cost_usd === undefined ? '' : ` · about ${usdText(usage.cost_usd)}`;
  return `${calls(usage.calls)}${billed}${cost}.`;
}

/** A search's usage in one sentence. */
export function usageTotalsText(totals: UsageTotals): string {
  const parts = [calls(totals.calls)];
  if (totals.from_cache > 0) parts.push(`${totals.from_cache} from the cache`);
  if (totals.shared > 0) parts.push(`${totals.shared} shared`);
  if (totals.cost_usd !== undefined) parts.push(`about ${usdText(totals.cost_usd)}`);
  return `This search: ${parts.join(' · ')}.`;
}
