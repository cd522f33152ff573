import { describe, expect, it } from 'vitest';
import { ProviderError } from './provider.ts';
import { createMemoryUpstreamGate } from './upstream-gate.ts';

/** A gate on a hand-moved clock whose sleep records the waits asked for and moves the clock on. */
function gate(ratePerS: number | undefined) {
  let clock = 0;
  let late = 0;
  const waits: number[] = [];
  const g = createMemoryUpstreamGate(
    ratePerS,
    () => clock,
    async (ms) => {
      waits.push(ms);
      clock += ms + late;
      late = 0;
    },
  );
  return {
    g,
    waits,
    advance: (ms: number) => (clock += ms),
    /** The next sleep wakes `ms` late, as a timer on a busy machine does. */
    wakeLate: (ms: number) => (late = ms),
  };
}
const signal = new AbortController().signal;

describe('the in-process upstream gate', () => {
  it('spaces calls evenly at the rate, whatever their arrival', async () => {
    const { g, waits } = gate(2);
    for (let i = 0; i < 4; i += 1) await g.acquire(10_000, signal);
    expect(waits).toEqual([500, 500, 500]);
  });

  it('refuses at once a call whose turn comes after its most wait, without taking the turn', async () => {
    const { g, waits } = gate(2);
    await g.acquire(10_000, signal);
    await g.acquire(10_000, signal);
    const refused = await g.acquire(400, signal).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    expect((refused as ProviderError).code).toBe('provider_rate_limited');
    expect((refused as ProviderError).retryAfterMs).toBe(500);
    await g.acquire(10_000, signal);
    expect(waits).toEqual([500, 500]);
  });

  it('starts a call only once the spacing since the last actual start has passed', async () => {
    const { g, waits, wakeLate } = gate(2);
    await g.acquire(10_000, signal);
    wakeLate(400);
    await g.acquire(10_000, signal); // its turn was at 500; it woke at 900
    await g.acquire(10_000, signal); // its turn is at 1000, but it must not start before 1400
    expect(waits).toEqual([500, 100, 400]);
  });

  it('pauses every call after a 429 for the time named, or 1 s, with or without a rate', async () => {
    const { g, waits, advance } = gate(undefined);
    await g.pause(3_000);
    const refused = await g.acquire(2_000, signal).catch((e: unknown) => e);
    expect((refused as ProviderError).code).toBe('provider_rate_limited');
    await g.acquire(5_000, signal);
    await g.pause(undefined);
    await g.acquire(5_000, signal);
    advance(1_000);
    await g.acquire(5_000, signal);
    expect(waits).toEqual([3_000, 1_000]);
  });
});
