// Totals every suite of the test command into one line `N passed, N failed`. Vitest and
// Playwright JSON reports count each test; lint, typecheck and build count as one check each.
// A suite whose report is missing counts as one failure, so a crash can never read as green.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? '.test-results';
let passed = 0;
let failed = 0;
const lines: string[] = [];

for (const name of readdirSync(dir).sort()) {
  const path = join(dir, name);
  if (name.startsWith('check-')) {
    const ok = readFileSync(path, 'utf8').trim() === 'pass';
    ok ? passed++ : failed++;
    lines.push(`${name.slice(6)}: ${ok ? 'passed' : 'FAILED'}`);
  } else if (name.endsWith('.json')) {
    const report = JSON.parse(readFileSync(path, 'utf8'));
    let p = 0;
    let f = 0;
    if (typeof report.numPassedTests === 'number') {
      // vitest (jest-compatible JSON)
      p = report.numPassedTests;
      f = report.numFailedTests + (report.success === false && report.numFailedTests === 0 ? 1 : 0);
    } else if (report.stats) {
      // Playwright JSON reporter
      p = report.stats.expected;
      f = report.stats.unexpected + (report.stats.flaky ?? 0) + (report.errors?.length ?? 0);
    }
    passed += p;
    failed += f;
    lines.push(`${name.replace(/\.json$/, '')}: ${p} passed, ${f} failed`);
  }
}
if (!existsSync(join(dir, 'vitest.json'))) {
  failed++;
  lines.push('vitest: no report (crashed?)');
}
console.log(`\n${lines.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
