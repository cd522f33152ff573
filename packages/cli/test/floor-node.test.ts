import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryNode, versionOf } from './registry-node.ts';
import { baseEnv, requireBuild, runCli } from './run-cli.ts';

const ENGINES: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
const FLOOR = /^>=(\d+\.\d+)$/.exec(ENGINES)?.[1] ?? 'unparsed';

/**
 * The oldest Node `engines` admits, exactly (`22.16.0` for `>=22.16`): the CLI is only tried on
 * Node 24 everywhere else, and the floor is where a missing runtime feature shows (node:sqlite had
 * no FTS5 before 22.16).
 */
describe(`openmates on Node ${FLOOR}.0, the engines floor`, () => {
  let node: string;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(() => {
    requireBuild();
    node = registryNode(`${FLOOR}.0`);
    dir = mkdtempSync(join(tmpdir(), 'om-floor-'));
    env = baseEnv({ OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: join(dir, 'index.db') });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is that Node', () => {
    expect(versionOf(node).join('.')).toBe(`${FLOOR}.0`);
  });

  it('searches the offline index (built on first use) and prints only the answer', async () => {
    const result = await runCli(['search', 'fetch abort', '--json'], env, '', node);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const response = JSON.parse(result.stdout);
    expect(response.provider).toBe('Local index');
    expect(response.results[0].results.length).toBeGreaterThan(0);
    expect(response.results[0].results[0].url).toMatch(/^https:\/\//);
  });

  it('prints human output and passes doctor', async () => {
    const search = await runCli(['search', 'css grid'], env, '', node);
    expect(search.stderr).toBe('');
    expect(search.code).toBe(0);
    expect(search.stdout).toMatch(/^\[1\] css grid\n {2}1\. {2}\S/);
    const doctor = await runCli(['doctor'], env, '', node);
    expect(doctor.stderr).toBe('');
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toMatch(/✓ local index: .*index\.db: \d+ documents/);
  });
});
