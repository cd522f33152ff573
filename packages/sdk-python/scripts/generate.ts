// Writes src/openmates/_generated.py from contract/openapi.json and assertions/catalogue.json, and
// src/openmates/_generated_policy.py and src/openmates/_exceptions.py from the contract's SDK
// policy. Run after `pnpm generate` changes the contract; a test fails when a committed file differs.
import { writeFileSync } from 'node:fs';
import { ERRORS_PATH, generatedErrorsPython } from './generated-errors.ts';
import { GENERATED_PATH, generatedPython } from './generated-file.ts';
import { generatedPolicyPython, POLICY_PATH } from './generated-policy.ts';

writeFileSync(GENERATED_PATH, generatedPython());
console.log(`wrote ${GENERATED_PATH}`);
writeFileSync(POLICY_PATH, generatedPolicyPython());
console.log(`wrote ${POLICY_PATH}`);
writeFileSync(ERRORS_PATH, generatedErrorsPython());
console.log(`wrote ${ERRORS_PATH}`);
