// Writes contract/openapi.json and contract/src/generated/fingerprint.ts from the zod schemas and
// the assertion catalogue. Run `pnpm generate` after changing either; a test fails on drift.
import { writeFileSync } from 'node:fs';
import { generatedFiles } from './generated-files.ts';

for (const file of generatedFiles()) {
  writeFileSync(file.path, file.content);
  console.log(`wrote ${file.path}`);
}
