import { CONTRACT_FINGERPRINT } from '@openmates/contract';
import {
  type BraveFixture,
  type OpenAIFixture,
  SEARXNG_CANARY_PASSWORD,
  startAzureOpenAIFixture,
  startBraveFixture,
  startExaFixture,
  startOpenAIFixture,
  startSearxngFixture,
} from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { narrowedExampleArgv } from '../src/search/search-flags.ts';
import { baseEnv, requireBuild, runCli, startServe } from './run-cli.ts';

let brave: BraveFixture;
let openai: OpenAIFixture;
let env: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  [brave, openai] = await Promise.all([startBraveFixture(), startOpenAIFixture()]);
  env = baseEnv({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
  });
});
afterAll(async () => {
  await Promise.all([brave?.close(), openai?.close()]);
});

describe('openmates --version and --help', () => {
  it('prints the version and the contract fingerprint', async () => {
    const result = await runCli(['--version'], baseEnv());
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^openmates \d+\.\d+\.\d+ /);
    expect(result.stdout).toContain(CONTRACT_FINGERPRINT);
  });

  it.each([['search'], ['serve'], ['doctor'], ['mcp'], ['apps', 'web', 'search'], ['index', 'add']])(
    'shows examples in `%s --help`',
    async (...command) => {
      const result = await runCli([...command, '--help'], baseEnv());
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('EXAMPLES');
      expect(result.stdout).toContain('$ openmates ');
    },
  );

  it('the narrowed example of `search --help` shows the scope options and runs as shown', async () => {
    const help = await runCli(['search', '--help'], baseEnv());
    expect(help.stdout.replace(/\s*\\\n\s*/g, ' ')).toContain(
      '$ openmates search "fetch abort signal" --lang en --freshness week --include-domain developer.mozilla.org --exclude-domain example.com',
    );
    const result = await runCli([...narrowedExampleArgv(), '--json'], env);
    expect(result.code).toBe(0);
    const [call] = brave.requests.filter((r) => r.query.q?.startsWith('fetch abort signal'));
    expect(call?.query).toMatchObject({ search_lang: 'en', freshness: 'pw' });
    expect(call?.query.q).toContain('site:developer.mozilla.org');
  });

  it('reports an unknown flag in one message without a stack trace', async () => {
    const result = await runCli(['search', 'x', '--bogus'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--bogus');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a refusal of the human view is one stderr line naming what was typed (ADR 0122)', () => {
  const local = () => baseEnv({ OPENMATES_PROVIDER: 'local' });
  const sixQueries = ['a', 'b', 'c', 'd', 'e', 'f'];
  it.each([
    ['count out of range', ['search', '--count', '99', 'x'], 2, /^openmates: --count must .*1 to 20 \(got 99\)/],
    ['no query', ['search'], 2, /^openmates: give 1 to 5 queries.* \(got 0\)/],
    ['six queries', ['search', ...sixQueries], 2, /^openmates: give 1 to 5 queries.* \(got 6\)/],
    ['an empty query', ['search', 'a', ''], 2, /^openmates: query 2 must not be blank/],
    [
      'a bad freshness',
      ['search', 'x', '--freshness', 'fortnight'],
      2,
      /^openmates: --freshness must .*\(got fortnight\)/,
    ],
    [
      'an unknown flag',
      ['search', 'x', '--cout', '5'],
      2,
      /^openmates: unknown flag --cout: did you mean `--count`\? See `openmates search --help`/,
    ],
    [
      'an unknown command',
      ['serch', 'x'],
      2,
      /^openmates: unknown command `serch`: did you mean `search`\? See `openmates --help`/,
    ],
    [
      'a flag without its value',
      ['search', 'x', '--count'],
      2,
      /^openmates: Flag --count expects a value\. See `openmates search --help`/,
    ],
    ['a switch given a value', ['search', 'x', '--json=1'], 2, /^openmates: --json is a switch/],
    [
      'an option the provider refuses',
      ['search', 'x', '--topic', 'news'],
      2,
      /^openmates: --topic "news" is not supported by the Local index/,
    ],
  ])('%s', async (_name, argv, code, line) => {
    const result = await runCli(argv, local());
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(line);
    expect(result.code).toBe(code);
  });

  it('a missing provider key, said once', async () => {
    const result = await runCli(['search', 'x'], baseEnv({ OPENMATES_PROVIDER: 'brave' }));
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^openmates: OPENMATES_PROVIDER=brave needs BRAVE_SEARCH_API_KEY/);
    expect(result.code).toBe(4);
  });

  it('the same request with --json: the ErrorResponse on stdout as documented, one stderr line', async () => {
    const result = await runCli(['search', '--count', '99', 'x', 'y', '--json'], local());
    expect(JSON.parse(result.stdout)).toMatchObject({
      code: 'invalid_request',
      issues: [{ path: 'requests[0].count' }, { path: 'requests[1].count' }],
    });
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'openmates: --count must be an integer from 1 to 20 (got 99). See `openmates search --help`.',
    ]);
    expect(result.code).toBe(2);
  });

  it('a request read with --input keeps the paths its JSON has, and says how many items it held', async () => {
    const requests = sixQueries.map((query) => ({ query }));
    const result = await runCli(['search', '--input', '-'], local(), JSON.stringify({ requests }));
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^openmates: requests: requests must be an array of 1 to 5 items \(got 6\)\./);
  });
});

