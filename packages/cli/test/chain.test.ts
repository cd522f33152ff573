import { PATHS } from '@openmates/contract';
import { type BraveFixture, type SearxngFixture, startBraveFixture, startSearxngFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, requireBuild, runCli, startServe } from './run-cli.ts';

// A chain of providers through the built binary: serve's refusal and start lines, and doctor
// checking a running server (its providers and the caller's rate-limit state) with --api-url.

const KEY = 'doctor-remote-key-0123456789';
let brave: BraveFixture;
let searxng: SearxngFixture;
let chainEnv: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  [brave, searxng] = await Promise.all([startBraveFixture(), startSearxngFixture()]);
  chainEnv = baseEnv({
    OPENMATES_PROVIDER: 'brave,searxng',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    SEARXNG_BASE_URL: searxng.baseUrl,
  });
});
afterAll(async () => {
  await Promise.all([brave?.close(), searxng?.close()]);
});

interface Report {
  provider: string | null;
  providers?: string[];
  source: string;
  ok: boolean;
  rate_limit?: { limit: number; remaining: number; reset_seconds: number; policy: string };
  checks: { name: string; ok: boolean; detail: string; fix?: string }[];
}

describe('openmates serve with OPENMATES_PROVIDER=brave,searxng', () => {
  it('refuses to start, in one line naming the member and its variable, when a listed provider is not configured', async () => {
    const { SEARXNG_BASE_URL: _, ...withoutSearxng } = chainEnv;
    const result = await runCli(['serve', '--port', '0', '--no-gui'], withoutSearxng);
    expect(result.code).toBe(4);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /OPENMATES_PROVIDER lists searxng, which is not configured: it needs SEARXNG_BASE_URL/,
    );
  });

  it('prints the chain in its start lines and lists it on /healthz and /readyz', async () => {
    const server = await startServe(['--port', '0', '--no-gui'], chainEnv);
    try {
      const lines = server.stdout().split('\n');
      const at = lines.findIndex((line) => line.startsWith('  provider: Brave Search'));
      expect(at).toBeGreaterThan(0);
      expect(lines[at + 1]).toMatch(/^ {12}then SearXNG \(queries go to 127\.0\.0\.1:\d+\) when the one before fails$/);
      expect(await (await fetch(`${server.url}${PATHS.health}`)).json()).toMatchObject({
        provider: 'brave',
        providers: ['brave', 'searxng'],
      });
      expect(await (await fetch(`${server.url}${PATHS.ready}`)).json()).toEqual({
        status: 'ready',
        provider: 'brave',
        providers: ['brave', 'searxng'],
      });
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  });
});

describe('openmates doctor', () => {
  it('lists every provider of the chain and checks each one', async () => {
    const result = await runCli(['doctor', '--json'], chainEnv);
    const report = JSON.parse(result.stdout) as Report;
    expect(report).toMatchObject({ provider: 'brave', providers: ['brave', 'searxng'], ok: true });
    expect(report.checks[0]?.detail).toMatch(/^brave, then searxng \(a query may reach each/);
    expect(report.checks.map((c) => c.name)).toEqual(expect.arrayContaining(['SEARXNG_BASE_URL']));
    expect(result.code).toBe(0);
  });

  it('still checks the configured members when one listed provider lacks its key', async () => {
    const { BRAVE_SEARCH_API_KEY: _, ...withoutBraveKey } = chainEnv;
    const result = await runCli(['doctor', '--json'], withoutBraveKey);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.ok).toBe(false);
    const missing = report.checks.filter((c) => c.name === 'provider ready' && !c.ok);
    expect(missing.map((c) => c.detail)).toEqual([
      expect.stringMatching(/^OPENMATES_PROVIDER lists brave, which is not configured/),
    ]);
    // SearXNG, behind it, was still reached and checked.
    expect(report.checks).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'SearXNG JSON output', ok: true })]),
    );
    expect(result.code).not.toBe(0);
  });

  it('with --api-url, reads the remote server’s providers and the caller’s rate-limit state, counting nothing', async () => {
    const server = await startServe(['--port', '0', '--no-gui'], {
      ...chainEnv,
      OPENMATES_API_KEYS: KEY,
      OPENMATES_RATE_LIMIT_PER_MIN: '3',
      OPENMATES_RATE_LIMIT_WINDOW_S: '600',
    });
    try {
      const doctor = () => runCli(['doctor', '--api-url', server.url, '--api-key', KEY, '--json'], baseEnv());
      const before = JSON.parse((await doctor()).stdout) as Report;
      expect(before).toMatchObject({
        provider: 'brave',
        providers: ['brave', 'searxng'],
        source: '--api-url',
        ok: true,
        rate_limit: { limit: 3, remaining: 3, policy: 'per-key' },
      });
      // One counted search; doctor's own reads counted nothing.
      const search = await fetch(`${server.url}${PATHS.search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ requests: [{ query: 'rust' }] }),
      });
      expect(search.status).toBe(200);
      const human = await runCli(['doctor', '--api-url', server.url], { ...baseEnv(), OPENMATES_API_KEY: KEY });
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(
        /✓ rate limit: 2 of 3 requests left for this key \(policy "per-key"\); the window resets in \d+ seconds?/,
      );
      expect(human.stdout).toMatch(/✓ providers: Brave Search \(queries go to [^)]+\), then SearXNG/);
      expect(human.stdout).not.toContain(KEY);
    } finally {
      server.child.kill('SIGTERM');
    }
    await server.exited;
  });

  it('with --api-url, says what to fix when the key is refused or nothing answers', async () => {
    const server = await startServe(['--port', '0', '--no-gui'], { ...chainEnv, OPENMATES_API_KEYS: KEY });
    try {
      const refused = await runCli(['doctor', '--api-url', server.url, '--json'], baseEnv());
      expect(refused.code).toBe(4);
      const report = JSON.parse(refused.stdout) as Report;
      expect(report.checks[0]).toMatchObject({ name: 'server', ok: false, detail: expect.stringContaining('401') });
      expect(report.checks[0]?.fix).toMatch(/--api-key/);
    } finally {
      server.child.kill('SIGTERM');
    }
    await server.exited;
    const gone = await runCli(['doctor', '--api-url', server.url], baseEnv());
    expect(gone.code).toBe(4);
    expect(gone.stdout).toMatch(/✗ server: 127\.0\.0\.1:\d+ did not answer/);
  });
});
