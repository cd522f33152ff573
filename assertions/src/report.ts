import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SURFACES, type Surface } from './case.ts';
import { ASSERTION_IDS, type AssertionId } from './catalogue.ts';
import { type DocumentDifference, firstDifference, showValue } from './document.ts';

/** The result of one case on one surface. */
export interface CaseRun {
  case: string;
  assertion: AssertionId;
  surface: Surface;
  passed: boolean;
  /** The normalized outcome, as JSON, for the parity comparison. */
  outcome: string;
  /** The whole document the surface handed back, normalized (see document.ts); absent for surfaces without one. */
  document?: unknown;
  error?: string;
  /** Where the surface's person view (web, CLI human output) differs from the core document's; a parity failure. */
  viewDiff?: string;
  /** Retry cases: the retries the SDK made, as JSON (backoff waits as their bounds; see runner.ts). */
  retries?: string;
}

/** Why a surface disagreed with a case's reference surface: the first differing path and both values. */
export interface ParityDisagreement extends DocumentDifference {
  case: string;
  surface: Surface;
  reference: Surface;
  /**
   * `outcome`: the reduced outcome differs; `document`: the whole documents differ; `view`: what a
   * person sees (GUI text, CLI human output) differs from the person view of the reference document;
   * `retries`: a retry case's SDK made other retries, or computed other waits.
   */
  compared: 'outcome' | 'document' | 'view' | 'retries';
}

export interface MatrixCell {
  passed: number;
  total: number;
}

export type Matrix = Record<AssertionId, Partial<Record<Surface, MatrixCell>>>;

function tally(cells: Partial<Record<Surface, MatrixCell>>, surface: Surface, passed: boolean): void {
  const cell = cells[surface] ?? { passed: 0, total: 0 };
  cell.total += 1;
  if (passed) cell.passed += 1;
  cells[surface] = cell;
}

/**
 * Surface parity: for every case, each surface's outcome must equal the outcome of the first surface
 * (in SURFACES order) that ran it, and each surface that handed back a whole document must hand back
 * the same document, leaf by leaf, as the first such surface. A surface's parity cell counts the
 * cases it agreed on; `disagreements` says where each other case first differed.
 */
export function compareSurfaces(runs: readonly CaseRun[]): {
  cells: Partial<Record<Surface, MatrixCell>>;
  disagreements: ParityDisagreement[];
} {
  const cells: Partial<Record<Surface, MatrixCell>> = {};
  const disagreements: ParityDisagreement[] = [];
  const byCase = Map.groupBy(runs, (r) => r.case);
  for (const caseRuns of byCase.values()) {
    const ordered = [...caseRuns].sort((a, b) => SURFACES.indexOf(a.surface) - SURFACES.indexOf(b.surface));
    const reference = ordered.find((r) => r.surface !== 'contract') ?? ordered[0];
    if (!reference || ordered.length < 2) continue;
    const documentReference = ordered.find((r) => r.document !== undefined);
    for (const run of ordered) {
      const disagreement = disagreementOf(run, reference, documentReference);
      if (disagreement) disagreements.push(disagreement);
      tally(cells, run.surface, disagreement === undefined);
    }
  }
  return { cells, disagreements };
}

function disagreementOf(
  run: CaseRun,
  reference: CaseRun,
  documentReference: CaseRun | undefined,
): ParityDisagreement | undefined {
  const about = { case: run.case, surface: run.surface };
  if (run.outcome === '' && run.error !== undefined)
    return {
      ...about,
      reference: reference.surface,
      compared: 'outcome',
      path: '$',
      expected: parseOrText(reference.outcome),
      actual: `(no answer: ${run.error.split('\n')[0]})`,
    };
  if (run.outcome !== reference.outcome) {
    const difference = firstDifference(parseOrText(reference.outcome), parseOrText(run.outcome)) ?? {
      path: '$',
      expected: reference.outcome,
      actual: run.outcome,
    };
    return { ...about, reference: reference.surface, compared: 'outcome', ...difference };
  }
  if (run.retries !== reference.retries)
    return {
      ...about,
      reference: reference.surface,
      compared: 'retries',
      path: '(retries)',
      expected: reference.retries,
      actual: run.retries,
    };
  if (run.viewDiff !== undefined)
    return {
      ...about,
      reference: 'core',
      compared: 'view',
      path: '(person view)',
      expected: undefined,
      actual: run.viewDiff,
    };
  if (run.document === undefined || documentReference === undefined) return undefined;
  const difference = firstDifference(documentReference.document, run.document);
  return difference && { ...about, reference: documentReference.surface, compared: 'document', ...difference };
}

