// Writes src/generated/openapi.ts from contract/openapi.json, and src/generated/policy.ts and
// src/generated/errors.ts from the contract's SDK policy. Run after `pnpm generate` changes the
// contract; a test fails when a committed file differs from what this would write.
import { writeFileSync } from 'node:fs';
import { ERRORS_PATH, generatedErrors } from './generated-errors.ts';
import { GENERATED_PATH, generatedTypes } from './generated-file.ts';
import { generatedPolicy, POLICY_PATH } from './generated-policy.ts';

writeFileSync(GENERATED_PATH, await generatedTypes());
console.log(`wrote ${GENERATED_PATH}`);
writeFileSync(POLICY_PATH, generatedPolicy());
console.log(`wrote ${POLICY_PATH}`);
writeFileSync(ERRORS_PATH, generatedErrors());
console.log(`wrote ${ERRORS_PATH}`);
