import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTE_TABLE } from '@openmates/contract';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, requireBuild, runCli, type ServeProcess, startServe } from './run-cli.ts';

// `openmates keys add` against a running `openmates serve` reading the same file: the key it
// prints authenticates on the very next request (the server re-reads the file when it changes).
describe('openmates keys', () => {
  let brave: BraveFixture;
  let dir: string;
  let file: string;
  let serve: ServeProcess;

  beforeAll(async () => {
    requireBuild();
    brave = await startBraveFixture();
    dir = mkdtempSync(join(tmpdir(), 'openmates-keys-cli-'));
    file = join(dir, 'keys.json');
    serve = await startServe(
      ['--port', '0'],
      baseEnv({
        OPENMATES_PROVIDER: 'brave',
        BRAVE_SEARCH_API_KEY: brave.apiKey,
        BRAVE_SEARCH_BASE_URL: brave.baseUrl,
        OPENMATES_API_KEYS_FILE: file,
      }),
    );
  });

  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
    await brave?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints a key once that the running server accepts at once, and lists names and quotas, never keys', async () => {
    const usage = (key: string) =>
      fetch(serve.url + ROUTE_TABLE.usage.path, { headers: { authorization: `Bearer ${key}` } });
    const added = await runCli(['keys', 'add', 'agent-a', '--calls-per-day', '3', '--file', file], baseEnv());
    expect(added.code).toBe(0);
    const key = added.stdout.trim();
    expect(key).toMatch(/^om_[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(file, 'utf8')).not.toContain(key);
    const answer = await usage(key);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ name: 'agent-a', quotas: [{ quota: 'calls_per_day', limit: 3 }] });
    expect((await usage(`${key}x`)).status).toBe(401);

    const again = await runCli(['keys', 'add', 'agent-a', '--file', file], baseEnv());
    expect(again.code).toBe(2);
    const listed = await runCli(['keys', 'list', '--file', file], baseEnv());
    expect(listed.code).toBe(0);
    expect(listed.stdout.trimEnd()).toMatch(/^NAME\s+PER MIN\s+CALLS\/DAY\s+USD\/MONTH\nagent-a\s+-\s+3\s+-$/);
    expect(listed.stdout).not.toContain(key);

    const table = await runCli(['usage', '--api-url', serve.url, '--api-key', key], baseEnv());
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Key: agent-a');
    expect(table.stdout).toContain('calls-per-day: 0 of 3 used, 3 left');
    const json = await runCli(['usage', '--api-url', serve.url, '--api-key', key, '--json'], baseEnv());
    expect(JSON.parse(json.stdout)).toMatchObject({ name: 'agent-a', today: { calls: 0 } });
    const refused = await runCli(['usage', '--api-url', serve.url, '--api-key', `${key}x`], baseEnv());
    expect(refused.code).toBe(4);
  });
});
