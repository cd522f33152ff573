// Writes src/openmates/_generated.py from contract/openapi.json and assertions/catalogue.json. Run
// after `pnpm generate` changes the contract; a test fails when the committed file differs.
import { writeFileSync } from 'node:fs';
import { GENERATED_PATH, generatedPython } from './generated-file.ts';

writeFileSync(GENERATED_PATH, generatedPython());
console.log(`wrote ${GENERATED_PATH}`);
