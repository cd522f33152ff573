import { describe, expect, it } from 'vitest';
import type { ParityCase } from './case.ts';
import { CASES } from './cases/index.ts';
import { type CaseRun, compareSurfaces } from './report.ts';
import { checkRetries } from './runner.ts';

const retryCase = CASES.find((c) => c.name === 'sdk-retries-429-502-503-then-answers') as ParityCase;
const backoffCase = CASES.find((c) => c.name === 'sdk-backs-off-without-retry-after') as ParityCase;

describe('the retry cases’ check', () => {
  it('accepts exactly the expected retries, and a backoff anywhere within its bounds', () => {
    const made = [
      { status: 429, delayMs: 0 },
      { status: 502, delayMs: 15 },
      { status: 503, delayMs: 10 },
    ];
    expect(JSON.parse(checkRetries(retryCase, made))).toEqual(made);
    const low = checkRetries(backoffCase, [{ status: 503, delayMs: 375 }]);
    expect(checkRetries(backoffCase, [{ status: 503, delayMs: 625 }])).toBe(low);
  });

  it('refuses another wait, another status, a missing or an extra retry, and a backoff out of bounds', () => {
    const right = [
      { status: 429, delayMs: 0 },
      { status: 502, delayMs: 15 },
      { status: 503, delayMs: 10 },
    ];
    for (const wrong of [
      [{ status: 429, delayMs: 0 }, { status: 502, delayMs: 1000 }, right[2]],
      [right[0], { status: 500, delayMs: 15 }, right[2]],
      right.slice(0, 2),
      [...right, { status: 503, delayMs: 10 }],
    ])
      expect(() => checkRetries(retryCase, wrong as typeof right)).toThrow('retries differ');
    expect(() => checkRetries(backoffCase, [{ status: 503, delayMs: 626 }])).toThrow('retries differ');
    expect(() => checkRetries(retryCase, undefined)).toThrow('reported no retries');
  });

  it('turns the parity cell red when one column made other retries', () => {
    const run = (surface: CaseRun['surface'], retries: string): CaseRun => ({
      case: retryCase.name,
      assertion: retryCase.assertion,
      surface,
      passed: true,
      outcome: '{"groups":[]}',
      retries,
    });
    const { cells, disagreements } = compareSurfaces([
      run('sdk', '[{"status":429,"delayMs":0}]'),
      run('pip', '[{"status":429,"delayMs":1000}]'),
    ]);
    expect(cells.pip).toEqual({ passed: 0, total: 1 });
    expect(disagreements.map((d) => [d.surface, d.compared])).toEqual([['pip', 'retries']]);
  });
});
