// One release version (ADR 0095): the root package.json's, written into the contract (the OpenAPI
// document's `info.version`, ADR 0123), the CLI, the npm SDK and the pip SDK by `pnpm generate`. The installed suite checks what each installed artifact reports.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import openapi from '@openmates/contract/openapi.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { drifted, releaseVersion } from '../../scripts/release/versions.ts';

const SCRIPT = fileURLToPath(new URL('../../scripts/release/versions.ts', import.meta.url));

describe('the release version', () => {
  it('is written into every versioned file of the contract, the CLI and both SDKs', () => {
    expect(releaseVersion()).toMatch(/^\d+\.\d+\.\d+/);
    expect(drifted()).toEqual([]);
    expect(() => execFileSync(process.execPath, [SCRIPT, '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('is the OpenAPI document’s version, which /docs and /v1/openapi.json serve beside skill info’s', () => {
    expect(openapi.info.version).toBe(releaseVersion());
  });

  it('would find each of those files stale at another version', () => {
    expect(drifted('99.0.0').map((file) => file.path)).toEqual([
      'contract/package.json',
      'packages/cli/package.json',
      'packages/sdk/package.json',
      'packages/sdk/src/version.ts',
      'packages/sdk-python/pyproject.toml',
      'packages/sdk-python/src/openmates/_version.py',
    ]);
    for (const { expected } of drifted('99.0.0')) expect(expected).toContain('99.0.0');
  });
});
