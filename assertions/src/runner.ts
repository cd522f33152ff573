import { isDeepStrictEqual } from 'node:util';
import type {
  CaseEnvironment,
  DriverResult,
  ParityCase,
  ProgressReport,
  ProviderRequest,
  RecordedRetry,
  SurfaceDriver,
} from './case.ts';
import { normalizeDocument } from './document.ts';
import { canonicalOutcome, type Outcome } from './outcome.ts';
import { firstDifference, lineDifference, type PersonLineView, personView } from './person-view.ts';
import type { CaseRun } from './report.ts';

/** Throws with a readable message when `outcome` is not what the case expects. */
/**
 * The outcome as an exact expectation states it: a group's `more`, `altered_query` and `usage` only where the
 * expected group names them (a case about them says them; every other case leaves them to the
 * columns' agreement, which compares whole outcomes).
 */
function asExpected(outcome: Outcome, expected: Outcome): Outcome {
  return {
    ...outcome,
    groups: outcome.groups.map((group, i) => {
      const want = expected.groups[i];
      const { more, altered_query, usage, ...rest } = group;
      return {
        ...rest,
        ...(want && 'usage' in want && usage !== undefined ? { usage } : {}),
        ...(want && 'more' in want && more !== undefined ? { more } : {}),
        ...(want && 'altered_query' in want && altered_query !== undefined ? { altered_query } : {}),
      };
    }),
  };
}

export function checkOutcome(testCase: ParityCase, outcome: Outcome): void {
  if (typeof testCase.expect === 'function') {
    testCase.expect(outcome);
    return;
  }
  if (!isDeepStrictEqual(asExpected(outcome, testCase.expect), testCase.expect))
    throw new Error(
      `${testCase.name}: outcome differs\nexpected: ${JSON.stringify(testCase.expect)}\nreceived: ${JSON.stringify(outcome)}`,
    );
}

/**
 * Throws unless a retry case's SDK made exactly the retries the case expects; returns them as JSON
 * with each backoff wait replaced by its bounds, so columns agree whatever their jitter drew.
 */
export function checkRetries(testCase: ParityCase, retries: readonly RecordedRetry[] | undefined): string {
  const expected = testCase.retries ?? [];
  if (!retries) throw new Error(`${testCase.name}: the surface reported no retries for a retry case`);
  const shown = retries.map((retry, i) => {
    const want = expected[i];
    if (!want) return retry;
    if (typeof want.delayMs === 'number' || retry.delayMs < want.delayMs.min || retry.delayMs > want.delayMs.max)
      return retry;
    return { status: retry.status, delayMs: `${want.delayMs.min}..${want.delayMs.max}` };
  });
  const canonical = JSON.stringify(shown);
  const wanted = JSON.stringify(
    expected.map((r) => ({
      status: r.status,
      delayMs: typeof r.delayMs === 'number' ? r.delayMs : `${r.delayMs.min}..${r.delayMs.max}`,
    })),
  );
  if (canonical !== wanted)
    throw new Error(`${testCase.name}: retries differ\nexpected: ${wanted}\nreceived: ${canonical}`);
  return canonical;
}

/** Throws unless a progress case's client received exactly the progress the case expects, in order. */
export function checkProgress(testCase: ParityCase, progress: readonly ProgressReport[] | undefined): void {
  if (!testCase.progress) return;
  if (!progress) throw new Error(`${testCase.name}: the surface reported no progress for a progress case`);
  if (!isDeepStrictEqual(progress, testCase.progress.expect))
    throw new Error(
      `${testCase.name}: progress differs\nexpected: ${JSON.stringify(testCase.progress.expect)}\nreceived: ${JSON.stringify(progress)}`,
    );
}

/** Throws, naming the case, when its fixture provider did not receive what the case expects. */
export function checkReceived(testCase: ParityCase, received: readonly ProviderRequest[] | undefined): void {
  if (!testCase.received) return;
  if (!received) throw new Error(`${testCase.name}: the case's provider records no requests`);
  try {
    testCase.received(received);
  } catch (error) {
    throw new Error(
      `${testCase.name}: the provider received ${error instanceof Error ? error.message : String(error)}`,
    );
  }
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
export function checkPersonView(
  testCase: ParityCase,
  view: unknown,
  reference: unknown,
  pageLanguage?: string,
): string | undefined {
  const page = pageLanguage === undefined ? undefined : { request: testCase.request, language: pageLanguage };
  const difference =
    (view as { kind?: unknown } | null)?.kind === 'line'
      ? lineDifference(view as PersonLineView, reference)
      : firstDifference(view, personView(reference, page));
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
    // Taken now: the person view's reference run below starts the fixtures afresh.
    const received = environment.providerRequests?.();
    const { outcome, transcript, document } = result;
    run.outcome = canonicalOutcome(outcome);
    if (document !== undefined) run.document = normalizeDocument(document);
    if (result.view !== undefined) {
      if (!options.personReference) throw new Error(`${testCase.name}: a person view with nothing to compare it to`);
      const difference = checkPersonView(testCase, result.view, await options.personReference(), result.pageLanguage);
      if (difference) run.viewDiff = difference;
    }
    if (testCase.upstream) run.retries = checkRetries(testCase, result.retries);
    checkOutcome(testCase, outcome);
    checkProgress(testCase, result.progress);
    checkReceived(testCase, received);
    checkTranscript(testCase, transcript, environment);
    if (run.viewDiff) throw new Error(run.viewDiff);
    run.passed = true;
    return result;
  } catch (error) {
    run.error = error instanceof Error ? error.message : String(error);
    throw error;
  }
}
