import { isDeepStrictEqual } from 'node:util';
import type { CaseEnvironment, DriverResult, ParityCase, SurfaceDriver } from './case.ts';
import { normalizeDocument } from './document.ts';
import { canonicalOutcome, type Outcome } from './outcome.ts';
import { firstDifference, personView } from './person-view.ts';
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

/** Options of one run. */
export interface RunOptions {
  /** The core driver's document for the same case: what a surface's person view must show. */
  personReference?: () => Promise<unknown>;
}

/**
 * Throws, naming the first difference, when what a person sees on the surface (`view`) is not the
 * person view of the JSON surfaces' document for the same case.
 */
export function checkPersonView(testCase: ParityCase, view: unknown, reference: unknown): string | undefined {
  const difference = firstDifference(view, personView(reference));
  return difference === undefined
    ? undefined
    : `${testCase.name}: what a person sees differs from the core document's person view at ${difference} (surface ≠ core)`;
}

/** Runs one case on one driver, checks it, and records the run for the report. */
export async function runCase(
  testCase: ParityCase,
  driver: SurfaceDriver,
  environment: CaseEnvironment,
  runs: CaseRun[],
  options: RunOptions = {},
): Promise<DriverResult> {
  const run: CaseRun = {
    case: testCase.name,
    assertion: testCase.assertion,
    surface: driver.surface,
    passed: false,
    outcome: '',
  };
  runs.push(run);
  try {
    const result = await driver.run(testCase, environment);
    const { outcome, transcript, document } = result;
    run.outcome = canonicalOutcome(outcome);
    if (document !== undefined) run.document = normalizeDocument(document);
    if (result.view !== undefined) {
      if (!options.personReference) throw new Error(`${testCase.name}: a person view with nothing to compare it to`);
      const difference = checkPersonView(testCase, result.view, await options.personReference());
      if (difference) run.viewDiff = difference;
    }
    checkOutcome(testCase, outcome);
    checkTranscript(testCase, transcript, environment);
    if (run.viewDiff) throw new Error(run.viewDiff);
    run.passed = true;
    return result;
  } catch (error) {
    run.error = error instanceof Error ? error.message : String(error);
    throw error;
  }
}