describe('openmates serve', () => {
  it('refuses a non-loopback host without API keys, in one line', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--no-gui'], env);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('OPENMATES_API_KEYS');
  });

  it('refuses to start when the selected provider is not configured, in one line', async () => {
    const result = await runCli(['serve', '--port', '0', '--no-gui'], baseEnv({ OPENMATES_PROVIDER: 'openai' }));
    expect(result.code).not.toBe(0);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('OPENAI_API_KEY');
  });

  it('listens on port 0, answers /healthz, prints working examples, and stops on SIGTERM', async () => {
    const server = await startServe(['--port', '0', '--no-gui'], env);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', provider: 'brave' });
      expect(server.stdout()).toContain('Brave Search');
      // The printed CLI line works as printed.
      const line = /(node \S+run\.js) search "fetch abort" --count 3 --api-url (\S+)/.exec(server.stdout());
      expect(line?.[2]).toBe(server.url);
      const viaCli = await runCli(['search', 'fetch abort', '--count', '3', '--api-url', server.url, '--json'], env);
      expect(viaCli.code).toBe(0);
      // The printed curl line's request works too.
      const curl = /-d '([^']+)'/.exec(server.stdout());
      const answer = await fetch(`${server.url}/v1/apps/web/skills/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: curl?.[1] ?? '',
      });
      expect(answer.status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('stopped');
  });

  it('lets an in-flight search finish on SIGTERM', async () => {
    brave.setLatency(300);
    const server = await startServe(['--port', '0', '--no-gui'], env);
    try {
      const pending = fetch(`${server.url}/v1/apps/web/skills/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requests: [{ query: 'in flight' }] }),
      });
      // Wait until the provider has the call, then ask the server to stop.
      while (!brave.requests.some((r) => r.query.q === 'in flight')) await new Promise((r) => setImmediate(r));
      server.child.kill('SIGTERM');
      const answer = await pending;
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { results: { results: unknown[] }[] }).results[0]?.results.length).toBe(10);
      expect(await server.exited).toBe(0);
    } finally {
      brave.setLatency(0);
      server.child.kill('SIGKILL');
    }
  });
});

