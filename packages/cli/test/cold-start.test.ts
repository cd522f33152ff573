import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, requireBuild, runCli, runProcess } from './run-cli.ts';

// What keeps a search's cold start short, checked by what the process loads rather than by a
// timing (packages/cli/README.md, "Cold start"): Node's own modules a local search must not pull in.
const NOT_ON_A_LOCAL_SEARCH = [
  'NativeModule crypto', // node:crypto: only the shared Redis link uses it
  'NativeModule internal/crypto/webcrypto', // the `crypto` global: a request id needs no Web Crypto
  'NativeModule internal/webstreams/transformstream', // web streams: only the OpenAI transport
  'NativeModule worker_threads', // what node:util's ESM facade drags in through its getters
  'NativeModule perf_hooks', // the `performance` global: the engine's clock is process.hrtime, lru-cache's read at first use
];

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/** The files of dist/ that `file` loads through its static imports and theirs, itself included. */
async function staticGraph(file: string): Promise<Set<string>> {
  const found = new Set<string>();
  const pending = [file];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (found.has(next)) continue;
    found.add(next);
    const code = await readFile(join(DIST, next), 'utf8');
    for (const [, imported] of code.matchAll(/^(?:import|export) .* from "\.\/([^"]+)";$/gm))
      if (imported !== undefined) pending.push(imported);
  }
  return found;
}

const CORE = fileURLToPath(new URL('../../core/src/', import.meta.url));

/**
 * Core's modules that only `import()` reaches (no module imports them statically), as paths under
 * packages/core/src: the engine chunk must not hold them, or loading it would evaluate them.
 */
async function lazyOnlyCoreModules(): Promise<string[]> {
  const sources = (await readdir(CORE, { recursive: true })).filter(
    (file) => /\.[jt]s$/.test(file) && !file.endsWith('.test.ts'),
  );
  const dynamic = new Set<string>();
  const statics = new Set<string>();
  for (const file of sources) {
    const code = await readFile(join(CORE, file), 'utf8');
    const target = (specifier: string) => relative(CORE, resolve(CORE, dirname(file), specifier));
    for (const [, specifier] of code.matchAll(/import\('(\.[^']+)'\)/g)) if (specifier) dynamic.add(target(specifier));
    for (const [, specifier] of code.matchAll(/^(?:import|export) (?!type )[^;]*? from '(\.[^']+)';$/gms))
      if (specifier) statics.add(target(specifier));
  }
  return [...dynamic].filter((path) => !statics.has(path));
}

let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  dir = await mkdtemp(join(tmpdir(), 'openmates-cold-start-'));
  const doc = { url: 'https://example.org/quokka', title: 'Quokka habits', body: 'The quokka is a marsupial.' };
  await writeFile(join(dir, 'pages.jsonl'), `${JSON.stringify(doc)}\n`);
  // Written at exit by a preloaded module: every builtin the process loaded, in order.
  await writeFile(
    join(dir, 'loaded.mjs'),
    `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(process.env.LOADED_LIST, process.moduleLoadList.join('\\n')));
`,
  );
  env = baseEnv({ OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: join(dir, 'index.db') });
  const added = await runCli(['index', 'add', join(dir, 'pages.jsonl')], env);
  expect(added.code).toBe(0);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the cold start of openmates search', () => {
  it('imports no builtin as an ES module in the bundle (each would build a facade running every lazy getter)', async () => {
    const files = (await readdir(DIST, { recursive: true })).filter((file) => file.endsWith('.js'));
    expect(files).toContain('fast-search.js');
    for (const file of files) expect(await readFile(join(DIST, file), 'utf8')).not.toMatch(/^import .* from "node:/m);
  });

  it('loads the search path, up to the engine, as one chunk besides its entry and the bundler runtime', async () => {
    // Each file costs the loader a fixed time; tsdown.config.ts lists the path's modules for one chunk.
    const files = [...(await staticGraph('fast-search.js'))].map((file) => file.replace(/-[\w-]{8}\.js$/, ''));
    expect(files.sort()).toEqual(['fast-search.js', 'rolldown-runtime', 'search-path']);
  });

  it('bundles the search path and the engine as ASCII (V8 reads any other source as two-byte text)', async () => {
    const chunks = (await readdir(DIST)).filter((file) => /^(fast-search|search-path-|engine-)/.test(file));
    expect(chunks.length).toBe(3);
    for (const file of chunks) expect(await readFile(join(DIST, file), 'utf8'), file).not.toMatch(/[^\t\n\r -~]/);
  });

  it('keeps the modules the engine imports lazily out of its chunk', async () => {
    const lazy = await lazyOnlyCoreModules();
    expect(lazy).toContain('providers/openai/transport.ts');
    const engine = (await readdir(DIST)).find((file) => file.startsWith('engine-'));
    const code = await readFile(join(DIST, engine ?? 'missing'), 'utf8');
    // The OpenAI stream's schemas (zod, built when their module loads) come with its transport only.
    const withTransport = ['providers/openai/events.ts', 'providers/openai/receipts.ts'];
    for (const path of [...lazy, ...withTransport]) expect(code, path).not.toContain(`// ../core/src/${path}\n`);
    // …while the engine itself is one chunk besides the contract's fingerprint and the search path.
    const files = [...(await staticGraph(engine ?? 'missing'))].map((file) => file.replace(/-[\w-]{8}\.js$/, ''));
    expect(files.sort()).toEqual(['engine', 'fingerprint', 'rolldown-runtime', 'search-path']);
  });

  it('answers a local search without loading node:crypto, Web Crypto, web streams, worker_threads or perf_hooks', async () => {
    const list = join(dir, 'loaded.txt');
    const search = await runProcess(
      process.execPath,
      ['--import', join(dir, 'loaded.mjs'), BIN, 'search', 'quokka', '--json'],
      { ...env, LOADED_LIST: list },
    );
    expect(search.code).toBe(0);
    expect(search.stdout).toContain('Quokka habits');
    const loaded = (await readFile(list, 'utf8')).split('\n');
    expect(loaded).toContain('NativeModule internal/modules/esm/loader');
    for (const module of NOT_ON_A_LOCAL_SEARCH) expect(loaded).not.toContain(module);
  });
});
