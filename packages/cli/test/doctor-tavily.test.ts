import { startTavilyFixture, type TavilyFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, requireBuild, runCli } from './run-cli.ts';

// `openmates doctor` with the Tavily provider against its fixture: configuration checks, the dry
// run and the live probe, never printing the key.

let tavily: TavilyFixture;
beforeAll(async () => {
  requireBuild();
  tavily = await startTavilyFixture();
});
afterAll(async () => {
  await tavily?.close();
});

const tavilyEnv = () =>
  baseEnv({ OPENMATES_PROVIDER: 'tavily', TAVILY_API_KEY: tavily.apiKey, TAVILY_BASE_URL: tavily.baseUrl });

describe('openmates doctor with Tavily', () => {
  it('names its key and endpoint without a call, and searches nothing', async () => {
    tavily.reset();
    const result = await runCli(['doctor', '--json'], tavilyEnv());
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { provider: string; checks: { name: string; ok: boolean }[] };
    expect(report.provider).toBe('tavily');
    expect(report.checks.find((c) => c.name === 'TAVILY_API_KEY')?.ok).toBe(true);
    expect(report.checks.find((c) => c.name === 'TAVILY_BASE_URL')?.ok).toBe(true);
    expect(tavily.requests).toHaveLength(0);
    expect(result.stdout).not.toContain(tavily.apiKey);
  });

  it('prints the dry run with the key redacted, sending nothing', async () => {
    tavily.reset();
    const result = await runCli(['doctor', '--provider', 'tavily', '--dry-run', '--json'], tavilyEnv());
    expect(result.code).toBe(0);
    const dryRun = JSON.parse(result.stdout) as { url: string; headers: Record<string, string>; body: unknown };
    expect(dryRun.url).toBe(`${tavily.baseUrl}/search`);
    expect(dryRun.headers.Authorization).toBe('Bearer [redacted]');
    expect(dryRun.body).toMatchObject({ query: 'openmates dry run', search_depth: 'basic' });
    expect(result.stdout).not.toContain(tavily.apiKey);
    expect(tavily.requests).toHaveLength(0);
  });

  it('runs the live probe only when asked: one search of fixed text', async () => {
    tavily.reset();
    const result = await runCli(['doctor', '--provider', 'tavily', '--live', '--json'], tavilyEnv());
    expect(result.code).toBe(0);
    expect(tavily.requests.map((r) => r.body?.query)).toEqual(['openmates doctor probe']);
    expect(result.stdout).not.toContain(tavily.apiKey);
  });
});