describe('openmates doctor', () => {
  it('reports the selected provider, its key (never the value) and that it answers', async () => {
    const result = await runCli(['doctor', '--json'], { ...env, OPENAI_API_KEY: openai.apiKey });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      provider: string;
      source: string;
      ok: boolean;
      checks: { name: string; ok: boolean; detail: string }[];
    };
    expect(report).toMatchObject({ provider: 'brave', source: 'OPENMATES_PROVIDER', ok: true });
    expect(report.checks.find((c) => c.name === 'BRAVE_SEARCH_API_KEY')?.detail).toContain('set');
    expect(report.checks.find((c) => c.name === 'OPENAI_API_KEY')?.detail).toContain('not used');
    expect(report.checks.find((c) => c.name === 'Brave Search API key')?.ok).toBe(true);
    expect(result.stdout).not.toContain(brave.apiKey);
    expect(result.stdout).not.toContain(openai.apiKey);
  });

  it('names BRAVE_API_KEY when it is the Brave key in use, and BRAVE_SEARCH_API_KEY when both are set', async () => {
    const { BRAVE_SEARCH_API_KEY: key, ...rest } = env;
    const fallback = await runCli(['doctor', '--json'], { ...rest, BRAVE_API_KEY: key });
    expect(fallback.code).toBe(0);
    const names = (stdout: string) =>
      (JSON.parse(stdout) as { checks: { name: string; ok: boolean }[] }).checks.map((c) => c.name);
    expect(names(fallback.stdout)).toContain('BRAVE_API_KEY');
    expect(names(fallback.stdout)).not.toContain('BRAVE_SEARCH_API_KEY');
    const both = await runCli(['doctor', '--json'], { ...env, BRAVE_API_KEY: 'another-key-0123456789' });
    expect(names(both.stdout)).toContain('BRAVE_SEARCH_API_KEY');
    expect(names(both.stdout)).not.toContain('BRAVE_API_KEY');
  });

  it('says what to fix and exits 4 when the key is missing', async () => {
    const result = await runCli(['doctor'], baseEnv({ OPENMATES_PROVIDER: 'brave' }));
    expect(result.code).toBe(4);
    expect(result.stdout).toContain('✗ BRAVE_SEARCH_API_KEY: not set');
    expect(result.stdout).toContain('fix: Set BRAVE_SEARCH_API_KEY');
  });

  it('reports a bad variable as a failed check', async () => {
    const result = await runCli(['doctor', '--json'], { ...env, OPENMATES_CACHE_TTL_S: 'soon' });
    expect(result.code).toBe(4);
    const report = JSON.parse(result.stdout) as { ok: boolean; checks: { detail: string; ok: boolean }[] };
    expect(report.ok).toBe(false);
    expect(report.checks.some((c) => !c.ok && c.detail.includes('OPENMATES_CACHE_TTL_S'))).toBe(true);
  });

  it('prints the OpenAI dry run with the key redacted, needing no key', async () => {
    const result = await runCli(['doctor', '--provider', 'openai', '--dry-run', '--json'], baseEnv());
    expect(result.code).toBe(0);
    const dryRun = JSON.parse(result.stdout) as { method: string; url: string; headers: Record<string, string> };
    expect(dryRun.method).toBe('POST');
    expect(dryRun.url).toBe('https://api.openai.com/v1/responses');
    expect(dryRun.headers.Authorization).toBe('Bearer [redacted]');
    const withKey = await runCli(['doctor', '--provider', 'openai', '--dry-run', '--json'], {
      ...baseEnv(),
      OPENAI_API_KEY: openai.apiKey,
    });
    expect(withKey.stdout).not.toContain(openai.apiKey);
  });

  it('prints the Azure OpenAI dry run with the key redacted, needing no key', async () => {
    const azureEnv = {
      ...baseEnv(),
      AZURE_OPENAI_ENDPOINT: 'https://res.openai.azure.com',
      OPENMATES_AZURE_OPENAI_DEPLOYMENT: 'gpt-4.1-mini',
      OPENMATES_AZURE_OPENAI_SEARCH_TOOL: 'web_search_preview',
    };
    const result = await runCli(['doctor', '--provider', 'azure-openai', '--dry-run', '--json'], azureEnv);
    expect(result.code).toBe(0);
    const dryRun = JSON.parse(result.stdout) as {
      url: string;
      headers: Record<string, string>;
      body: { model: string; tools: { type: string }[]; max_tool_calls: number };
    };
    expect(dryRun.url).toBe('https://res.openai.azure.com/openai/v1/responses');
    expect(dryRun.headers['api-key']).toBe('[redacted]');
    expect(dryRun.body).toMatchObject({
      model: 'gpt-4.1-mini',
      tools: [{ type: 'web_search_preview' }],
      max_tool_calls: 4,
    });
    const withKey = await runCli(['doctor', '--provider', 'azure-openai', '--dry-run', '--json'], {
      ...azureEnv,
      AZURE_OPENAI_API_KEY: 'azure-dry-run-canary-0000',
    });
    expect(withKey.stdout).not.toContain('azure-dry-run-canary-0000');
  });

  it('runs the Azure OpenAI live probe when asked, against the fixture as Azure', async () => {
    const azure = await startAzureOpenAIFixture();
    try {
      const azureEnv = baseEnv({
        AZURE_OPENAI_API_KEY: azure.apiKey,
        AZURE_OPENAI_ENDPOINT: azure.baseUrl,
        OPENMATES_AZURE_OPENAI_DEPLOYMENT: 'gpt-4.1-mini',
      });
      const live = await runCli(['doctor', '--provider', 'azure-openai', '--live', '--json'], azureEnv);
      const report = JSON.parse(live.stdout) as { checks: { name: string; ok: boolean }[] };
      const levels = report.checks.filter((c) => c.name.startsWith('azure-openai level'));
      expect(levels.map((c) => c.ok)).toEqual([true, true]);
      expect(live.stdout).not.toContain(azure.apiKey);
      expect(azure.requests).toHaveLength(2);
    } finally {
      await azure.close();
    }
  });

  it('runs the live probe only when asked, here against the OpenAI fixture', async () => {
    const openaiEnv = baseEnv({ OPENAI_API_KEY: openai.apiKey, OPENAI_BASE_URL: openai.baseUrl });
    openai.reset();
    const plain = await runCli(['doctor', '--provider', 'openai', '--json'], openaiEnv);
    expect(openai.requests).toHaveLength(0);
    expect(plain.code).toBe(0);
    const live = await runCli(['doctor', '--provider', 'openai', '--live', '--json'], openaiEnv);
    expect(openai.requests.length).toBeGreaterThan(0);
    const report = JSON.parse(live.stdout) as { ok: boolean; checks: { name: string; ok: boolean }[] };
    expect(report.checks.filter((c) => c.name.startsWith('openai level')).every((c) => c.ok)).toBe(true);
    expect(live.code).toBe(0);
  });

  it('prints the Exa dry run with the key redacted, and probes Exa live only when asked', async () => {
    const exa = await startExaFixture();
    try {
      const exaEnv = baseEnv({ EXA_API_KEY: exa.apiKey, EXA_BASE_URL: exa.baseUrl });
      const dry = await runCli(['doctor', '--provider', 'exa', '--dry-run', '--json', '--query', 'rust'], exaEnv);
      expect(dry.code).toBe(0);
      expect(JSON.parse(dry.stdout)).toMatchObject({
        method: 'POST',
        url: `${exa.baseUrl}/search`,
        headers: { 'x-api-key': '[redacted]' },
        body: { query: 'rust' },
      });
      expect(dry.stdout).not.toContain(exa.apiKey);
      const plain = await runCli(['doctor', '--provider', 'exa', '--json'], exaEnv);
      expect(plain.code).toBe(0);
      expect(exa.requests).toHaveLength(0);
      const live = await runCli(['doctor', '--provider', 'exa', '--live', '--json'], exaEnv);
      expect(live.code).toBe(0);
      expect(exa.requests).toHaveLength(1);
      expect(live.stdout).not.toContain(exa.apiKey);
    } finally {
      await exa.close();
    }
  });
});

