// What the Python tests talk to: a Brave fixture and the real server (`openmates serve`'s handler and
// node:http adapter) on 127.0.0.1, port 0, configured from this process's environment, logging JSON
// lines on stderr as `serve` does. Prints `{"url", "canary"}` as one line on stdout once both listen,
// and stops when stdin closes (the Python side closes it in teardown; a crashed test closes it too).
//
// Each line written to stdin is a command for the fixture's `hold` gate, answered by one JSON line on
// stdout once done: `{"op": "held", "n": N}` (waits until N calls are held), `{"op": "release"}`,
// `{"op": "aborted", "n": N}` (waits until N held calls were given up by their client; answers the
// count), `{"op": "reset"}`.

import { createInterface } from 'node:readline';
import { CANARY_API_KEY, startBraveFixture } from '@openmates/fixtures';
import { createServer, loadServerSettings } from '@openmates/server';

const brave = await startBraveFixture();
const env: Record<string, string | undefined> = {
  OPENMATES_PROVIDER: 'brave',
  BRAVE_SEARCH_API_KEY: brave.apiKey,
  BRAVE_SEARCH_BASE_URL: brave.baseUrl,
  OPENMATES_CACHE_TTL_S: '0',
  OPENMATES_RATE_LIMIT_PER_MIN: '0',
  OPENMATES_LOG_LEVEL: 'info',
  ...process.env,
};
const server = await createServer(loadServerSettings(env), { version: 'python-tests' });
process.stdout.write(`${JSON.stringify({ url: server.url, canary: CANARY_API_KEY })}\n`);

/** Runs one command of the hold gate and says what came of it. */
async function command(line: string): Promise<Record<string, unknown>> {
  const { op, n } = JSON.parse(line) as { op?: string; n?: number };
  switch (op) {
    case 'held':
      await brave.waitForHeld(n ?? 1);
      return { ok: true };
    case 'release':
      brave.release();
      return { ok: true };
    case 'aborted':
      await brave.waitForAborted(n ?? 1);
      return { ok: true, aborted: brave.heldAborted };
    case 'reset':
      brave.reset();
      return { ok: true };
    default:
      return { ok: false, error: `unknown command ${JSON.stringify(line)}` };
  }
}

// One command at a time, answered in order: the Python side waits for each answer before the next.
let queue = Promise.resolve();
const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  queue = queue.then(async () => {
    const answer = await command(line).catch((error: unknown) => ({ ok: false, error: String(error) }));
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  });
});
input.on('close', async () => {
  brave.release();
  await server.close(1_000);
  await brave.close();
  process.exit(0);
});
