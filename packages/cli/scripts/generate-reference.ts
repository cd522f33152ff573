// Writes docs/reference.md and the price table of docs/usage-and-quotas.md (`pnpm generate`);
// packages/cli/test/reference.test.ts and price-table.test.ts fail on drift.
import { writeFileSync } from 'node:fs';
import { USAGE_PAGE_PATH, usagePage } from './price-table.ts';
import { REFERENCE_PATH, referencePage } from './reference-page.ts';

writeFileSync(REFERENCE_PATH, referencePage());
console.log(`wrote ${REFERENCE_PATH}`);
writeFileSync(USAGE_PAGE_PATH, usagePage());
console.log(`wrote ${USAGE_PAGE_PATH}`);
