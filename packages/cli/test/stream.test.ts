import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, requireBuild, runCli } from './run-cli.ts';

let brave: BraveFixture;
let env: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  brave = await startBraveFixture();
  env = baseEnv({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
  });
});
afterAll(async () => {
  await brave?.close();
});
afterEach(() => brave.reset());

/** `openmates ARGS` with stdout read line by line as it is written. */
function spawnCli(args: readonly string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    exited,
    stderr: () => stderr,
    next: async () => {
      const { value, done } = await lines.next();
      return done ? undefined : (JSON.parse(value) as { event: string; data: Record<string, unknown> });
    },
  };
}

const withoutRequestId = (document: unknown) => ({ ...(document as object), request_id: undefined });

describe('openmates search --jsonl', () => {
  it('prints the fast group while the slow query is held, then done equal to --json, exit 0', async () => {
    const args = ['search', 'hold slow words', 'fast words', '--count', '2'];
    const cli = spawnCli([...args, '--jsonl']);
    const first = await cli.next();
    // The slow answer is still held at the provider: a CLI that waited for the batch could not print this.
    expect(first).toMatchObject({ event: 'group', data: { id: 2 } });
    await brave.waitForHeld(1);
    brave.release();
    expect(await cli.next()).toMatchObject({ event: 'group', data: { id: 1 } });
    const done = await cli.next();
    expect(done?.event).toBe('done');
    expect(await cli.next()).toBeUndefined();
    expect(await cli.exited).toBe(0);
    // The same search as --json: its slow query is held again until released.
    const jsonRun = runCli([...args, '--json'], env);
    await brave.waitForHeld(1);
    brave.release();
    const json = await jsonRun;
    expect(withoutRequestId(done?.data)).toEqual(withoutRequestId(JSON.parse(json.stdout)));
  });

  it('exits as --json does: an all-failed batch ends with done and exit 3', async () => {
    const result = await runCli(['search', 'unavailable x', '--jsonl'], env);
    expect(result.code).toBe(3);
    const events = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).event);
    expect(events).toEqual(['group', 'done']);
    expect((await runCli(['search', 'unavailable x', '--json'], env)).code).toBe(3);
  });

  it('prints a refused request as one error event with the exit code of --json', async () => {
    const result = await runCli(['search', 'a', 'b', 'c', 'd', 'e', 'f', '--jsonl'], env);
    expect(result.code).toBe(2);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ event: 'error', data: { code: 'invalid_request' } });
  });

  it('refuses --json with --jsonl as a usage error: exit 2, nothing on stdout', async () => {
    const result = await runCli(['search', 'x', '--json', '--jsonl'], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/--json and --jsonl cannot be combined/);
    expect(brave.requests).toHaveLength(0);
  });

  it.each([
    ['search', 'x', '--filter-tabloids=no'],
    ['apps:web:search', 'x', '--no-extra-snippets=1'],
    ['search', '--json=true', 'x'],
  ])('refuses a switch written with a value as a usage error: %s %s %s', async (...argv) => {
    const result = await runCli(argv, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const valued = argv.find((arg) => arg.includes('=')) as string;
    const name = valued.slice(0, valued.indexOf('='));
    expect(result.stderr).toBe(
      `openmates: ${name} is a switch and takes no value (${valued}): write ${name} alone. See \`openmates search --help\`.\n`,
    );
    expect(brave.requests).toHaveLength(0);
  });

  it('aborts the provider call on Ctrl-C and exits 130', async () => {
    const cli = spawnCli(['search', 'hold interrupted', '--jsonl']);
    await brave.waitForHeld(1);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(130);
    await brave.waitForAborted(1);
    expect(brave.heldAborted).toBe(1);
    expect(cli.stderr()).toMatch(/Interrupted/);
  });
});

describe('openmates search, human output piped', () => {
  it('prints the fast group while the slow query is held, then the rest, without cursor codes', async () => {
    const child = spawn(process.execPath, [BIN, 'search', 'hold slow words', 'fast words', '--count', '1'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const fastShown = new Promise<void>((resolve) =>
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('Result 1 for fast words')) resolve();
      }),
    );
    await fastShown;
    // Printed while the slow answer is still held at the provider.
    expect(stdout).toMatch(/^\[2\] fast words\n/);
    expect(stdout).not.toContain('slow words');
    await brave.waitForHeld(1);
    brave.release();
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/\[1\] hold slow words\n {2}1\. {2}Result 1 for hold slow words/);
    expect(stdout).toMatch(/Results from Brave Search\n$/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find escape codes
    expect(stdout).not.toMatch(/\u001b\[/);
    // Each block once: nothing changed by fitting here.
    expect(stdout.split('[2] fast words')).toHaveLength(2);
  });
});
