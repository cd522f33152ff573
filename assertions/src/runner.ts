import { isDeepStrictEqual } from 'node:util';
import type { CaseEnvironment, ParityCase, SurfaceDriver } from './case.ts';
import { normalizeDocument } from './document.ts';
import { canonicalOutcome, type Outcome } from './outcome.ts';
import type { CaseRun } from './report.ts';

/** Throws with a readable message when `outcome` is not what the case expects. */
export function checkOutcome(testCase: ParityCase, outcome: Outcome): void {
  if (typeof testCase.expect === 'function') {
    testCase.expect(outcome);
    return;
  }
  if (!isDeepStrictEqual(outcome, testCase.expect))
    throw new Error(
      `${testCase.name}: outcome differs\nexpected: ${JSON.stringify(testCase.expect)}\nreceived: ${JSON.stringify(outcome)}`,
    );
}

/** Throws when a forbidden string (a canary secret) appears in what the surface emitted. */
export function checkTranscript(testCase: ParityCase, transcript: string, environment: CaseEnvironment): void {
  for (const secret of [...environment.canaries, ...(testCase.forbidden ?? [])])
    if (secret && transcript.includes(secret))
      throw new Error(`${testCase.name}: a secret reached the surface's output (${secret.slice(0, 4)}…)`);
}

/** Runs one case on one driver, checks it, and records the run for the report. */
export async function runCase(
  testCase: ParityCase,
  driver: SurfaceDriver,
  environment: CaseEnvironment,
  runs: CaseRun[],
): Promise<void> {
  const run: CaseRun = {
    case: testCase.name,
    assertion: testCase.assertion,
    surface: driver.surface,
    passed: false,
    outcome: '',
  };
  runs.push(run);
  try {
    const { outcome, transcript, document } = await driver.run(testCase, environment);
    run.outcome = canonicalOutcome(outcome);
    if (document !== undefined) run.document = normalizeDocument(document);
    checkOutcome(testCase, outcome);
    checkTranscript(testCase, transcript, environment);
    run.passed = true;
  } catch (error) {
    run.error = error instanceof Error ? error.message : String(error);
    throw error;
  }
}
