import { type AnthropicFixture, startAnthropicFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baseEnv, requireBuild, runCli, startServe } from './run-cli.ts';

// The Anthropic provider through the real binary: `openmates search` in process, `openmates serve`
// answering REST, and `openmates doctor` (its dry run and its live probe), against the Anthropic
// fixture on loopback. The key never reaches an output.

let fixture: AnthropicFixture;
let env: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  fixture = await startAnthropicFixture();
  env = baseEnv({
    OPENMATES_PROVIDER: 'anthropic',
    ANTHROPIC_API_KEY: fixture.apiKey,
    ANTHROPIC_BASE_URL: fixture.baseUrl,
  });
});
afterAll(() => fixture.close());
beforeEach(() => fixture.reset());

interface Answer {
  results: {
    provider?: string;
    results: { url: string; description?: string; note?: string }[];
    error?: { code: string; message: string };
  }[];
}

describe('openmates with OPENMATES_PROVIDER=anthropic', () => {
  it('searches through the fixture: cited pages first, quoted passage as description, max_uses sent', async () => {
    const result = await runCli(['search', 'rust traits', '--count', '3', '--json'], env);
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as Answer;
    const [group] = answer.results;
    expect(group?.results).toHaveLength(3);
    expect(group?.results[0]).toMatchObject({
      url: 'https://example.com/rust-traits/1-1',
      description: 'A passage of the first page about rust traits.',
      note: 'The first page explains rust traits.',
    });
    expect(fixture.requests).toHaveLength(1);
    expect((fixture.requests[0]?.body as { tools: { max_uses: number }[] } | undefined)?.tools[0]?.max_uses).toBe(4);
    expect(`${result.stdout}${result.stderr}`).not.toContain(fixture.apiKey);
  });

  it('refuses an option it cannot apply before any call, naming the field and Anthropic', async () => {
    const result = await runCli(['search', 'rust', '--freshness', 'week', '--json'], env);
    expect(result.code).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toMatch(/freshness/);
    expect(`${result.stdout}${result.stderr}`).toMatch(/Anthropic/);
    expect(fixture.requests).toHaveLength(0);
  });

  it('answers REST through serve, and a paused turn is a group error, the key never shown', async () => {
    const server = await startServe(['--port', '0', '--no-gui'], env);
    try {
      const answer = await fetch(`${server.url}/v1/apps/web/skills/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          requests: [{ query: 'rust traits', count: 2 }, { query: 'pause rust' }, { query: 'leak rust' }],
        }),
      });
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text).not.toContain(fixture.apiKey);
      const body = JSON.parse(text) as Answer;
      expect(body.results[0]?.results).toHaveLength(2);
      expect(text).toMatch(/Anthropic web_search \(claude-haiku-4-5\)/);
      expect(body.results[1]?.error?.code).toBe('provider_error');
      expect(body.results[1]?.error?.message).toMatch(/pause_turn/);
      expect(server.stdout() + server.stderr()).not.toContain(fixture.apiKey);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('doctor names it, prints its dry run redacted, and runs its live probe only when asked', async () => {
    const plain = await runCli(['doctor', '--json'], env);
    expect(plain.stdout).toContain('ANTHROPIC_API_KEY');
    expect(fixture.requests).toHaveLength(0);
    const dry = await runCli(['doctor', '--provider', 'anthropic', '--dry-run', '--json'], {
      ...env,
      OPENMATES_ANTHROPIC_MAX_SEARCHES: '6',
    });
    expect(dry.code).toBe(0);
    const request = JSON.parse(dry.stdout) as {
      url: string;
      headers: Record<string, string>;
      body: { tools: { max_uses: number }[] };
    };
    expect(request.url).toBe(`${fixture.baseUrl}/v1/messages`);
    expect(request.headers['x-api-key']).toBe('[redacted]');
    expect(request.body.tools[0]?.max_uses).toBe(6);
    expect(dry.stdout).not.toContain(fixture.apiKey);
    expect(fixture.requests).toHaveLength(0);
    const live = await runCli(['doctor', '--provider', 'anthropic', '--live', '--json'], env);
    expect(fixture.requests).toHaveLength(1);
    const report = JSON.parse(live.stdout) as { checks: { name: string; ok: boolean }[] };
    expect(report.checks.find((c) => c.name.startsWith('anthropic:'))?.ok).toBe(true);
    expect(live.stdout).not.toContain(fixture.apiKey);
  });
});
