import { execFileSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The `node` binary of VERSION (`20`, `22.16.0`) from the npm registry's `node-<platform>-<arch>`
 * packages (the ones the bootstrap installs Node 24 from), kept in `.tools/node-VERSION/`.
 */
export function registryNode(version: string): string {
  const pkg = `node-${process.platform}-${process.arch}`;
  const prefix = join(ROOT, '.tools', `node-${version}`);
  const node = join(prefix, 'node_modules', pkg, 'bin', 'node');
  try {
    accessSync(node, constants.X_OK);
  } catch {
    execFileSync('npm', [
      'install',
      '--silent',
      '--no-save',
      '--no-package-lock',
      '--prefix',
      prefix,
      `${pkg}@${version}`,
    ]);
  }
  return node;
}

/** `process.versions.node` of a Node binary, as numbers. */
export function versionOf(node: string): number[] {
  return execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim().split('.').map(Number);
}

/** The CLI's Node floor, `>=MAJOR.MINOR` in its package.json's `engines`. */
export const ENGINES: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines
  .node;
export const FLOOR = /^>=(\d+)\.(\d+)$/.exec(ENGINES);

/** Whether a Node version (as numbers) is older than the floor. */
export function isOld([major = 0, minor = 0]: number[]): boolean {
  const [floorMajor, floorMinor] = [Number(FLOOR?.[1]), Number(FLOOR?.[2])];
  return major < floorMajor || (major === floorMajor && minor < floorMinor);
}

/**
 * A Node older than the floor, as a newcomer has before running the bootstrap: the first `node`
 * on PATH that is too old (this machine's system Node 20), else Node 20 from the npm registry.
 */
export function oldNode(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    if (isOld(versionOf(candidate))) return candidate;
  }
  return registryNode('20');
}
