// pnpm bench:mcp — the MCP surface's own cost, in one run (the CLI must be built).
// (1) A warm `tools/call` over stdio to `openmates mcp` against the Brave fixture at zero latency,
//     in both protocol eras (the 2025-11-25 handshake, the stateless 2026-07-28 revision), next to
//     the same search as a direct engine call in this process: p50/p99 and the difference
//     (target: p50 at most +1.5 ms over the engine's own time).
// (2) Spawn to first result: an MCP client starts `openmates mcp` on the local index (built before
//     the timing starts), initializes and gets its first tool result (target: at most 200 ms).
// Bounded: fixed iteration counts, loopback and child processes only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createConfiguredProvider, createEngine, createLogger, loadConfig } from '@openmates/core';
import { startBraveFixture } from '@openmates/fixtures';

const BIN = fileURLToPath(new URL('../../cli/bin/run.js', import.meta.url));
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? Number.NaN;

async function samples(iterations: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await run(i);
    out.push(performance.now() - started);
  }
  return out;
}

async function connect(env: Record<string, string>, modern = false): Promise<Client> {
  const client = new Client(
    { name: 'bench', version: '0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env: { PATH: process.env.PATH ?? '', ...env },
    }),
  );
  return client;
}

const request = (q: string) => ({ requests: [{ query: q, count: 10, filter_tabloids: false }] });

const brave = await startBraveFixture();
const braveEnv = {
  OPENMATES_PROVIDER: 'brave',
  BRAVE_SEARCH_API_KEY: brave.apiKey,
  BRAVE_SEARCH_BASE_URL: brave.baseUrl,
  OPENMATES_CACHE_TTL_S: '0',
};
const config = loadConfig(braveEnv);
const engine = createEngine({
  config,
  provider: createConfiguredProvider(config),
  logger: createLogger({ level: 'silent', redact: (s) => s }),
});
const client = await connect(braveEnv);
const modernClient = await connect(braveEnv, true);
const call = (q: string) => client.callTool({ name: 'web_search', arguments: request(q) });
const modernCall = (q: string) => modernClient.callTool({ name: 'web_search', arguments: request(q) });

// Warm every path (sockets, JIT), then alternate so machine load falls on all alike.
await samples(100, (i) => engine.search(request(`warm ${i}`)));
await samples(100, (i) => call(`warm ${i}`));
await samples(100, (i) => modernCall(`warm ${i}`));
const engineMs: number[] = [];
const mcpMs: number[] = [];
const modernMs: number[] = [];
for (let round = 0; round < 5; round++) {
  engineMs.push(...(await samples(100, (i) => engine.search(request(`q ${round} ${i}`)))));
  mcpMs.push(...(await samples(100, (i) => call(`q ${round} ${i}`))));
  modernMs.push(...(await samples(100, (i) => modernCall(`m ${round} ${i}`))));
}
await client.close();
await modernClient.close();
await engine.close();
await brave.close();

// Spawn to first result on a built local index.
const home = mkdtempSync(join(tmpdir(), 'openmates-bench-mcp-'));
const localEnv = { HOME: home, OPENMATES_INDEX: join(home, 'index.db') };
const build = await connect(localEnv);
await build.callTool({ name: 'web_search', arguments: request('fetch abort') }); // builds the demo corpus
await build.close();
const spawnMs = await samples(15, async () => {
  const first = await connect(localEnv);
  await first.callTool({ name: 'web_search', arguments: request('fetch abort') });
  await first.close();
});
rmSync(home, { recursive: true, force: true });
const nodeMs = await samples(15, async () => {
  const { spawnSync } = await import('node:child_process');
  spawnSync(process.execPath, ['-e', '0']);
});

const f = (ms: number) => `${ms.toFixed(2)} ms`;
console.log('MCP benchmark (Brave fixture on loopback at zero latency; 500 calls each, alternated)');
console.log(`  engine call in process        p50 ${f(quantile(engineMs, 0.5))}  p99 ${f(quantile(engineMs, 0.99))}`);
for (const [label, ms] of [
  ['2025-11-25', mcpMs],
  ['2026-07-28', modernMs],
] as const) {
  console.log(`  tools/call over stdio, ${label}  p50 ${f(quantile(ms, 0.5))}  p99 ${f(quantile(ms, 0.99))}`);
  console.log(
    `    added by MCP                p50 +${f(quantile(ms, 0.5) - quantile(engineMs, 0.5))}  p99 +${f(quantile(ms, 0.99) - quantile(engineMs, 0.99))}  (target p50 ≤ +1.5 ms)`,
  );
}
console.log(`spawn to first result, local index built (median of 15)`);
console.log(`  openmates mcp                 ${f(quantile(spawnMs, 0.5))}  (target ≤ 200 ms)`);
console.log(`  node -e 0, for scale          ${f(quantile(nodeMs, 0.5))}`);
