import { spawn } from 'node:child_process';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, requireBuild, runCli, type ServeProcess, startServe } from './run-cli.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find escape codes
const ESCAPE = /\u001b\[/;

let brave: BraveFixture;
let env: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  brave = await startBraveFixture();
  env = baseEnv({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
  });
});
afterAll(async () => {
  await brave?.close();
});

const withoutRequestId = (json: string) => {
  const { request_id: _, ...rest } = JSON.parse(json) as Record<string, unknown>;
  return rest;
};

describe('openmates search', () => {
  it.each([
    ['JSON', ['--json']],
    ['event lines', ['--jsonl']],
    ['human blocks', []],
  ])('ends quietly with exit 0 when the reader of its %s has gone (`| head -c 0`)', async (_, flags) => {
    // The read end is closed before the process can have written (it is still loading), so its
    // writes of the answer meet a closed pipe (EPIPE).
    const child = spawn(process.execPath, [BIN, 'search', 'rust', 'sqlite', ...flags], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('prints one block per query with numbered results, and exits 0', async () => {
    const result = await runCli(['search', 'rust async', 'sqlite', '--count', '2'], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(
      '[1] rust async\n  1.  Result 1 for rust async\n      example.org › rust-async › 1\n      https://example.org/rust-async/1',
    );
    expect(result.stdout).toContain('[2] sqlite');
    expect(result.stdout).toContain('  2.  Result 2 for sqlite');
    expect(result.stdout).not.toContain('Result 3 for sqlite');
    expect(result.stdout).toContain('Results from Brave Search');
  });

  it('shows every field a person reads: age and language on one line, budget, suggestions', async () => {
    const result = await runCli(['search', 'altered rust ownership', '--count', '1'], { ...env, COLUMNS: '1000' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('      January 5, 2025 · en\n');
    // Family friendly goes unsaid (it is said only when it is not), and the favicon is never text.
    expect(result.stdout).not.toContain('family friendly');
    expect(result.stdout).not.toContain('imgs.search.brave.com');
    // What Brave searched for instead is said under the heading, not offered as a related search.
    expect(result.stdout).toContain('[1] altered rust ownership\n  Showing results for “rust ownership”\n');
    expect(result.stdout).not.toContain('Related searches:');
    expect(result.stdout).toContain('  page 1 · more available\n');
    expect(result.stdout).toContain('Spent 1 search call; 1 of 100 distinct sources admitted.\n');
  });

  it('asks Brave for the page --page names and its news endpoint with --topic news', async () => {
    const paged = await runCli(['search', 'paged rust', '--page', '2', '--no-filter-tabloids'], env);
    expect(paged.code).toBe(0);
    expect(paged.stdout).toContain('  page 2 · more available\n');
    const call = brave.requests.find((r) => r.query.q === 'paged rust');
    expect(call?.query).toMatchObject({ count: '10', offset: '1' });
    const news = await runCli(['search', 'news of rust', '--topic', 'news'], env);
    expect(news.code).toBe(0);
    expect(brave.requests.find((r) => r.query.q === 'news of rust')?.path).toBe('/res/v1/news/search');
    expect(news.stdout).toContain('News 1 about news of rust');
  });

  it('refuses --topic news on the local index with the usage code and one line naming topic and the provider', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'openmates-cli-news-'));
    try {
      const localEnv = baseEnv({ OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: join(dir, 'index.db') });
      const result = await runCli(['search', 'fetch', '--topic', 'news'], localEnv);
      expect(result.code).toBe(2);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/topic "news" is not supported by the Local index provider/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses six queries with the contract’s 400: exit 2, one line on stderr saying how many, nothing on stdout', async () => {
    const result = await runCli(['search', 'a', 'b', 'c', 'd', 'e', 'f'], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^openmates: give 1 to 5 queries, one per argument \(got 6\)/);
    expect(brave.requests.filter((r) => r.query.q === 'f')).toHaveLength(0);
  });

  it('prints the ErrorResponse with --json for six queries', async () => {
    const result = await runCli(['search', 'a', 'b', 'c', 'd', 'e', 'f', '--json'], env);
    expect(result.code).toBe(2);
    const body = JSON.parse(result.stdout) as { code: string; issues: { path: string }[] };
    expect(body.code).toBe('invalid_request');
    expect(body.issues.map((i) => i.path)).toEqual(['requests']);
  });

  it('passes a bad flag value to the contract, which names the field', async () => {
    const result = await runCli(['search', 'x', '--count', 'many', '--json'], env);
    expect(result.code).toBe(2);
    expect((JSON.parse(result.stdout) as { issues: { path: string }[] }).issues[0]?.path).toBe('requests[0].count');
  });

  it('exits 3 when the provider fails, with the group’s error and one stderr line', async () => {
    const result = await runCli(['search', 'error500 boom'], env);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('[1] error500 boom\n  Failed (provider_error):');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('openmates doctor');
    expect(result.stdout + result.stderr).not.toContain(brave.apiKey);
  });

  it('exits 3 with --json and prints the full WebSearchResponse', async () => {
    const result = await runCli(['search', 'error500 boom', 'fine', '--json'], env);
    expect(result.code).toBe(3);
    const body = JSON.parse(result.stdout) as { results: { error?: { code: string } }[]; code: string };
    expect(body.results[0]?.error?.code).toBe('provider_error');
    expect(body.results[1]?.error).toBeUndefined();
    expect(body.code).toBe('provider_error');
  });

  it('exits 0 for zero hits and says so', async () => {
    const human = await runCli(['search', 'empty page'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('[1] empty page\n  No results.');
    const json = await runCli(['search', 'empty page', '--json'], env);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { results: { results: unknown[] }[] }).results[0]?.results).toEqual([]);
  });

  it('reads a WebSearchRequest from stdin with --input -', async () => {
    const request = {
      requests: [
        { id: 'a', query: 'first', count: 1 },
        { id: 7, query: 'second', count: 2 },
      ],
    };
    const result = await runCli(['search', '--input', '-', '--json'], env, JSON.stringify(request));
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as { results: { id: unknown; results: { url: string }[] }[] };
    expect(body.results.map((g) => g.id)).toEqual(['a', 7]);
    expect(body.results.map((g) => g.results.length)).toEqual([1, 2]);
  });

  it('refuses --input that is not JSON, and --input with query arguments', async () => {
    const bad = await runCli(['search', '--input', '-', '--json'], env, '{not json');
    expect(bad.code).toBe(2);
    expect((JSON.parse(bad.stdout) as { code: string }).code).toBe('invalid_request');
    const both = await runCli(['search', 'q', '--input', '-'], env, '{}');
    expect(both.code).toBe(2);
    expect(both.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('answers through `openmates apps web search` too', async () => {
    const result = await runCli(['apps', 'web', 'search', 'alias', '--count', '1', '--json'], env);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { results: unknown[] }).results).toHaveLength(1);
  });

  it('exits 4 with one line when the selected provider is not configured', async () => {
    const result = await runCli(['search', 'x'], baseEnv({ OPENMATES_PROVIDER: 'brave' }));
    expect(result.code).toBe(4);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('BRAVE_SEARCH_API_KEY');
  });

  it('prints no escape codes without a TTY or with NO_COLOR, and colours only when forced', async () => {
    const plain = await runCli(['search', 'colour', '--count', '1'], env);
    expect(plain.stdout).not.toMatch(ESCAPE);
    const noColor = await runCli(['search', 'colour', '--count', '1'], { ...env, NO_COLOR: '1', FORCE_COLOR: '1' });
    expect(noColor.stdout).not.toMatch(ESCAPE);
    const forced = await runCli(['search', 'colour', '--count', '1'], { ...env, FORCE_COLOR: '1' });
    expect(forced.stdout).toMatch(ESCAPE);
    const failed = await runCli(['search', 'error500'], { ...env, NO_COLOR: '1' });
    expect(failed.stdout + failed.stderr).not.toMatch(ESCAPE);
  });
});

describe('openmates search --api-url', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServe(['--port', '0', '--no-gui'], { ...env, OPENMATES_RATE_LIMIT_PER_MIN: '0' });
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it.each([
    ['results', ['search', 'parity one', 'parity two', '--count', '3', '--country', 'de', '--json']],
    ['zero hits', ['search', 'empty', '--json']],
    ['a failed group', ['search', 'error500 x', 'ok', '--json']],
    ['every group failed (502)', ['search', 'unavailable x', '--json']],
    ['a refused request (400)', ['search', 'a', 'b', 'c', 'd', 'e', 'f', '--json']],
  ])('gives the same JSON and exit code as in process: %s', async (_name, args) => {
    const local = await runCli(args, env);
    const remote = await runCli([...args, '--api-url', server.url], env);
    expect(remote.code).toBe(local.code);
    expect(withoutRequestId(remote.stdout)).toEqual(withoutRequestId(local.stdout));
    // Byte-identical apart from the request id.
    const strip = (s: string) => s.replace(/"request_id":"[^"]*"/, '"request_id":""');
    expect(strip(remote.stdout)).toBe(strip(local.stdout));
  });

  it('reads the server from OPENMATES_API_URL', async () => {
    const result = await runCli(['search', 'from env', '--json'], { ...baseEnv(), OPENMATES_API_URL: server.url });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { provider: string }).provider).toBe('Brave Search');
  });

  it('says in one line when the server cannot be reached, exit 1', async () => {
    const closed = await startServe(['--port', '0', '--no-gui'], env);
    closed.child.kill('SIGTERM');
    expect(await closed.exited).toBe(0);
    const result = await runCli(['search', 'x', '--json', '--api-url', closed.url], baseEnv());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`cannot reach ${closed.url}`);
  });
});
