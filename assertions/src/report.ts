import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SURFACES, type Surface } from './case.ts';
import { ASSERTION_IDS, type AssertionId } from './catalogue.ts';

/** The result of one case on one surface. */
export interface CaseRun {
  case: string;
  assertion: AssertionId;
  surface: Surface;
  passed: boolean;
  /** The normalized outcome, as JSON, for the parity comparison. */
  outcome: string;
  error?: string;
  /** Where the surface's person view (web, CLI human output) differs from the core document's; a parity failure. */
  viewDiff?: string;
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
 * (in SURFACES order) that ran it. A surface's parity cell counts the cases it agreed on.
 */
export function parityCells(runs: readonly CaseRun[]): Partial<Record<Surface, MatrixCell>> {
  const cells: Partial<Record<Surface, MatrixCell>> = {};
  const byCase = Map.groupBy(runs, (r) => r.case);
  for (const caseRuns of byCase.values()) {
    const ordered = [...caseRuns].sort((a, b) => SURFACES.indexOf(a.surface) - SURFACES.indexOf(b.surface));
    const reference = ordered.find((r) => r.surface !== 'contract') ?? ordered[0];
    if (!reference || ordered.length < 2) continue;
    for (const run of ordered)
      tally(cells, run.surface, run.outcome === reference.outcome && run.viewDiff === undefined);
  }
  return cells;
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
  const col = 10;
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

/** Writes `report/matrix.txt` and `report/matrix.json`; returns the text. */
export function writeReport(runs: readonly CaseRun[], surfaces: readonly Surface[]): string {
  const matrix = buildMatrix(runs);
  const text = renderMatrix(matrix, surfaces);
  mkdirSync(REPORT_DIR, { recursive: true });
  writeFileSync(`${REPORT_DIR}matrix.txt`, `${text}\n`);
  writeFileSync(`${REPORT_DIR}matrix.json`, `${JSON.stringify({ surfaces, matrix, runs }, null, 2)}\n`);
  return text;
}
