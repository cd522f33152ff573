// Writes docs/reference.md (`pnpm generate`); packages/cli/test/reference.test.ts fails on drift.
import { writeFileSync } from 'node:fs';
import { REFERENCE_PATH, referencePage } from './reference-page.ts';

writeFileSync(REFERENCE_PATH, referencePage());
console.log(`wrote ${REFERENCE_PATH}`);
