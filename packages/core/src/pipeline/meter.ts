import type { GroupUsage } from '@openmates/contract';
import type { AnswerUsage } from '../provider.ts';

/**
 * What one group's calls to one provider came to, counted as they are made: every HTTP exchange
 * (retries and further pages included) is a call; every answer read is billed in the provider's
 * unit, one unit unless the answer says otherwise (a hosted model's searches, credits).
 */
export interface Meter {
  calls: number;
  billed: number;
  /** Dollars the provider reported itself, summed; undefined while none did. */
  reportedUsd: number | undefined;
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

export const newMeter = (): Meter => ({
  calls: 0,
  billed: 0,
  reportedUsd: undefined,
  inputTokens: undefined,
  outputTokens: undefined,
});

const plus = (sum: number | undefined, value: number | undefined) =>
  value === undefined || !Number.isFinite(value) || value < 0 ? sum : (sum ?? 0) + value;

/** Counts an answer read: its billed units (one by default), the cost and tokens it reported. */
export function meterAnswer(meter: Meter, usage: AnswerUsage | undefined): void {
  const billed = usage?.billed;
  meter.billed += billed !== undefined && Number.isFinite(billed) && billed >= 0 ? billed : 1;
  meter.reportedUsd = plus(meter.reportedUsd, usage?.costUsd);
  meter.inputTokens = plus(meter.inputTokens, usage?.inputTokens);
  meter.outputTokens = plus(meter.outputTokens, usage?.outputTokens);
}

/** Dollars rounded to a millionth of a cent, so sums of decimal prices read as written (0.005, not 0.005000000000000001). */
export const roundUsd = (usd: number): number => Math.round(usd * 1e8) / 1e8;

/**
 * A group's `usage` from what its calls came to: `unitUsd` is the provider's price per billed unit
 * (undefined: not priced), a reported cost winning over it. Several meters (a chain that failed
 * over) add up; a group with calls is `provider` whatever answered it last.
 */
export function groupUsage(
  source: GroupUsage['source'],
  metered: readonly { meter: Meter; unitUsd: number | undefined }[],
): GroupUsage {
  let calls = 0;
  let billed = 0;
  let usd: number | undefined;
  let input: number | undefined;
  let output: number | undefined;
  for (const { meter, unitUsd } of metered) {
    calls += meter.calls;
    billed += meter.billed;
    const cost = meter.reportedUsd ?? (unitUsd === undefined ? undefined : meter.billed * unitUsd);
    usd = plus(usd, cost);
    input = plus(input, meter.inputTokens);
    output = plus(output, meter.outputTokens);
  }
  const usage: GroupUsage = { source: calls > 0 ? 'provider' : source, calls, billed: roundUsd(billed) };
  if (usd !== undefined) usage.cost_usd = roundUsd(usd);
  if (input !== undefined) usage.input_tokens = input;
  if (output !== undefined) usage.output_tokens = output;
  return usage;
}
