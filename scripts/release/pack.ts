// `pnpm release:pack`: builds and packs every artifact a user installs into .release/ (ADR 0093):
// the CLI's tarball with the GUI inside it, the npm SDK's tarball, and the pip SDK's wheel and sdist.
// Each carries the release version (scripts/release/versions.ts); a version that drifted stops the
// pack. The Python artifacts are built by the pip SDK's own backend (flit_core, from the machine's
// package index) in a throwaway venv. Prints each artifact's path. Usage: node scripts/release/pack.ts
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pipIndexEnv } from '../../packages/sdk-python/scripts/wheel.ts';
import { drifted, releaseVersion } from './versions.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the artifacts go: one folder, emptied first. */
export const RELEASE_DIR = join(ROOT, '.release');

export interface Artifacts {
  version: string;
  cli: string;
  sdk: string;
  wheel: string;
  sdist: string;
}

const run = (command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string =>
  execFileSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });

/** The one file of the release folder whose name ends so. */
function artifact(suffix: string): string {
  const found = readdirSync(RELEASE_DIR).filter((name) => name.endsWith(suffix));
  if (found.length !== 1)
    throw new Error(`release:pack: expected one *${suffix} in ${RELEASE_DIR}, found ${found.length}`);
  return join(RELEASE_DIR, found[0] as string);
}

/** The pip SDK's wheel and sdist, built by its declared backend in a venv of its own. */
async function packPython(): Promise<void> {
  const project = join(ROOT, 'packages/sdk-python');
  const pyproject = readFileSync(join(project, 'pyproject.toml'), 'utf8');
  const requires = /^requires = \[([^\]]*)\]$/m
    .exec(pyproject)?.[1]
    ?.match(/"[^"]+"/g)
    ?.map((r) => r.slice(1, -1));
  if (!requires?.length)
    throw new Error('release:pack: packages/sdk-python/pyproject.toml declares no build requirement');
  const venv = mkdtempSync(join(tmpdir(), 'openmates-pack-'));
  try {
    const env = { ...process.env, ...(await pipIndexEnv()), PIP_DISABLE_PIP_VERSION_CHECK: '1' };
    const python = join(venv, 'bin', 'python');
    run('python3', ['-m', 'venv', '--without-pip', venv]);
    run('python3', ['-m', 'pip', '--python', python, 'install', '--quiet', ...requires], { env });
    const backend = /^build-backend = "([\w.]+)"$/m.exec(pyproject)?.[1];
    const build = `import sys, ${backend} as b; b.build_wheel(sys.argv[1]); b.build_sdist(sys.argv[1])`;
    run(python, ['-c', build, RELEASE_DIR], { cwd: project, env: { ...env, PYTHONDONTWRITEBYTECODE: '1' } });
  } finally {
    rmSync(venv, { recursive: true, force: true });
  }
}

/** Builds what is packed (turbo: cached when the test command's build ran), then packs each artifact. */
export async function pack(): Promise<Artifacts> {
  const version = releaseVersion();
  const stale = drifted(version);
  if (stale.length > 0)
    throw new Error(`release:pack: ${stale.map((s) => s.path).join(', ')} not at ${version}; run \`pnpm generate\``);
  run('pnpm', ['-s', 'turbo', 'run', 'build', '--filter=@openmates/cli', '--filter=@openmates/sdk'], {
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  rmSync(RELEASE_DIR, { recursive: true, force: true });
  mkdirSync(RELEASE_DIR);
  for (const pkg of ['packages/cli', 'packages/sdk'])
    run('pnpm', ['pack', '--pack-destination', RELEASE_DIR], { cwd: join(ROOT, pkg) });
  await packPython();
  const artifacts: Artifacts = {
    version,
    cli: artifact(`cli-${version}.tgz`),
    sdk: artifact(`sdk-${version}.tgz`),
    wheel: artifact(`-${version}-py3-none-any.whl`),
    sdist: artifact(`-${version}.tar.gz`),
  };
  // A CLI packed without its GUI would serve the API only: never a release.
  const listing = run('tar', ['-tzf', artifacts.cli]);
  if (!listing.split('\n').includes('package/gui/handler.js'))
    throw new Error('release:pack: the CLI tarball holds no gui/handler.js (was apps/web built?)');
  return artifacts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const artifacts = await pack();
  for (const path of [artifacts.cli, artifacts.sdk, artifacts.wheel, artifacts.sdist])
    console.log(`${path}  ${Math.round(statSync(path).size / 1024)} KiB`);
}
