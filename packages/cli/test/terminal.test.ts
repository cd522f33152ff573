import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import xtermHeadless from '@xterm/headless';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderHuman } from '../src/search/render-human.ts';
import { BIN, baseEnv, requireBuild, runCli, type ServeProcess, startServe } from './run-cli.ts';

// The CLI in a real pseudo-terminal: util-linux `script` gives it one (stdout, stderr and stdin are
// the pty; Ctrl-C written to script's stdin reaches it through the line discipline as SIGINT), and
// a headless xterm interprets the bytes it writes, cursor codes included, into the screen a person sees.

const { Terminal } = xtermHeadless;

let brave: BraveFixture;
let env: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('these tests need util-linux `script` (Debian: bsdutils) to give the CLI a pseudo-terminal');
  }
  brave = await startBraveFixture();
  env = baseEnv({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    SHELL: '/bin/sh',
    TERM: 'xterm-256color',
  });
});
afterAll(async () => {
  await brave?.close();
});
afterEach(() => brave.reset());

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find escape codes
const CURSOR_CODE = /\u001b\[/;
/** An escape code that moves the cursor, hides or shows it, or erases: anything but colour (SGR, `…m`). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find escape codes
const MOVING_CODE = /\u001b\[[0-9;?]*[A-HJKSTfhlsu]/;

/** `openmates ARGS` in a pty of `cols`×`rows`, its output read into a headless terminal of that size. */
function inTerminal(
  args: readonly string[],
  size: { cols: number; rows: number },
  extraEnv: Record<string, string> = {},
) {
  const command = `stty cols ${size.cols} rows ${size.rows} && exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...env, ...extraEnv },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const terminal = new Terminal({ cols: size.cols, rows: size.rows, scrollback: 1000, allowProposedApi: true });
  let raw = '';
  const waiters: { test: () => boolean; resolve: () => void; reject: (error: Error) => void }[] = [];
  /** The lines the terminal holds from row `from` on (0: scrollback, then the screen), rows it wrapped joined again. */
  const text = (from = 0) => {
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let y = from; y < buffer.length; y += 1) {
      const line = buffer.getLine(y);
      if (!line) continue;
      const content = line.translateToString(true);
      if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += content;
      else lines.push(content);
    }
    return lines.join('\n').trimEnd();
  };
  const settle = () => {
    for (const waiter of [...waiters])
      if (waiter.test()) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    raw += chunk;
    terminal.write(chunk, settle);
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) =>
      terminal.write('', () => {
        resolve(code);
        // A picture that never came fails at once, with the screen, rather than at the test's timeout.
        settle();
        for (const waiter of waiters.splice(0))
          waiter.reject(new Error(`openmates exited (${code}) before the terminal showed it:\n${text()}`));
      }),
    ),
  );
  return {
    child,
    exited,
    raw: () => raw,
    /** Everything the terminal holds: scrollback, then the screen. */
    text: () => text(),
    /** The screen as the person sees it now (no scrollback). */
    screen: () => text(terminal.buffer.active.baseY),
    /**
     * Resolves once the terminal's text passes `test`, checked after each write is interpreted (a
     * spinner redraw can be read half done, so tests wait for the whole picture they assert).
     */
    until: (test: (text: string) => boolean) =>
      new Promise<void>((resolve, reject) => {
        const waiter = { test: () => test(text()), resolve, reject };
        waiters.push(waiter);
        settle();
      }),
    ctrlC: () => child.stdin.write('\u0003'),
    close: () => child.stdin.end(),
  };
}

/**
 * What the non-streamed search prints for the same request in this terminal (colours on, so the
 * results are hyperlinks): the human rendering of its --json document as a person reads it
 * (`held`: how many of its queries the fixture holds, released once they arrive).
 */
async function nonStreamed(queries: string[], flags: string[], cols: number, held: number): Promise<string> {
  const run = runCli(['search', ...queries, ...flags, '--json'], env);
  if (held > 0) {
    await brave.waitForHeld(held);
    brave.release();
  }
  const { stdout } = await run;
  return stripVTControlCharacters(
    renderHuman(JSON.parse(stdout), { width: Math.max(40, cols), color: true, queries }),
  ).trimEnd();
}

describe('openmates search in a terminal (the in-place view)', () => {
  it('shows every query at once in request order, each pending until it finishes', async () => {
    const cli = inTerminal(['search', 'hold first', 'hold second'], { cols: 100, rows: 40 });
    await brave.waitForHeld(2);
    // Both pending, in request order: the view's first frame, held until the test releases them.
    await cli.until((text) =>
      /^\[1\] hold first\n {2}\S Searching…\n\n\[2\] hold second\n {2}\S Searching…$/.test(text),
    );
    expect(cli.text()).not.toContain('Result 1');
    brave.release();
    expect(await cli.exited).toBe(0);
    cli.close();
  });

  it('fills in the fast query while the slow one is held, then prints exactly the non-streamed output', async () => {
    const queries = ['hold slow words', 'fast words'];
    const cli = inTerminal(['search', ...queries, '--count', '2'], { cols: 100, rows: 40 });
    // The fast block filled in under the slow query's pending one.
    await cli.until((text) =>
      /^\[1\] hold slow words\n {2}\S Searching…\n\n\[2\] fast words\n {2}1\. {2}Result 1 for fast words/.test(text),
    );
    // The slow answer is still held at the provider: a CLI that waited for the batch could not show this.
    await brave.waitForHeld(1);
    expect(cli.text()).not.toContain('Result 1 for hold slow words');
    brave.release();
    expect(await cli.exited).toBe(0);
    cli.close();
    expect(cli.text()).toBe(await nonStreamed(queries, ['--count', '2'], 100, 1));
    // The cursor, hidden while the view was drawn, is shown again.
    expect(cli.raw().lastIndexOf('\u001b[?25h')).toBeGreaterThan(cli.raw().lastIndexOf('\u001b[?25l'));
  });

  it('shows one status line per query when the blocks do not fit the terminal, then the whole answer', async () => {
    const queries = ['hold slow words', 'fast words'];
    const size = { cols: 80, rows: 8 };
    const cli = inTerminal(['search', ...queries, '--count', '3'], size);
    await cli.until(() =>
      /^\[1\] hold slow words {2}\S Searching…\n\[2\] fast words {2}3 results\nThe results print here once every query has finished\.$/.test(
        cli.screen(),
      ),
    );
    await brave.waitForHeld(1);
    expect(cli.text()).not.toContain('Result 1 for');
    brave.release();
    expect(await cli.exited).toBe(0);
    cli.close();
    // The answer is longer than the screen: scrollback and screen together hold all of it.
    expect(cli.text()).toBe(await nonStreamed(queries, ['--count', '3'], size.cols, 1));
  });

  it("after Ctrl-C in the compact form, leaves each query's status, the held one interrupted", async () => {
    const cli = inTerminal(['search', 'hold slow words', 'fast words', '--count', '3'], { cols: 80, rows: 8 });
    await cli.until(() =>
      /^\[1\] hold slow words {2}\S Searching…\n\[2\] fast words {2}3 results\n/.test(cli.screen()),
    );
    await brave.waitForHeld(1);
    cli.ctrlC();
    expect(await cli.exited).toBe(130);
    await brave.waitForAborted(1);
    cli.close();
    expect(cli.text()).toMatch(
      /^\[1\] hold slow words {2}Interrupted\.\n\[2\] fast words {2}3 results\nopenmates: Interrupted: the searches still running were aborted\.$/,
    );
  });

  it('exits as the non-streamed search does: an all-failed batch exits 3 with its output', async () => {
    const cli = inTerminal(['search', 'unavailable x'], { cols: 100, rows: 40 });
    expect(await cli.exited).toBe(3);
    cli.close();
    const expected = await nonStreamed(['unavailable x'], [], 100, 0);
    // stderr (the same pty) adds its one error line after the output.
    expect(cli.text().startsWith(expected)).toBe(true);
    expect(cli.text().slice(expected.length)).toMatch(/^\nopenmates: /);
  });

  it('prints a refused request without drawing a view: exit 2, its one line alone', async () => {
    const cli = inTerminal(['search', 'a', 'b', 'c', 'd', 'e', 'f'], { cols: 100, rows: 40 });
    expect(await cli.exited).toBe(2);
    cli.close();
    expect(cli.raw()).not.toContain('\u001b[?25l');
    expect(cli.text()).toMatch(/^openmates: give 1 to 5 queries, one per argument \(got 6\)\./);
    expect(brave.requests).toHaveLength(0);
  });

  it('aborts the provider call on Ctrl-C, exits 130 and leaves the cursor shown', async () => {
    const cli = inTerminal(['search', 'hold interrupted'], { cols: 100, rows: 40 });
    await brave.waitForHeld(1);
    await cli.until((text) => text.includes('Searching…'));
    cli.ctrlC();
    expect(await cli.exited).toBe(130);
    await brave.waitForAborted(1);
    expect(brave.heldAborted).toBe(1);
    cli.close();
    expect(cli.text()).toMatch(/\[1\] hold interrupted\n {2}Interrupted\./);
    expect(cli.text()).toMatch(/openmates: Interrupted/);
    expect(cli.raw().lastIndexOf('\u001b[?25h')).toBeGreaterThan(cli.raw().lastIndexOf('\u001b[?25l'));
  });

  it('writes no cursor codes with TERM=dumb: each block as it finishes, as piped', async () => {
    const cli = inTerminal(
      ['search', 'hold slow words', 'fast words', '--count', '1'],
      { cols: 100, rows: 40 },
      {
        TERM: 'dumb',
      },
    );
    await cli.until((text) => text.includes('Result 1 for fast words'));
    await brave.waitForHeld(1);
    expect(cli.text()).toMatch(/^\[2\] fast words\n/);
    brave.release();
    expect(await cli.exited).toBe(0);
    cli.close();
    expect(cli.text()).toMatch(/Results from Brave Search$/);
    expect(cli.raw()).not.toMatch(CURSOR_CODE);
  });

  it('prints the piped form, without a spinner, when log lines share the terminal (OPENMATES_LOG_LEVEL)', async () => {
    const cli = inTerminal(
      ['search', 'hold slow words', 'fast words', '--count', '1'],
      { cols: 200, rows: 40 },
      {
        OPENMATES_LOG_LEVEL: 'info',
      },
    );
    await cli.until((text) => text.includes('Result 1 for fast words'));
    await brave.waitForHeld(1);
    brave.release();
    expect(await cli.exited).toBe(0);
    cli.close();
    expect(cli.text()).toMatch(/"event":"provider_call"/);
    expect(cli.text()).toMatch(/Results from Brave Search$/);
    expect(cli.raw()).not.toMatch(MOVING_CODE);
  });

  describe('through a server (--api-url, its event stream)', () => {
    let server: ServeProcess;
    beforeAll(async () => {
      server = await startServe(['--port', '0', '--no-gui'], { ...env, OPENMATES_RATE_LIMIT_PER_MIN: '0' });
    });
    afterAll(async () => {
      server?.child.kill('SIGTERM');
      await server?.exited;
    });

    it('fills in the fast query while the slow one is held, then prints the non-streamed output', async () => {
      const queries = ['hold slow words', 'fast words'];
      const cli = inTerminal(['search', ...queries, '--count', '2', '--api-url', server.url], { cols: 100, rows: 40 });
      await cli.until((text) =>
        /^\[1\] hold slow words\n {2}\S Searching…\n\n\[2\] fast words\n {2}1\. {2}Result 1 for fast words/.test(text),
      );
      await brave.waitForHeld(1);
      expect(cli.text()).not.toContain('Result 1 for hold slow words');
      brave.release();
      expect(await cli.exited).toBe(0);
      cli.close();
      expect(cli.text()).toBe(await nonStreamed(queries, ['--count', '2'], 100, 1));
    });

    it('places each group by its id, caller ids and assigned ones alike', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'openmates-tty-'));
      const file = join(dir, 'request.json');
      const request = {
        requests: [
          { id: 'slow', query: 'hold slow words', count: 1 },
          { query: 'fast words', count: 1 },
        ],
      };
      writeFileSync(file, JSON.stringify(request));
      const cli = inTerminal(['search', '--input', file, '--api-url', server.url], { cols: 100, rows: 40 });
      await cli.until((text) =>
        /^\[slow\] hold slow words\n {2}\S Searching…\n\n\[1\] fast words\n {2}1\. {2}Result 1 for fast words/.test(
          text,
        ),
      );
      await brave.waitForHeld(1);
      expect(cli.text()).not.toContain('Result 1 for hold slow words');
      brave.release();
      expect(await cli.exited).toBe(0);
      cli.close();
      rmSync(dir, { recursive: true });
    });

    it('shows behind a 429 rate_limited that it waits, how long, and that Ctrl-C stops it; Ctrl-C exits 130', async () => {
      const limited = createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' });
          response.end(JSON.stringify({ error: 'Rate limited.', code: 'rate_limited' }));
        });
      });
      await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(limited.address() as AddressInfo).port}`;
      try {
        const cli = inTerminal(['search', 'x', '--api-url', url], { cols: 160, rows: 40 });
        await cli.until((text) =>
          text.includes(
            `${url} rate limited this client: waiting 30 s before trying again (Ctrl-C stops, --no-wait exits at once).`,
          ),
        );
        cli.ctrlC();
        expect(await cli.exited).toBe(130);
        cli.close();
        expect(cli.raw().lastIndexOf('\u001b[?25h')).toBeGreaterThan(cli.raw().lastIndexOf('\u001b[?25l'));
      } finally {
        limited.closeAllConnections();
        limited.close();
      }
    });

    it('erases the view when the server cannot be reached: exit 1, one line', async () => {
      const closed = await startServe(['--port', '0', '--no-gui'], env);
      closed.child.kill('SIGTERM');
      expect(await closed.exited).toBe(0);
      const cli = inTerminal(['search', 'x', '--api-url', closed.url], { cols: 100, rows: 40 });
      expect(await cli.exited).toBe(1);
      cli.close();
      // The view was drawn (the request is valid), then wiped before the error line.
      expect(cli.raw()).toContain('Searching…');
      expect(cli.text()).toBe(`openmates: cannot reach ${closed.url}: is \`openmates serve\` running there?`);
      expect(cli.raw().lastIndexOf('\u001b[?25h')).toBeGreaterThan(cli.raw().lastIndexOf('\u001b[?25l'));
    });

    it('aborts the provider call on Ctrl-C and exits 130', async () => {
      const cli = inTerminal(['search', 'hold interrupted', '--api-url', server.url], { cols: 100, rows: 40 });
      await brave.waitForHeld(1);
      await cli.until((text) => text.includes('Searching…'));
      cli.ctrlC();
      expect(await cli.exited).toBe(130);
      await brave.waitForAborted(1);
      cli.close();
      expect(cli.raw().lastIndexOf('\u001b[?25h')).toBeGreaterThan(cli.raw().lastIndexOf('\u001b[?25l'));
    });
  });
});
