import { expectedSerperResults, type SerperFixture, startSerperFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baseEnv, requireBuild, runCli } from './run-cli.ts';

// `openmates` with OPENMATES_PROVIDER=serper against the Serper fixture: a search, the doctor's
// checks without a call, its dry run (key redacted, no network) and its live probe.

let serper: SerperFixture;
let env: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  serper = await startSerperFixture();
  env = baseEnv({ OPENMATES_PROVIDER: 'serper', SERPER_API_KEY: serper.apiKey, SERPER_BASE_URL: serper.baseUrl });
});
afterAll(async () => {
  await serper?.close();
});
beforeEach(() => {
  serper.reset();
});

describe('openmates with Serper', () => {
  it('searches through Serper and names it', async () => {
    const result = await runCli(['search', 'rust traits', '--count', '3', '--json'], env);
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as { provider: string; results: { results: { url: string }[] }[] };
    expect(body.provider).toBe('Serper');
    expect(body.results[0]?.results.map((r) => r.url)).toEqual(
      expectedSerperResults('rust traits', 1, 3).map((r) => r.url),
    );
    expect(serper.requests[0]?.body).toMatchObject({ q: 'rust traits', gl: 'us' });
  });

  it('doctor checks the key and endpoint without a call', async () => {
    const result = await runCli(['doctor', '--json'], env);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { provider: string; checks: { name: string; detail: string }[] };
    expect(report.provider).toBe('serper');
    expect(report.checks.find((c) => c.name === 'SERPER_API_KEY')?.detail).toBe('set (value not shown)');
    expect(serper.requests).toHaveLength(0);
    expect(result.stdout).not.toContain(serper.apiKey);
  });

  it('doctor --dry-run prints the exact request, key redacted, needing no key and sending nothing', async () => {
    for (const run of [baseEnv(), env]) {
      const result = await runCli(['doctor', '--provider', 'serper', '--dry-run', '--json', '--query', 'rust'], run);
      expect(result.code).toBe(0);
      const dry = JSON.parse(result.stdout) as { url: string; headers: Record<string, string>; body: unknown };
      expect(dry.headers['X-API-KEY']).toBe('[redacted]');
      expect(dry.body).toEqual({ q: 'rust', num: 10, gl: 'us' });
      expect(result.stdout).not.toContain(serper.apiKey);
    }
    expect(serper.requests).toHaveLength(0);
  });

  it('doctor --live sends one search of fixed text', async () => {
    const result = await runCli(['doctor', '--provider', 'serper', '--live', '--json'], env);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { checks: { name: string; ok: boolean }[] };
    expect(report.checks.find((c) => c.name === 'serper live search')?.ok).toBe(true);
    expect(serper.requests.map((r) => r.body?.q)).toEqual(['openmates web search']);
  });
});
