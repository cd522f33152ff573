// Builds the `openmates` wheel and installs it into a fresh venv with `pip install --no-index`, as a
// user's machine would get it, for the parity suite's pip column. The result is cached under
// .wheel-cache/<hash of the package's sources>/, so a rerun on unchanged sources takes no time.
// Run directly (`node scripts/wheel.ts`), it prints the venv's python.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const CACHE_DIR = join(PACKAGE_DIR, '.wheel-cache');
const SOURCES = ['pyproject.toml', 'README.md', 'src'];

export interface InstalledWheel {
  /** The venv's interpreter, with the wheel (and nothing else) installed. */
  python: string;
  venv: string;
  wheel: string;
}

/** Every file that goes into the wheel, hashed with its path. */
function sourceHash(): string {
  const hash = createHash('sha256');
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) if (name !== '__pycache__') walk(join(path, name));
    } else {
      hash.update(`${relative(PACKAGE_DIR, path)}\0`).update(readFileSync(path));
    }
  };
  for (const source of SOURCES) walk(join(PACKAGE_DIR, source));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Where pip finds the build backend (flit_core). These machines carry a local mirror and no route to
 * the public index, which pip would retry slowly: point pip at the `file:` mirror of its
 * configuration alone. An explicit PIP_INDEX_URL wins; with no mirror configured, pip's own.
 */
export async function pipIndexEnv(): Promise<Record<string, string>> {
  if (process.env.PIP_INDEX_URL) return {};
  try {
    const { stdout } = await run('python3', ['-m', 'pip', 'config', 'list']);
    const mirror = stdout.match(/index-url='([^']*)'/g)?.flatMap((m) => m.slice(m.indexOf("'") + 1, -1).split(/\s+/));
    const file = mirror?.find((url) => url.startsWith('file:'));
    return file ? { PIP_INDEX_URL: file } : {};
  } catch {
    return {};
  }
}

/** Installs under way or done in this process, by source hash: two columns (pip, pip-stream) set up at once share one. */
const installs = new Map<string, Promise<InstalledWheel>>();

/** The wheel of the package as it is now, installed in its own fresh venv (built once per source hash). */
export function installedWheel(): Promise<InstalledWheel> {
  const hash = sourceHash();
  let install = installs.get(hash);
  if (!install) {
    install = installInto(hash);
    installs.set(hash, install);
  }
  return install;
}

async function installInto(hash: string): Promise<InstalledWheel> {
  const dir = join(CACHE_DIR, hash);
  const venv = join(dir, 'venv');
  const python = join(venv, 'bin', 'python');
  const ready = join(dir, 'ready');
  if (existsSync(ready)) {
    return { python, venv, wheel: readFileSync(ready, 'utf8').trim() };
  }
  rmSync(CACHE_DIR, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, ...(await pipIndexEnv()), PIP_DISABLE_PIP_VERSION_CHECK: '1' };
  await run('python3', ['-m', 'pip', 'wheel', '--no-deps', '--quiet', '-w', dir, PACKAGE_DIR], { env });
  const wheel = readdirSync(dir).find((name) => name.endsWith('.whl'));
  if (!wheel) throw new Error(`pip wheel wrote no wheel into ${dir}`);
  // A venv without its own pip (bootstrapping one takes longer than everything else here), filled
  // by this Python's pip. --no-index: the wheel needs nothing from any index, so installing it must
  // not ask one.
  await run('python3', ['-m', 'venv', '--without-pip', venv]);
  await run('python3', ['-m', 'pip', '--python', python, 'install', '--no-index', '--quiet', join(dir, wheel)], {
    env,
  });
  writeFileSync(ready, join(dir, wheel));
  return { python, venv, wheel: join(dir, wheel) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log((await installedWheel()).python);
}
