import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINES, FLOOR, isOld, oldNode, versionOf } from './registry-node.ts';
import { BIN, runProcess } from './run-cli.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('openmates on a Node older than its engines floor', () => {
  it('checks the floor that package.json declares in `engines`', () => {
    expect(ENGINES).toMatch(/^>=\d+\.\d+$/);
    const floor = /const FLOOR = \[(\d+), (\d+)\];/.exec(readFileSync(BIN, 'utf8'));
    expect(floor?.slice(1)).toEqual(FLOOR?.slice(1));
  });

  const node = oldNode();

  it('has an old Node to try', () => {
    expect(isOld(versionOf(node))).toBe(true);
  });

  const version = versionOf(node).join('.');

  it.each(
    [
      ['search', 'rust async'],
      ['apps', 'web', 'search', 'x'],
      ['serve', '--port', '0'],
      ['doctor'],
      ['index', 'stats'],
      ['mcp'],
      ['--version'],
      ['--help'],
      [],
    ].map((args) => ({ command: `openmates ${args.join(' ')}`.trim(), args })),
  )('`$command` prints one line naming the version needed and exits 1', async ({ args }) => {
    const result = await runProcess(node, [BIN, ...args], { PATH: '/usr/bin:/bin', HOME: tmpdir() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const [floorMajor, floorMinor] = [FLOOR?.[1], FLOOR?.[2]];
    expect(result.stderr).toBe(
      `openmates: needs Node.js ${floorMajor}.${floorMinor} or later (this is v${version}); in this checkout, run \`. scripts/bootstrap.sh\` first.\n`,
    );
  });
});

describe('scripts/bootstrap.sh when npm cannot install', () => {
  const copy = mkdtempSync(join(tmpdir(), 'om-bootstrap-'));
  cpSync(join(ROOT, 'scripts', 'bootstrap.sh'), join(copy, 'scripts', 'bootstrap.sh'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  const npmEnv = {
    HOME: copy,
    // A registry nobody answers on, tried once.
    npm_config_registry: 'http://127.0.0.1:1',
    npm_config_fetch_retries: '0',
  };

  it('prints npm’s reason when Node cannot be installed', async () => {
    const systemPath = `${join(oldNode(), '..')}:/usr/bin:/bin`;
    const result = await runProcess(
      'bash',
      ['-c', '. scripts/bootstrap.sh; echo "status $?"'],
      { ...npmEnv, PATH: systemPath },
      { cwd: copy },
    );
    expect(result.stdout).toBe('status 1\n');
    expect(result.stderr).toMatch(/could not install Node 24 \(node-\w+-\w+@24\) with npm \(exit \d+\)\. npm says:/);
    expect(result.stderr).toContain('ECONNREFUSED 127.0.0.1:1');
    expect(result.stderr).not.toMatch(/\n\s*npm error\s+at /);
  });

  it('prints npm’s reason when pnpm cannot be installed', async () => {
    // A current Node first on PATH, and no pnpm anywhere on it.
    const currentPath = `${join(process.execPath, '..')}:/usr/bin:/bin`;
    const result = await runProcess(
      'bash',
      ['-c', '. scripts/bootstrap.sh; echo "status $?"'],
      { ...npmEnv, PATH: currentPath },
      { cwd: copy },
    );
    expect(result.stdout).toBe('status 1\n');
    expect(result.stderr).toMatch(/could not install pnpm 10 \(pnpm@[\d.]+\) with npm \(exit \d+\)\. npm says:/);
    expect(result.stderr).toContain('ECONNREFUSED 127.0.0.1:1');
  });
});
