import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
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
