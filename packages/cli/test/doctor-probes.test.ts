import { type BraveFixture, type SearxngFixture, startBraveFixture, startSearxngFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, requireBuild, runCli } from './run-cli.ts';

// `openmates doctor --dry-run` and `--live` for Brave and SearXNG, as users run them.

let brave: BraveFixture;
let searxng: SearxngFixture;
beforeAll(async () => {
  requireBuild();
  [brave, searxng] = await Promise.all([startBraveFixture(), startSearxngFixture()]);
});
afterAll(async () => {
  await Promise.all([brave?.close(), searxng?.close()]);
});

describe('openmates doctor --dry-run and --live', () => {
  it('Brave: the dry run needs no key and redacts one; --live searches once', async () => {
    const dry = await runCli(['doctor', '--provider', 'brave', '--dry-run', '--json', '--query', 'rust'], baseEnv());
    expect(dry.code).toBe(0);
    const request = JSON.parse(dry.stdout) as { url: string; headers: Record<string, string> };
    expect(request.url).toBe(
      'https://api.search.brave.com/res/v1/web/search?q=rust&count=20&country=US&safesearch=moderate&text_decorations=false&result_filter=web',
    );
    expect(request.headers['X-Subscription-Token']).toBe('[redacted]');
    const env = baseEnv({ BRAVE_SEARCH_API_KEY: brave.apiKey, BRAVE_SEARCH_BASE_URL: brave.baseUrl });
    brave.reset();
    const live = await runCli(['doctor', '--provider', 'brave', '--live', '--json'], env);
    expect(live.code).toBe(0);
    expect(live.stdout).not.toContain(brave.apiKey);
    const report = JSON.parse(live.stdout) as { checks: { name: string; ok: boolean }[] };
    expect(report.checks.find((c) => c.name === 'brave live search')?.ok).toBe(true);
  });

  it('SearXNG: the dry run redacts the credentials; --live searches once', async () => {
    const env = baseEnv({ SEARXNG_BASE_URL: searxng.baseUrl });
    const dry = await runCli(['doctor', '--provider', 'searxng', '--dry-run', '--json'], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).not.toContain(searxng.password ?? 'no password');
    expect((JSON.parse(dry.stdout) as { headers: Record<string, string> }).headers.Authorization).toBe(
      'Basic [redacted]',
    );
    searxng.reset();
    const live = await runCli(['doctor', '--provider', 'searxng', '--live', '--json'], env);
    expect(live.code).toBe(0);
    expect(searxng.requests.filter((r) => r.query.q === 'openmates web search')).toHaveLength(1);
  });

  it('local has neither', async () => {
    const result = await runCli(['doctor', '--provider', 'local', '--dry-run'], baseEnv());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--dry-run and --live apply to a provider that calls out');
  });
});
