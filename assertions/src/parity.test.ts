import { afterAll, describe, it } from 'vitest';
import { applies, type CaseEnvironment, type SurfaceDriver } from './case.ts';
import { CASES } from './cases/index.ts';
import { createContractDriver } from './drivers/contract-driver.ts';
import type { CaseRun } from './report.ts';
import { writeReport } from './report.ts';
import { runCase } from './runner.ts';

// The parity suite (SPEC §5): every case on every surface that can express it, then the matrix.
const drivers: SurfaceDriver[] = [createContractDriver()];
const environment: CaseEnvironment = { env: {}, canaries: [] };
const runs: CaseRun[] = [];

afterAll(async () => {
  await Promise.all(drivers.map((d) => d.close?.()));
  writeReport(
    runs,
    drivers.map((d) => d.surface),
  );
});

for (const driver of drivers) {
  describe(`surface ${driver.surface}`, () => {
    for (const testCase of CASES.filter((c) => applies(c, driver)))
      it(`${testCase.assertion} · ${testCase.name}`, () => runCase(testCase, driver, environment, runs));
  });
}
