import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The real binary, as users run it. */
export const BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url));

/** Fails early with the fix when the CLI was not built (the binary loads `dist/`). */
export function requireBuild(): void {
  if (!existsSync(fileURLToPath(new URL('../dist/fast-search.js', import.meta.url))))
    throw new Error('packages/cli is not built: run `pnpm turbo run build` first');
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A controlled environment: nothing inherited from the caller but PATH and HOME, so an
 * OPENMATES_* or key variable of the developer's shell never changes a test.
 */
export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', OPENMATES_CACHE_TTL_S: '0', ...extra };
}

/**
 * The processes under `pid` (its children, theirs, …) as `ps` lists them, one per line: what a
 * process that does not end is waiting on.
 */
function processesUnder(pid: number): string {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,etimes=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null);
  const children = Map.groupBy(rows, ([, , parent]) => Number(parent));
  const listed: string[] = [];
  const visit = (at: number) => {
    for (const [, child, , seconds, args] of children.get(at) ?? []) {
      listed.push(`  ${child} (${seconds} s): ${args}`);
      visit(Number(child));
    }
  };
  const own = rows.find(([, child]) => Number(child) === pid);
  if (own) listed.push(`  ${own[1]} (${own[3]} s): ${own[4]}`);
  visit(pid);
  return listed.join('\n');
}

/**
 * Runs COMMAND ARGS to completion with `input` on stdin (closed at once when empty), collecting its
 * output. With `stuckAfterMs`, a process still running by then is killed with its children and the
 * promise rejects naming every process it had started and how long each had run, with its output
 * so far: a hang is reported as what hung, not as a test that timed out.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  options: { input?: string; cwd?: string; stuckAfterMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: options.stuckAfterMs !== undefined,
    });
    let stdout = '';
    let stderr = '';
    const stuck =
      options.stuckAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            const running = processesUnder(child.pid as number);
            try {
              process.kill(-(child.pid as number), 'SIGKILL');
            } catch {
              // The group ended between the listing and the kill: nothing is left to stop.
            }
            reject(
              new Error(
                `${command} ${args.join(' ')} still running after ${options.stuckAfterMs} ms; its processes:\n${running}\nstdout so far: ${JSON.stringify(stdout)}\nstderr so far: ${JSON.stringify(stderr)}`,
              ),
            );
          }, options.stuckAfterMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(stuck);
      resolve({ code, stdout, stderr });
    });
    // A process that exits without reading its stdin (a shell script's `exit 1`) closes the pipe
    // first: EPIPE then means it wanted no input, not a failure of the run.
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Runs `openmates ARGS` to completion with `input` on stdin, on this Node or the `node` binary given. */
export function runCli(
  args: readonly string[],
  env: Record<string, string>,
  input = '',
  node = process.execPath,
): Promise<CliResult> {
  return runProcess(node, [BIN, ...args], env, { input });
}

/** A running `openmates serve`, with the origin it printed. */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** Starts `openmates serve ARGS` and resolves once it printed where it listens. */
export function startServe(args: readonly string[], env: Record<string, string>): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1] && stdout.includes('Press Ctrl+C'))
        resolve({ child, url: match[1], stdout: () => stdout, stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening: ${stderr}`)));
  });
}
