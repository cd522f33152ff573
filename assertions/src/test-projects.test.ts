// The test tiers (vitest.config.ts): every tracked test file lands in exactly one project, and no
// file of the `unit` project names a helper that starts a browser, Redis, nginx, Python, a packed
// artifact or an `openmates` child process, so `pnpm test:unit` stays the fast tier as files are added.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, matchesGlob } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Project {
  name: string;
  include: string[];
  exclude: string[];
}

/** Each project's name and the globs of its files (a project's type tests included), root excludes added. */
function projects(): Project[] {
  const exclude = config.test?.exclude ?? [];
  return (config.test?.projects ?? []).map((project) => {
    if (typeof project !== 'object' || !('test' in project) || project.test === undefined)
      throw new Error('vitest.config.ts: every project is an inline configuration');
    const { name, include = [], exclude: own = [], typecheck } = project.test;
    return {
      name: typeof name === 'string' ? name : String(name?.label),
      include: [...include, ...(typecheck?.enabled ? (typecheck.include ?? []) : [])],
      exclude: [...exclude, ...own],
    };
  });
}

const testFiles = () =>
  execFileSync('git', ['ls-files', '-z', '--', '*.test.ts', '*.test-d.ts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((path) => path !== '');

const matches = (path: string, globs: readonly string[]) => globs.some((glob) => matchesGlob(path, glob));

/** What starts a process or a browser, by the helpers that do it and the programs they run. */
const STARTS_A_PROCESS =
  /\b(runCli|runProcess|startServe|startRedis|startNginx|startReplica|startChild|openSharedChromium|startWebKit|openMcpAppHost|createCliDriver|createMcpDriver|createWebDriver|createWebkitDriver|createPipDriver|createClusterDriver)\b|@playwright\/test|['"]python3?['"]/;

describe('the test projects', () => {
  it('put every tracked test file in exactly one project', () => {
    const all = projects();
    expect(all.map((project) => project.name)).toEqual(['unit', 'integration', 'parity']);
    const misplaced = testFiles().flatMap((path) => {
      const owners = all
        .filter((project) => matches(path, project.include) && !matches(path, project.exclude))
        .map((project) => project.name);
      return owners.length === 1 ? [] : [`${path}: ${owners.length === 0 ? 'no project' : owners.join(' and ')}`];
    });
    expect(misplaced).toEqual([]);
  });

  it('keep every file of the unit project off processes and browsers', () => {
    const unit = projects().find((project) => project.name === 'unit') as Project;
    const starting = testFiles()
      .filter((path) => matches(path, unit.include) && !matches(path, unit.exclude))
      // This file names the helpers it looks for.
      .filter((path) => path !== 'assertions/src/test-projects.test.ts')
      .filter((path) => STARTS_A_PROCESS.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(starting).toEqual([]);
  });
});
