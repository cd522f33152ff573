// Every artifact installed as a user installs it (the test command's `installed` suite, ADR 0096):
// `pnpm release:pack` once, then the CLI's tarball with npm into an empty directory outside the
// workspace (its dependencies from the registry), the npm SDK's tarball into another, and the pip
// wheel into a fresh venv with `--no-index` (nothing built). Against those alone: `openmates search`
// on the offline local index, `openmates serve` (the GUI's search form at `/`, the API, `/docs`),
// `openmates mcp` (tools/list over stdio), the SDK from ESM and CommonJS and its types under the
// workspace's tsc, the pip SDK against the served API, one version everywhere; publint on both
// tarballs and attw on the SDK's; no install script and no private workspace name anywhere in the
// installed trees. One to two minutes on a 2-core machine (55 s quiet, 2 min under load), mostly npm fetching the CLI's
// dependencies. Usage: node scripts/release/installed.ts REPORT.json; writes the counts in
// vitest's shape for scripts/test-summary.ts and prints one line per check.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Artifacts, pack } from './pack.ts';

const report = process.argv[2];
if (!report) throw new Error('usage: installed.ts REPORT.json');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const started = performance.now();

let passed = 0;
let failed = 0;
function record(name: string, ok: boolean, detail = ''): boolean {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`${ok ? 'pass' : 'FAIL'}  ${name}${ok || !detail ? '' : `\n${detail.slice(0, 3000)}`}`);
  return ok;
}
/** Runs a check; a throw is its failure, with the message as the detail. */
async function check(name: string, body: () => unknown): Promise<boolean> {
  try {
    const result = await body();
    return record(name, result !== false, typeof result === 'string' ? result : '');
  } catch (error) {
    return record(name, false, error instanceof Error ? (error.stack ?? error.message) : String(error));
  }
}
function writeReport(): void {
  writeFileSync(
    report as string,
    JSON.stringify({ numPassedTests: passed, numFailedTests: failed, success: failed === 0 }),
  );
}
function expect(ok: boolean, message: string): void {
  if (!ok) throw new Error(message);
}

const work = mkdtempSync(join(tmpdir(), 'openmates-installed-'));
/**
 * This Node first, then the machine's PATH without anything of the workspace (no node_modules/.bin).
 * The machine's own variables are kept (its certificates, say), but none that could point back into
 * the workspace or configure the product: no OPENMATES_*, no npm_config_* or PNPM_* set by pnpm,
 * no NODE_PATH or NODE_OPTIONS, no PYTHONPATH or active venv.
 */
const PATH = [
  dirname(process.execPath),
  ...(process.env.PATH ?? '').split(delimiter).filter((p) => !p.startsWith(ROOT)),
].join(delimiter);
const OURS = /^(OPENMATES_|npm_|PNPM_|TURBO_|NODE_PATH$|NODE_OPTIONS$|PYTHONPATH$|VIRTUAL_ENV$|INIT_CWD$)/i;
const machine = Object.fromEntries(
  Object.entries(process.env).filter(
    (entry): entry is [string, string] => !OURS.test(entry[0]) && entry[1] !== undefined,
  ),
);
/** For npm and pip: the user's own configuration and cache (the registry and mirror they use). */
const toolEnv = {
  ...machine,
  PATH,
  HOME: homedir(),
  npm_config_update_notifier: 'false',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
};
/** For what is installed: a fresh home, so no index, key or config of this machine's is found. */
const userEnv = { ...machine, PATH, HOME: join(work, 'home') };
mkdirSync(userEnv.HOME);

function run(command: string, args: string[], cwd: string, env: Record<string, string>): string {
  return execFileSync(command, args, {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 300_000,
  });
}
/** An empty project directory with the given tarballs installed by npm, as a user would. */
function npmInstall(name: string, tarballs: string[]): string {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  // --ignore-scripts: nothing installed may run; the tree is then checked to hold no install script,
  // so a user's install (scripts on) runs none either.
  run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs], dir, toolEnv);
  return dir;
}

/** The names of the workspace's private packages: an installed tree must never ask for one. */
function privateNames(): Set<string> {
  const names = new Set<string>();
  for (const parent of ['packages', 'apps', '.']) {
    const dirs =
      parent === '.' ? ['contract', 'assertions'] : readdirSync(join(ROOT, parent)).map((d) => join(parent, d));
    for (const dir of dirs) {
      const file = join(ROOT, dir, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name: string; private?: boolean };
      if (manifest.private) names.add(manifest.name);
    }
  }
  return names;
}

