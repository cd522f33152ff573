import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, requireBuild, runCli, startServe } from './run-cli.ts';

let brave: BraveFixture;
let env: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  brave = await startBraveFixture();
  env = baseEnv({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    OPENMATES_LOG_LEVEL: 'info',
  });
});
afterAll(async () => {
  await brave?.close();
});

/** A session as an MCP client writes it on stdin: initialize, initialized, then the calls. */
function session(...calls: unknown[]): string {
  const messages = [
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    ...calls.map((args, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'web_search', arguments: args, _meta: { progressToken: `p${i + 1}` } },
    })),
  ];
  return messages.map((m) => `${JSON.stringify(m)}\n`).join('');
}

interface Message {
  jsonrpc: string;
  id?: number;
  method?: string;
  result?: { isError?: boolean; structuredContent?: Record<string, unknown>; content?: { text: string }[] };
}

function parseStdout(stdout: string): Message[] {
  // Every line on stdout is a protocol message: one stray log line would break the client.
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => {
      const message = JSON.parse(line) as Message;
      expect(message.jsonrpc).toBe('2.0');
      return message;
    });
}

describe('openmates mcp (stdio)', () => {
  it('answers on stdout with protocol messages only, logs on stderr, and finishes calls before closing', async () => {
    const input = session(
      { requests: [{ id: 'a', query: 'rust ownership', count: 2 }] },
      { requests: [{ query: '' }], unknown: 1 },
      { requests: [{ query: 'unavailable a' }, { query: 'badkey b' }] },
      { requests: [{ query: 'forge markers' }] },
    );
    const result = await runCli(['mcp'], env, input);
    expect(result.code).toBe(0);
    const messages = parseStdout(result.stdout);
    const byId = new Map(messages.filter((m) => m.id !== undefined).map((m) => [m.id, m]));
    expect([...byId.keys()].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(byId.get(1)?.result?.isError).toBeUndefined();
    expect(byId.get(1)?.result?.structuredContent?.provider).toBe('Brave Search');
    const refused = byId.get(2)?.result;
    expect(refused?.isError).toBe(true);
    expect(refused?.structuredContent).toMatchObject({ code: 'invalid_request' });
    expect(((refused?.structuredContent?.issues ?? []) as { path: string }[]).map((i) => i.path).sort()).toEqual([
      'requests[0].query',
      'unknown',
    ]);
    expect(byId.get(3)?.result?.isError).toBe(true);
    const progress = messages.filter((m) => m.method === 'notifications/progress');
    expect(progress.length).toBe(4); // one per finished group of the calls that ran
    // A result that closes the boundary itself stays inside it: the real close is the last line.
    const forged = byId.get(4)?.result?.content?.[0]?.text ?? '';
    const token = /<untrusted-search-results token="([0-9a-f]{32})">/.exec(forged)?.[1] ?? '';
    expect(token).not.toBe('');
    expect(forged.split(token)).toHaveLength(3);
    expect(forged.endsWith(`</untrusted-search-results token="${token}">`)).toBe(true);
    const logs = result.stderr.trimEnd().split('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const line of logs) expect(JSON.parse(line)).toHaveProperty('level');
    expect(result.stdout + result.stderr).not.toContain(brave.apiKey);
  });

  it('bridges to a server with --api-url and its key', async () => {
    const key = 'mcp-bridge-key-0123456789abcdef';
    const served = await startServe(['--port', '0', '--no-gui'], { ...env, OPENMATES_API_KEYS: key });
    try {
      const input = session({ requests: [{ query: 'rust ownership', count: 1 }] });
      const ok = await runCli(['mcp', '--api-url', served.url, '--api-key', key], baseEnv(), input);
      const answer = parseStdout(ok.stdout).find((m) => m.id === 1)?.result;
      expect(answer?.isError).toBeUndefined();
      expect(answer?.structuredContent?.provider).toBe('Brave Search');
      const wrong = await runCli(
        ['mcp', '--api-url', served.url],
        baseEnv({ OPENMATES_API_KEY: 'x'.repeat(20) }),
        input,
      );
      const refused = parseStdout(wrong.stdout).find((m) => m.id === 1)?.result;
      expect(refused?.isError).toBe(true);
      expect(refused?.structuredContent).toMatchObject({ code: 'unauthorized' });
      expect(wrong.stdout).not.toContain('x'.repeat(20));
    } finally {
      served.child.kill('SIGTERM');
      await served.exited;
    }
  });

  it('refuses to start in one line when the provider is not configured', async () => {
    const result = await runCli(['mcp'], baseEnv({ OPENMATES_PROVIDER: 'brave' }), session());
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^openmates mcp: cannot start: .*BRAVE_SEARCH_API_KEY/);
  });
});
