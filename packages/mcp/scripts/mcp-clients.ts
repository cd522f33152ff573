// The MCP surface as clients nobody here wrote see it (the test command's `mcp-clients` suite; the
// CLI must be built): `@modelcontextprotocol/conformance` over HTTP for the named scenarios, and
// the MCP Inspector's CLI (`tools/list`, `tools/call`) over HTTP and stdio, against `openmates
// serve` and `openmates mcp` on the local index (no network). Both tools are devDependencies of
// this package, run from node_modules. Usage: node mcp-clients.ts REPORT.json; writes the counts
// in vitest's shape for scripts/test-summary.ts and prints one line per check.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATHS } from '@openmates/contract';

const report = process.argv[2];
if (!report) throw new Error('usage: mcp-clients.ts REPORT.json');
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const BIN = here('../../cli/bin/run.js');
const CONFORMANCE = here('../node_modules/@modelcontextprotocol/conformance/dist/index.js');
const INSPECTOR = here('../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
/**
 * `json-schema-2020-12` looks for a fixture tool named `json_schema_2020_12_tool` and checks
 * nothing else when a server has none; a product server offers only `web_search`, so the scenario
 * runs against the conformance tool's own baseline of expected failures. What it is about (the
 * 2020-12 keywords reach a client untouched) is checked below on `web_search`'s own schema.
 */
const BASELINE = here('./conformance-baseline.yml');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'json-schema-2020-12'];

const home = mkdtempSync(join(tmpdir(), 'openmates-mcp-clients-'));
const env = {
  PATH: process.env.PATH ?? '',
  HOME: home,
  OPENMATES_PROVIDER: 'local',
  OPENMATES_INDEX: join(home, 'index.db'),
  OPENMATES_LOG_LEVEL: 'warn',
};
const ARGS = JSON.stringify([{ query: 'fetch abort' }]);

let passed = 0;
let failed = 0;
function record(name: string, ok: boolean, detail = ''): void {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`${ok ? 'pass' : 'FAIL'}  ${name}${ok || !detail ? '' : `\n${detail.slice(0, 2000)}`}`);
}

/** Runs a client to completion (bounded); its stdout, and whether it exited 0. */
function run(args: string[]): { ok: boolean; out: string; stdout: string } {
  const result = spawnSync(process.execPath, args, { env, encoding: 'utf8', timeout: 120_000 });
  const stdout = result.stdout ?? '';
  return { ok: result.status === 0, out: `${stdout}${result.stderr ?? ''}`, stdout };
}

/** `openmates serve` on a free loopback port; resolves with its URL once it listens. */
function serve(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-gui'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
      if (url) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`openmates serve exited (${code}) before listening:\n${text}`)));
  });
}

/** The tool result a client printed: a successful search has results inside the boundary. */
function searched(out: string): boolean {
  return out.includes('<untrusted-search-results token=') && !out.includes('"isError": true');
}

const server = await serve();
try {
  const endpoint = `${server.url}${PATHS.mcp}`;
  for (const scenario of SCENARIOS) {
    const baseline = scenario === 'json-schema-2020-12' ? ['--expected-failures', BASELINE] : [];
    const result = run([CONFORMANCE, 'server', '--url', endpoint, '--scenario', scenario, ...baseline]);
    record(`conformance ${scenario}`, result.ok, result.out);
  }

  const listed = run([INSPECTOR, '--cli', endpoint, '--transport', 'http', '--method', 'tools/list']);
  let schemaKept = false;
  try {
    const { tools } = JSON.parse(listed.stdout) as {
      tools: {
        name: string;
        inputSchema: { $schema?: unknown; additionalProperties?: unknown; properties?: object };
      }[];
    };
    const schema = tools.find((t) => t.name === 'web_search')?.inputSchema;
    schemaKept =
      schema?.$schema === 'https://json-schema.org/draft/2020-12/schema' &&
      schema.additionalProperties === false &&
      schema.properties !== undefined;
  } catch {
    schemaKept = false;
  }
  record('inspector http tools/list', listed.ok && listed.out.includes('"web_search"'), listed.out);
  record('inspector http tools/list keeps the 2020-12 schema keywords', schemaKept, listed.out);
  const called = run([
    INSPECTOR,
    '--cli',
    endpoint,
    '--transport',
    'http',
    '--method',
    'tools/call',
    '--tool-name',
    'web_search',
    '--tool-arg',
    `requests=${ARGS}`,
  ]);
  record('inspector http tools/call', called.ok && searched(called.out), called.out);

  const stdio = (method: string[]) =>
    run([
      INSPECTOR,
      '--cli',
      ...Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]),
      ...method,
      '--',
      process.execPath,
      BIN,
      'mcp',
    ]);
  const stdioList = stdio(['--method', 'tools/list']);
  record('inspector stdio tools/list', stdioList.ok && stdioList.out.includes('"web_search"'), stdioList.out);
  const stdioCall = stdio(['--method', 'tools/call', '--tool-name', 'web_search', '--tool-arg', `requests=${ARGS}`]);
  record('inspector stdio tools/call', stdioCall.ok && searched(stdioCall.out), stdioCall.out);
} finally {
  server.child.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
}

writeFileSync(report, JSON.stringify({ numPassedTests: passed, numFailedTests: failed, success: failed === 0 }));
console.log(`mcp clients: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