/** Every package.json under node_modules, with its path. */
function manifests(dir: string): { path: string; manifest: Record<string, unknown> }[] {
  const found: { path: string; manifest: Record<string, unknown> }[] = [];
  for (const entry of readdirSync(join(dir, 'node_modules'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== 'package.json') continue;
    const path = join(entry.parentPath, entry.name);
    try {
      found.push({ path, manifest: JSON.parse(readFileSync(path, 'utf8')) });
    } catch {
      // A fixture or template that is not JSON is no manifest npm reads.
    }
  }
  return found;
}

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];
/** What in an installed tree could run at install time or names a private workspace package. */
function treeProblems(dir: string, banned: Set<string>): string[] {
  const problems: string[] = [];
  const list = manifests(dir);
  expect(list.length > 10 || dir.endsWith('sdk'), `only ${list.length} manifests under ${dir}`);
  for (const { path, manifest } of list) {
    const where = path.slice(dir.length + 1);
    const scripts = (manifest.scripts ?? {}) as Record<string, unknown>;
    for (const script of INSTALL_SCRIPTS) if (script in scripts) problems.push(`${where}: scripts.${script}`);
    // npm runs `node-gyp rebuild` for a package with a binding.gyp and no install script.
    if (typeof manifest.name === 'string' && existsSync(join(dirname(path), 'binding.gyp')))
      problems.push(`${where}: binding.gyp`);
    if (typeof manifest.name === 'string' && banned.has(manifest.name)) problems.push(`${where}: is ${manifest.name}`);
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies']) {
      const deps = manifest[field];
      const names = Array.isArray(deps) ? deps : Object.keys((deps ?? {}) as object);
      for (const name of names) if (banned.has(name)) problems.push(`${where}: ${field} names ${name}`);
    }
  }
  return problems;
}

/** `openmates serve` from the installed CLI on a free loopback port; resolves once it listens. */
function serve(bin: string): Promise<{ url: string; out: () => string; child: ChildProcess }> {
  const child = spawn(bin, ['serve', '--port', '0'], { cwd: work, env: userEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: string) => {
      text += chunk;
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
      if (url && text.includes('Press Ctrl+C')) resolve({ url, out: () => text, child });
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    child.once('exit', (code) => reject(new Error(`openmates serve exited (${code}) before listening:\n${text}`)));
  });
}

/** `openmates mcp` over stdio: initialize, then tools/list; the names of the tools it lists. */
function mcpTools(bin: string): Promise<string[]> {
  const child = spawn(bin, ['mcp'], { cwd: work, env: userEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  let buffer = '';
  let stderr = '';
  return new Promise<string[]>((resolve, reject) => {
    const bound = setTimeout(() => reject(new Error(`no tools/list answer in 60 s\n${stderr}`)), 60_000);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('exit', (code) => reject(new Error(`openmates mcp exited (${code})\n${stderr}`)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, end)) as { id?: number; result?: { tools?: { name: string }[] } };
        buffer = buffer.slice(end + 1);
        if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          clearTimeout(bound);
          resolve((message.result?.tools ?? []).map((tool) => tool.name));
        }
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'installed-suite', version: '0' },
      },
    });
  }).finally(() => child.kill());
}

async function getText(url: string): Promise<{ status: number; type: string; body: string }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
}

/** The SDK used as a program would: from ESM and from CommonJS, against the served API. */
const SDK_PROGRAM = (load: string) => `${load}
const client = new OpenMates({ baseURL: process.env.OPENMATES_API_URL, apiKey: null });
client.apps.web.search({ requests: [{ query: 'css grid', count: 3 }] }).then((response) => {
  console.log(JSON.stringify({ version: VERSION, provider: response.provider, count: response.results[0].results.length }));
});
`;
/** A typed use of the SDK; the expect-error line fails the check if the types let anything through. */
const SDK_TYPES = (wrap: (body: string) => string) =>
  `import { OpenMates, type WebSearchResponse, type WebSearchResult } from '@openmates/sdk';
const client = new OpenMates({ baseURL: 'http://127.0.0.1:8787', apiKey: null });
${wrap(`const response: WebSearchResponse = await client.apps.web.search({ requests: [{ query: 'css grid', count: 3 }] });
  const first: WebSearchResult | undefined = response.results[0]?.results[0];
  const url: string | undefined = first?.url;
  // @ts-expect-error: count is a number
  await client.apps.web.search({ requests: [{ query: 'css grid', count: 'three' }] });
  return url;`)}
`;

/** The pip SDK in its venv, against the served API: where it was imported from, its version, a search. */
const PIP_PROGRAM = `import json, sys
import openmates
client = openmates.OpenMates(base_url=sys.argv[1])
response = client.apps.web.search(requests=[{"query": "css grid", "count": 3}])
print(json.dumps({"file": openmates.__file__, "version": openmates.__version__,
                  "provider": response["provider"], "count": len(response["results"][0]["results"])}))
`;

