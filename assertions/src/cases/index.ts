import type { ParityCase } from '../case.ts';
import { idsCorrelatedCases } from './ids-correlated.ts';
import { validatedCases } from './validated.ts';

/** Every case of the parity suite. */
export const CASES: readonly ParityCase[] = [...validatedCases, ...idsCorrelatedCases];
