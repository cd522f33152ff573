// scripts/install-cli.sh puts an `openmates` shim on the PATH and takes it away again. Run here as
// a newcomer's shell would: the machine's old Node first on PATH, nothing of the bootstrap's on it.
import { execFileSync } from 'node:child_process';
import { accessSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTRACT_FINGERPRINT } from '@openmates/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oldNode } from './registry-node.ts';
import { requireBuild, runProcess } from './run-cli.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = join(ROOT, 'scripts', 'install-cli.sh');
const BOOTSTRAPPED_NODE = join(
  ROOT,
  '.tools',
  'node_modules',
  `node-${process.platform}-${process.arch}`,
  'bin',
  'node',
);

let dir: string;
let path: string;
let env: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), 'om-install-'));
  path = [dirname(oldNode()), '/usr/bin', '/bin'].join(delimiter);
  env = { HOME: join(dir, 'home'), PATH: path };
  // The bootstrap with the old Node first on PATH, once, so that the Node 24 and pnpm it keeps in
  // .tools/ are there before the tests (a tree whose test command ran on a Node of its own has
  // none). It runs in this process's own environment otherwise: npm needs the machine's HOME and
  // certificate settings to reach the registry, which the tests' bare environment leaves out.
  const bootstrapped = await runProcess(
    'bash',
    ['-c', `. '${join(ROOT, 'scripts', 'bootstrap.sh')}'`],
    { ...(process.env as Record<string, string>), PATH: path },
    { stuckAfterMs: 280_000 },
  );
  expect(bootstrapped.code, bootstrapped.stderr).toBe(0);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each run of the script or the shim gets 45 s, under the test's 60 s, so that one that does not end names what it waits on. */
const RUN_LIMIT = { stuckAfterMs: 45_000 };
const install = (args: string[], extra: Record<string, string> = {}) =>
  runProcess('bash', [SCRIPT, '--no-build', ...args], { ...env, ...extra }, RUN_LIMIT);

describe('scripts/install-cli.sh', () => {
  it('writes a shim that runs the bootstrapped Node when the machine’s is older than the floor', async () => {
    const binDir = join(dir, 'bin with space');
    const installed = await install(['--bin-dir', binDir]);
    expect(installed.stderr).toBe('');
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain(`${binDir} is not on your PATH`);
    const shim = join(binDir, 'openmates');
    expect(readFileSync(shim, 'utf8')).toContain(
      `exec '${BOOTSTRAPPED_NODE}' '${join(ROOT, 'packages/cli/bin/run.js')}'`,
    );

    // Through the shim, with only the old Node on PATH.
    const version = (await runProcess(shim, ['--version'], env, RUN_LIMIT)).stdout;
    expect(version).toMatch(
      new RegExp(`^openmates \\S+ \\(contract fingerprint ${CONTRACT_FINGERPRINT}\\) node-v2[2-9]`),
    );

    const removed = await install(['--uninstall', '--bin-dir', binDir]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toBe(`install-cli: removed ${shim}\n`);
    expect(() => accessSync(shim)).toThrow();
    const again = await install(['--uninstall', '--bin-dir', binDir]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to remove');
  });

  it('goes to $PREFIX/bin when PREFIX is set, and says nothing of PATH when that is on it', async () => {
    const prefix = join(dir, 'prefix');
    const onPath = { PREFIX: prefix, PATH: `${join(prefix, 'bin')}${delimiter}${path}` };
    const installed = await install([], onPath);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toBe(
      `install-cli: wrote ${join(prefix, 'bin', 'openmates')} (Node ${execFileSync(BOOTSTRAPPED_NODE, ['-p', 'process.version'], { encoding: 'utf8' }).trim()} at ${BOOTSTRAPPED_NODE})\n`,
    );
    const version = (await runProcess('openmates', ['--version'], { ...env, ...onPath }, RUN_LIMIT)).stdout;
    expect(version).toContain(CONTRACT_FINGERPRINT);
    expect((await install(['--uninstall'], onPath)).code).toBe(0);
    expect(() => accessSync(join(prefix, 'bin', 'openmates'))).toThrow();
  });

  it('never overwrites or removes an `openmates` it did not write', async () => {
    const binDir = join(dir, 'theirs');
    mkdirSync(binDir);
    const theirs = join(binDir, 'openmates');
    writeFileSync(theirs, '#!/bin/sh\necho mine\n');
    const installed = await install(['--bin-dir', binDir]);
    expect(installed.code).toBe(1);
    expect(installed.stderr).toContain('was not written by this script');
    const removed = await install(['--uninstall', '--bin-dir', binDir]);
    expect(removed.code).toBe(1);
    expect(readFileSync(theirs, 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });

  it('refuses an unknown argument, naming it', async () => {
    const result = await install(['--bin']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown argument '--bin'");
  });
});