describe('openmates doctor with SearXNG', () => {
  it('checks the instance via /config without a search, and says what to change when JSON is off', async () => {
    const searxng = await startSearxngFixture();
    try {
      const sxEnv = baseEnv({ OPENMATES_PROVIDER: 'searxng', SEARXNG_BASE_URL: searxng.baseUrl });
      const good = await runCli(['doctor', '--json'], sxEnv);
      expect(good.code).toBe(0);
      expect(good.stdout).toContain('SearXNG JSON output');
      expect(searxng.requests.some((r) => r.query.q !== undefined)).toBe(false);
      searxng.setFormats(['html']);
      const off = await runCli(['doctor'], sxEnv);
      expect(off.code).toBe(4);
      expect(off.stdout).toContain('✗ SearXNG JSON output');
      expect(off.stdout).toContain('search.formats');
      expect(good.stdout + good.stderr + off.stdout + off.stderr).not.toContain(SEARXNG_CANARY_PASSWORD);
    } finally {
      await searxng.close();
    }
  });
});

describe('openmates index', () => {
  it('adds files, reports stats, answers local searches and clears', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'openmates-cli-index-'));
    try {
      // Results need an http(s) URL (ADR 0018), so the document comes as a JSONL line with one.
      const doc = { url: 'https://example.org/quokka', title: 'Quokka habits', body: 'The quokka is a marsupial.' };
      await writeFile(join(dir, 'pages.jsonl'), `${JSON.stringify(doc)}\n`);
      const localEnv = baseEnv({ OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: join(dir, 'index.db') });
      const added = await runCli(['index', 'add', join(dir, 'pages.jsonl'), '--json'], localEnv);
      expect(added.code).toBe(0);
      expect(JSON.parse(added.stdout)).toMatchObject({ added: 1, files: 1 });
      const stats = await runCli(['index', 'stats', '--json'], localEnv);
      expect(JSON.parse(stats.stdout)).toMatchObject({ sources: { user: 1 } });
      const search = await runCli(['search', 'quokka', '--json'], localEnv);
      expect(search.code).toBe(0);
      const body = JSON.parse(search.stdout) as { results: { results: { title: string }[] }[] };
      expect(body.results[0]?.results[0]?.title).toContain('Quokka');
      const cleared = await runCli(['index', 'clear'], localEnv);
      expect(cleared.code).toBe(0);
      expect(cleared.stdout).toContain('Removed');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives files without a URL of their own one under --base-url, so search finds them', async () => {
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'openmates-cli-base-'));
    try {
      await mkdir(join(dir, 'notes', 'zoo'), { recursive: true });
      await writeFile(join(dir, 'notes', 'zoo', 'numbat facts.md'), '# Numbat facts\n\nThe numbat eats termites.\n');
      const localEnv = baseEnv({ OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: join(dir, 'index.db') });
      const added = await runCli(
        ['index', 'add', join(dir, 'notes'), '--base-url', 'https://notes.example/n', '--json'],
        localEnv,
      );
      expect(added.code).toBe(0);
      expect(JSON.parse(added.stdout)).toMatchObject({ added: 1, rejected: 0, withoutUrl: 0, problems: [] });
      const search = await runCli(['search', 'numbat', '--json'], localEnv);
      expect(search.code).toBe(0);
      const body = JSON.parse(search.stdout) as { results: { results: { title: string; url: string }[] }[] };
      expect(body.results[0]?.results).toEqual([
        expect.objectContaining({ title: 'Numbat facts', url: 'https://notes.example/n/zoo/numbat%20facts.md' }),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names a file without a URL and exits 2 when nothing could be added; 0 with warnings otherwise', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'openmates-cli-nourl-'));
    try {
      const bare = join(dir, 'bare.md');
      const own = join(dir, 'own.md');
      await writeFile(bare, '# Bare\n\nA bilby note.\n');
      await writeFile(own, '---\nurl: https://own.example/bilby\n---\nAnother bilby note.\n');
      const localEnv = baseEnv({ OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: join(dir, 'index.db') });

      const nothing = await runCli(['index', 'add', bare], localEnv);
      expect(nothing.code).toBe(2);
      expect(nothing.stdout).toContain('Indexed 0 documents (0 replaced, 1 refused, 1 of them without a URL)');
      expect(nothing.stderr).toContain(`skipped ${bare}: no http(s) URL`);
      expect(nothing.stderr).toContain('1 file has no http(s) URL: add `url:` to its front matter or pass --base-url');

      const some = await runCli(['index', 'add', bare, own], localEnv);
      expect(some.code).toBe(0);
      expect(some.stderr).toContain(`skipped ${bare}`);
      expect(some.stderr).not.toContain(own);
      const search = await runCli(['search', 'bilby', '--json'], localEnv);
      const body = JSON.parse(search.stdout) as { results: { results: { url: string }[] }[] };
      expect(body.results[0]?.results.map((r) => r.url)).toEqual(['https://own.example/bilby']);

      const badBase = await runCli(['index', 'add', bare, '--base-url', 'notes/'], localEnv);
      expect(badBase.code).toBe(2);
      expect(badBase.stderr.trimEnd().split('\n')).toEqual([
        'openmates index: --base-url: the base URL must be an absolute http(s) URL without credentials, query or fragment.',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