function parseOrText(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/** The parity cells alone (see `compareSurfaces`). */
export function parityCells(runs: readonly CaseRun[]): Partial<Record<Surface, MatrixCell>> {
  return compareSurfaces(runs).cells;
}

/** One line per disagreement: case, surface, the first differing JSON path and both values. */
export function renderDisagreements(disagreements: readonly ParityDisagreement[]): string[] {
  return disagreements.map(
    (d) =>
      `${d.case}: ${d.surface} differs from ${d.reference} (${d.compared}) at ${d.path}: ${d.reference} ${showValue(d.expected)}, ${d.surface} ${showValue(d.actual)}`,
  );
}

/** Builds the assertion × surface matrix from the runs. */
export function buildMatrix(runs: readonly CaseRun[]): Matrix {
  const matrix = Object.fromEntries(ASSERTION_IDS.map((id) => [id, {}])) as Matrix;
  for (const run of runs) tally(matrix[run.assertion], run.surface, run.passed);
  matrix['web-search.surface-parity'] = parityCells(runs);
  return matrix;
}

/** Renders the matrix as a fixed-width table: `ok 5/5`, `FAIL 3/5`, or `-` where no case ran. */
export function renderMatrix(matrix: Matrix, surfaces: readonly Surface[]): string {
  const width = Math.max(...ASSERTION_IDS.map((id) => id.length));
  // Wide enough for the longest column name and a count such as `FAIL 12/13`, with a space after.
  const col = Math.max(11, ...surfaces.map((s) => s.length + 1));
  const header = `${'assertion'.padEnd(width)}  ${surfaces.map((s) => s.padEnd(col)).join('')}`;
  const lines = ASSERTION_IDS.map((id) => {
    const cells = surfaces.map((surface) => {
      const cell = matrix[id][surface];
      if (!cell) return '-'.padEnd(col);
      const mark = cell.passed === cell.total ? 'ok' : 'FAIL';
      return `${mark} ${cell.passed}/${cell.total}`.padEnd(col);
    });
    return `${id.padEnd(width)}  ${cells.join('')}`;
  });
  return ['Parity matrix (assertion × surface, cases passed/run)', header, ...lines].join('\n');
}

const REPORT_DIR = fileURLToPath(new URL('../report/', import.meta.url));

/**
 * Writes `report/matrix.txt` (the matrix, then each parity disagreement with its first differing
 * JSON path and both values) and `report/matrix.json`; returns the text.
 */
export function writeReport(runs: readonly CaseRun[], surfaces: readonly Surface[]): string {
  const matrix = buildMatrix(runs);
  const { disagreements } = compareSurfaces(runs);
  const lines = renderDisagreements(disagreements);
  const text = [
    renderMatrix(matrix, surfaces),
    ...(lines.length > 0
      ? ['', 'web-search.surface-parity: where surfaces disagree (first differing path)', ...lines]
      : []),
  ].join('\n');
  mkdirSync(REPORT_DIR, { recursive: true });
  writeFileSync(`${REPORT_DIR}matrix.txt`, `${text}\n`);
  writeFileSync(`${REPORT_DIR}matrix.json`, `${JSON.stringify({ surfaces, matrix, disagreements, runs }, null, 2)}\n`);
  return text;
}
