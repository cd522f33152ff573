import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The API world's own checkers, pinned in this package's devDependencies, with their stock rules:
// Redocly's `recommended` (redocly.yaml) and Spectral's `spectral:oas` (.spectral.yaml), both local
// files, telemetry and update checks off. Zero errors and zero warnings.
const run = promisify(execFile);
const CONTRACT = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => `${CONTRACT}node_modules/.bin/${name}`;
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_COLOR: '1',
};

describe('contract/openapi.json under the API linters', () => {
  it('Redocly CLI (recommended) reports no error and no warning', { timeout: 60_000 }, async () => {
    const { stdout } = await run(bin('redocly'), ['lint', 'openapi.json', '--format', 'json'], { cwd: CONTRACT, env });
    const report = JSON.parse(stdout) as { totals: Record<string, number>; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('Spectral (spectral:oas) reports no problem at any severity', { timeout: 60_000 }, async () => {
    const { stdout } = await run(
      bin('spectral'),
      ['lint', 'openapi.json', '--ruleset', '.spectral.yaml', '--format', 'json', '--fail-severity', 'hint', '--quiet'],
      { cwd: CONTRACT, env },
    );
    expect(JSON.parse(stdout)).toEqual([]);
  });
});