async function main(): Promise<void> {
  let artifacts: Artifacts;
  try {
    artifacts = await pack();
    record('release:pack writes the CLI and SDK tarballs, the wheel and the sdist', true);
  } catch (error) {
    record('release:pack writes the CLI and SDK tarballs, the wheel and the sdist', false, String(error));
    return;
  }
  const { version } = artifacts;
  const banned = privateNames();

  const sdkRequire = createRequire(join(ROOT, 'packages/sdk/package.json'));
  const { publint } = (await import(pathToFileURL(sdkRequire.resolve('publint')).href)) as {
    publint(options: object): Promise<{ messages: unknown[] }>;
  };
  for (const [name, tarball] of [
    ['CLI', artifacts.cli],
    ['SDK', artifacts.sdk],
  ] as const)
    await check(`publint reports nothing on the ${name} tarball`, async () => {
      const bytes = new Uint8Array(readFileSync(tarball));
      const { messages } = await publint({ pack: { tarball: bytes.buffer }, strict: true, level: 'suggestion' });
      return messages.length === 0 || JSON.stringify(messages, null, 2);
    });
  await check('@arethetypeswrong/cli reports nothing on the SDK tarball', () => {
    const manifest = sdkRequire.resolve('@arethetypeswrong/cli/package.json');
    const bin = join(
      dirname(manifest),
      (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin.attw as string,
    );
    let out: string;
    try {
      out = run(process.execPath, [bin, artifacts.sdk, '--format', 'json'], work, toolEnv);
    } catch (error) {
      out = (error as { stdout?: string }).stdout ?? String(error);
    }
    const analysis = (JSON.parse(out) as { analysis: { problems: unknown[]; entrypoints: object } }).analysis;
    return (analysis.problems.length === 0 && '.' in analysis.entrypoints) || out;
  });
  await check('the sdist carries the package and its metadata at the release version, no tests', () => {
    const files = run('tar', ['-tzf', artifacts.sdist], work, toolEnv).trim().split('\n');
    const top = `openmates-${version}`;
    expect(
      files.includes(`${top}/src/openmates/py.typed`) && files.includes(`${top}/pyproject.toml`),
      files.join('\n'),
    );
    expect(!files.some((f) => f.startsWith(`${top}/tests/`) || f.includes('node_modules')), files.join('\n'));
    const info = run('tar', ['-xzOf', artifacts.sdist, `${top}/PKG-INFO`], work, toolEnv);
    return info.includes(`\nVersion: ${version}\n`) || info;
  });

  let cliDir = '';
  let sdkDir = '';
  const installed = await check('npm installs the CLI tarball into an empty directory', () => {
    cliDir = npmInstall('cli', [artifacts.cli]);
  });
  if (!installed) return;
  await check('npm installs the SDK tarball into an empty directory', () => {
    sdkDir = npmInstall('sdk', [artifacts.sdk]);
  });
  for (const [name, dir] of [
    ['CLI', cliDir],
    ['SDK', sdkDir],
  ] as const)
    if (dir)
      await check(`the installed ${name} tree has no install script and no private workspace name`, () => {
        const problems = treeProblems(dir, banned);
        return problems.length === 0 || problems.join('\n');
      });

  const bin = join(cliDir, 'node_modules', '.bin', 'openmates');
  await check(`openmates --version is the release version (${version})`, () => {
    const out = run(bin, ['--version'], work, userEnv);
    return out.startsWith(`openmates ${version} (contract fingerprint `) || out;
  });
  await check('openmates search "css grid" answers offline from the local index', () => {
    const out = run(bin, ['search', 'css grid', '--count', '3'], work, userEnv);
    return (
      (out.startsWith('[1] css grid\n') && out.includes('\n  3.  ') && out.includes('Results from Local index')) || out
    );
  });
  await check('openmates mcp lists web_search over stdio', async () => {
    const tools = await mcpTools(bin);
    return (tools.length === 1 && tools[0] === 'web_search') || JSON.stringify(tools);
  });

  let server: Awaited<ReturnType<typeof serve>> | undefined;
  if (
    !(await check('openmates serve listens with its GUI', async () => {
      server = await serve(bin);
      return server.out().includes(`GUI:      ${server.url}/\n`) || server.out();
    }))
  )
    return;
  const url = (server as NonNullable<typeof server>).url;
  // Where the API and the reference are, as serve prints them for a user to follow.
  const printed = (server as NonNullable<typeof server>).out();
  const searchUrl = /try: +curl -s (\S+)/.exec(printed)?.[1] ?? `${url}/no-search-route-printed`;
  const docsUrl = /docs: +(\S+)/.exec(printed)?.[1] ?? `${url}/no-docs-printed`;
  try {
    await check('serve answers / with the GUI page and its search form', async () => {
      const page = await getText(`${url}/`);
      const form = /<form [^>]*role="search"[^>]*>[\s\S]*?<\/form>/.exec(page.body)?.[0] ?? '';
      return (
        (page.status === 200 && page.type.startsWith('text/html') && /<input [^>]*name="q"/.test(form)) ||
        page.body.slice(0, 2000)
      );
    });
    await check('serve answers its printed search route on the local index', async () => {
      const response = await fetch(searchUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requests: [{ query: 'css grid', count: 3 }] }),
      });
      const body = (await response.json()) as { provider?: string; results?: { results: unknown[] }[] };
      return (
        (response.status === 200 && body.provider === 'Local index' && body.results?.[0]?.results.length === 3) ||
        JSON.stringify(body)
      );
    });
    await check('serve answers its printed docs URL with the API reference and its stylesheet', async () => {
      const docs = await getText(docsUrl);
      const css = /<link rel="stylesheet" href="([^"]+)">/.exec(docs.body)?.[1];
      const sheet = css ? await getText(`${url}${css}`) : undefined;
      return (
        (docs.status === 200 &&
          docs.body.includes('<section id="op-search">') &&
          sheet?.status === 200 &&
          sheet.type.startsWith('text/css')) ||
        docs.body.slice(0, 2000)
      );
    });

    if (sdkDir) {
      const sdkEnv = { ...userEnv, OPENMATES_API_URL: url };
      for (const [kind, file, load] of [
        ['ESM', 'search.mjs', "import { OpenMates, VERSION } from '@openmates/sdk';"],
        ['CommonJS', 'search.cjs', "const { OpenMates, VERSION } = require('@openmates/sdk');"],
      ] as const)
        await check(`the npm SDK searches the served API from ${kind}, at the release version`, () => {
          writeFileSync(join(sdkDir, file), SDK_PROGRAM(load));
          const out = run(process.execPath, [file], sdkDir, sdkEnv);
          const got = JSON.parse(out) as { version: string; provider: string; count: number };
          return (got.version === version && got.provider === 'Local index' && got.count === 3) || out;
        });
      await check("the npm SDK's types check under the workspace's tsc from ESM and CommonJS", () => {
        writeFileSync(
          join(sdkDir, 'types.mts'),
          SDK_TYPES((body) => `export async function search() {\n  ${body}\n}`),
        );
        writeFileSync(
          join(sdkDir, 'types.cts'),
          SDK_TYPES((body) => `export async function search() {\n  ${body}\n}`),
        );
        const compilerOptions = {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: [],
        };
        writeFileSync(
          join(sdkDir, 'tsconfig.json'),
          JSON.stringify({ compilerOptions, files: ['types.mts', 'types.cts'] }),
        );
        const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
        try {
          run(process.execPath, [tsc, '-p', 'tsconfig.json'], sdkDir, toolEnv);
          return true;
        } catch (error) {
          return `${(error as { stdout?: string }).stdout ?? error}`;
        }
      });
    }

    const venv = join(work, 'venv');
    const python = join(venv, 'bin', 'python');
    if (
      await check('pip installs the wheel into a fresh venv, from no index and with no build step', () => {
        run('python3', ['-m', 'venv', '--without-pip', venv], work, toolEnv);
        const pip = ['-m', 'pip', '--python', python];
        run(
          'python3',
          [...pip, 'install', '--no-index', '--only-binary', ':all:', '--quiet', artifacts.wheel],
          work,
          toolEnv,
        );
        const listed = JSON.parse(run('python3', [...pip, 'list', '--format', 'json'], work, toolEnv)) as {
          name: string;
          version: string;
        }[];
        return (
          (listed.length === 1 && listed[0]?.name === 'openmates' && listed[0].version === version) ||
          JSON.stringify(listed)
        );
      })
    )
      await check('the pip SDK searches the served API from the venv, at the release version', () => {
        writeFileSync(join(work, 'search.py'), PIP_PROGRAM);
        // -I: isolated, so neither PYTHONPATH nor the user's site-packages can supply the package.
        const out = run(python, ['-I', join(work, 'search.py'), url], work, userEnv);
        const got = JSON.parse(out) as { file: string; version: string; provider: string; count: number };
        return (
          (got.file.startsWith(venv) && got.version === version && got.provider === 'Local index' && got.count === 3) ||
          out
        );
      });
  } finally {
    const child = (server as NonNullable<typeof server>).child;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

try {
  await main();
} catch (error) {
  record(
    'the installed suite ran to its end',
    false,
    error instanceof Error ? (error.stack ?? error.message) : String(error),
  );
} finally {
  writeReport();
  rmSync(work, { recursive: true, force: true });
  console.log(
    `installed: ${passed} passed, ${failed} failed in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}
process.exit(failed === 0 ? 0 : 1);
