// Every shell block of the root README runs as a reader would paste it: `openmates` on the PATH
// through scripts/install-cli.sh's shim, the server block in the background (the other blocks call
// it), a fresh HOME, the offline local index and nothing else of this machine's environment, so no
// provider is reached and nothing leaves loopback. A block that must not run here says so in the
// README, on the line before it: `<!-- readme-test: skip (why) -->`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, runProcess } from './run-cli.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The origin the README's examples name; the test's server listens on a free port instead. */
const README_ORIGIN = 'http://127.0.0.1:8787';

interface Block {
  /** Its first line: how the test names it. */
  name: string;
  code: string;
  mode: 'run' | 'skip' | 'background';
  /** Why it is skipped or in the background, as the README says. */
  reason?: string;
}

/** The ```sh and ```bash blocks of a Markdown text, each with the marker on the line before it. */
function shellBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash)\s*$/.test(lines[i] ?? '')) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    if (end < 0) throw new Error(`README.md: the block at line ${i + 1} is never closed`);
    const code = lines.slice(i + 1, end).join('\n');
    const marker = /^<!-- readme-test: (skip|background) \((.+)\) -->$/.exec(lines[i - 1] ?? '');
    const name = code.split('\n')[0] ?? '';
    blocks.push(
      marker
        ? { name, code, mode: marker[1] as Block['mode'], reason: marker[2] as string }
        : { name, code, mode: 'run' },
    );
    i = end;
  }
  return blocks;
}

/** What each block that runs must print (beyond exiting 0), found by a text in its first line. */
const EXPECTED: { first: string; check: (stdout: string) => void }[] = [
  {
    first: 'curl -s http://127.0.0.1:8787/v1/apps/web/skills/search',
    check(stdout) {
      const response = JSON.parse(stdout);
      expect(response.provider).toBe('Local index');
      expect(response.results[0].results.length).toBe(3);
    },
  },
  {
    first: 'openmates search "fetch abort" "css grid"',
    check(stdout) {
      expect(stdout).toMatch(/^\[1\] fetch abort\n/);
      expect(stdout).toContain('\n[2] css grid\n');
      // The scoped search through the server: every result on the site it was limited to.
      const json = stdout.slice(stdout.indexOf('\n{') + 1, stdout.lastIndexOf('}') + 1);
      const response = JSON.parse(json);
      const urls: string[] = response.results[0].results.map((result: { url: string }) => result.url);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(new URL(url).hostname).toBe('developer.mozilla.org');
      expect(stdout).toMatch(/✓ local index/);
    },
  },
  {
    first: 'curl -s http://127.0.0.1:8787/mcp',
    check(stdout) {
      expect(stdout).toContain('"structuredContent"');
      expect(stdout).toContain('untrusted-search-results');
    },
  },
];

describe('the README', () => {
  const blocks = shellBlocks(README);

  it('skips only the blocks that cannot run here, each with its reason, and serves one', () => {
    expect(blocks.filter((b) => b.mode === 'skip').map((b) => b.name)).toEqual([
      'bash scripts/start.sh            # or: bash scripts/start.sh --port 9000',
      'bash scripts/test.sh',
      'bash scripts/install-cli.sh                 # and: bash scripts/install-cli.sh --uninstall',
      'pnpm release:pack',
    ]);
    for (const block of blocks.filter((b) => b.mode !== 'run')) expect(block.reason?.length).toBeGreaterThan(10);
    expect(blocks.filter((b) => b.mode === 'background').map((b) => b.code)).toEqual(['openmates serve']);
    expect(blocks.filter((b) => b.mode === 'run').length).toBeGreaterThanOrEqual(3);
  });

  it('names the test command the CI runs', () => {
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toContain('exec bash scripts/test.sh');
    expect(blocks.some((b) => b.code === 'bash scripts/test.sh')).toBe(true);
  });

  it('is at most 200 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(201);
  });

  describe('each shell block, against the server its background block starts', () => {
    let dir: string;
    let env: Record<string, string>;
    let server: ChildProcess;
    let exited: Promise<number | null>;
    let origin: string;

    beforeAll(async () => {
      requireBuild();
      dir = mkdtempSync(join(tmpdir(), 'om-readme-'));
      const bin = join(dir, 'bin');
      // As the README's own install does, minus the build the test command has done already.
      const installed = await runProcess(
        'bash',
        [join(ROOT, 'scripts/install-cli.sh'), '--no-build', '--bin-dir', bin],
        {
          PATH: process.env.PATH ?? '',
          HOME: join(dir, 'home'),
        },
      );
      expect(installed.code, installed.stderr).toBe(0);
      env = { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, HOME: join(dir, 'home') };

      const background = blocks.find((b) => b.mode === 'background');
      if (!background) throw new Error('README.md has no background block');
      // On a free port rather than 8787, which anything else on the machine may hold.
      server = spawn('bash', ['-c', `exec ${background.code} --port 0`], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      exited = new Promise((done) => server.on('close', (code) => done(code)));
      server.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      origin = await new Promise<string>((resolve, reject) => {
        server.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(stdout);
          if (match?.[1] && stdout.includes('Press Ctrl+C')) resolve(match[1]);
        });
        void exited.then((code) => reject(new Error(`${background.code} exited with ${code}: ${stderr}`)));
      });
    });

    afterAll(async () => {
      if (server && server.exitCode === null) {
        server.kill('SIGTERM');
        expect(await exited).toBe(0);
      }
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    for (const block of blocks.filter((b) => b.mode === 'run')) {
      it(`runs: ${block.name}`, async () => {
        const expected = EXPECTED.find((e) => block.name.startsWith(e.first));
        expect(expected, `README.md: say in EXPECTED what "${block.name}" prints`).toBeDefined();
        const code = block.code.replaceAll(README_ORIGIN, origin);
        const result = await runProcess('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', code], env, {
          cwd: ROOT,
        });
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        expected?.check(result.stdout);
      });
    }
  });
});
