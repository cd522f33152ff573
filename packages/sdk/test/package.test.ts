// The published shape of @openmates/sdk: the built ESM and CommonJS files load and work, import
// nothing (so no Node built-in reaches a browser, Deno or Bun), and publint and attw find no problem.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CONTRACT_FINGERPRINT } from '@openmates/contract';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../src/index.ts';
import { type LoopbackServer, loopbackServer } from './loopback-server.ts';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const packageJson = JSON.parse(readFileSync(`${pkgDir}/package.json`, 'utf8'));
const node = process.execPath;

/** The path of a dev tool's CLI script, from its package.json `bin`. */
function bin(name: string): string {
  const manifest = require.resolve(`${name}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  return join(dirname(manifest), typeof bin === 'string' ? bin : (Object.values<string>(bin)[0] ?? ''));
}

/** Runs a dev tool's CLI with this Node in the package directory; its exit status and stdout. */
function run(name: string, args: string[]): { status: number; stdout: string } {
  try {
    return { status: 0, stdout: execFileSync(node, [bin(name), ...args], { cwd: pkgDir, encoding: 'utf8' }) };
  } catch (error) {
    const failed = error as { status: number; stdout: string };
    return { status: failed.status, stdout: failed.stdout };
  }
}

beforeAll(() => {
  // The test command builds first (turbo run build); a lone vitest run builds here when dist is missing.
  if (!existsSync(`${pkgDir}/dist/index.js`) || !existsSync(`${pkgDir}/dist/index.cjs`)) {
    expect(run('tsdown', []).status).toBe(0);
  }
});

describe('the built package', () => {
  let server: LoopbackServer;
  const answer = { provider: 'Local index', results: [{ id: 1, results: [] }] };
  beforeAll(async () => {
    server = await loopbackServer([{ status: 200, body: answer }]);
  });
  afterAll(() => server.close());

  it('loads as ESM and as CommonJS, and searches', async () => {
    const esm = await import(pathToFileURL(`${pkgDir}/dist/index.js`).href);
    const cjs = require(`${pkgDir}/dist/index.cjs`);
    for (const sdk of [esm, cjs]) {
      expect(sdk.CONTRACT_FINGERPRINT).toBe(CONTRACT_FINGERPRINT);
      const client = new sdk.OpenMates({ baseURL: server.baseURL, apiKey: null });
      await expect(client.apps.web.search({ requests: [{ query: 'x' }] })).resolves.toEqual(answer);
      expect(sdk.APIError.generate(400, {}, new Headers())).toBeInstanceOf(sdk.BadRequestError);
    }
  });

  it('imports nothing, so it runs wherever fetch does', () => {
    for (const file of ['index.js', 'index.cjs']) {
      const code = readFileSync(`${pkgDir}/dist/${file}`, 'utf8');
      expect(code).not.toMatch(/\brequire\(|^\s*import\b|\bimport\(|\bfrom\s*["']/m);
    }
  });

  it('keeps VERSION equal to package.json', () => {
    expect(VERSION).toBe(packageJson.version);
  });

  it('points every export condition at built files with their own types', () => {
    expect(packageJson.files).toEqual(['dist']);
    expect(packageJson.exports['.']).toEqual({
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    });
  });

  it('passes publint', async () => {
    const { messages } = await publint({ pkgDir, strict: true });
    expect(messages).toEqual([]);
  });

  it('passes @arethetypeswrong/cli on the packed tarball', () => {
    const { status, stdout } = run('@arethetypeswrong/cli', ['--pack', '.', '--format', 'json']);
    const report = JSON.parse(stdout);
    expect(report.analysis.problems).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints)).toContain('.');
    expect(status).toBe(0);
  });
});
