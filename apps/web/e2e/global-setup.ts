import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const serveScript = fileURLToPath(new URL('./serve.ts', import.meta.url));

/** Starts `serve.ts` in a child Node (`env` added to this one's) and resolves to its first stdout line, parsed. */
export async function startServer(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; info: { url: string; apiKey?: string } }> {
  const child = spawn(process.execPath, [serveScript, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  let buffered = '';
  const info = await new Promise<{ url: string; apiKey?: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`e2e server exited early (code ${code})`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline >= 0) resolve(JSON.parse(buffered.slice(0, newline)));
    });
  });
  return { child, info };
}

/**
 * Two servers: one open, one with API keys (for the key prompt). Their URLs reach the tests as
 * E2E_URL, E2E_KEYED_URL and E2E_API_KEY; the returned function stops both.
 */
export default async function globalSetup() {
  const [open, keyed] = await Promise.all([startServer([]), startServer(['--keys'])]);
  process.env.E2E_URL = open.info.url;
  process.env.E2E_KEYED_URL = keyed.info.url;
  process.env.E2E_API_KEY = keyed.info.apiKey ?? '';
  return async () => {
    for (const { child } of [open, keyed]) {
      if (child.exitCode !== null) continue;
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  };
}
