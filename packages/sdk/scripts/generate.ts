// Writes src/generated/openapi.ts from contract/openapi.json. Run after `pnpm generate` changes the
// contract; a test fails when the committed file differs from what this would write.
import { writeFileSync } from 'node:fs';
import { GENERATED_PATH, generatedTypes } from './generated-file.ts';

writeFileSync(GENERATED_PATH, await generatedTypes());
console.log(`wrote ${GENERATED_PATH}`);
