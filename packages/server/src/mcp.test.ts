import { request as httpRequest } from 'node:http';
import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { PATHS } from '@openmates/contract';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/index.ts';

const KEY = 'mcp-test-key-0123456789abcdef';
let brave: BraveFixture;
let server: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  brave = await startBraveFixture();
  server = await startTestServer(brave, {
    env: {
      OPENMATES_API_KEYS: KEY,
      OPENMATES_RATE_LIMIT_PER_MIN: '100',
      OPENMATES_ALLOWED_ORIGINS: 'https://agent.example.com',
    },
  });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  brave.reset();
});

afterAll(async () => {
  await server?.close();
  await brave?.close();
});

async function connect(key = KEY, origin = server.url, era: 'legacy' | 'modern' = 'legacy'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${origin}${PATHS.mcp}`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client(
    { name: 'test', version: '0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  clients.push(client);
  await client.connect(transport);
  return client;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

/** A raw POST to /mcp with node:http, so `Host` can be anything. */
function post(
  headers: Record<string, string>,
  body: unknown = INITIALIZE,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(server.url);
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: PATHS.mcp,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${KEY}`,
          ...headers,
        },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          data += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** A JSON-RPC error body, with the contract's ErrorResponse as its data. */
function rpcError(body: string): { id: unknown; error: { code: number; message: string; data?: { code: string } } } {
  const parsed = JSON.parse(body);
  expect(parsed).toMatchObject({
    jsonrpc: '2.0',
    id: null,
    error: { code: expect.any(Number), message: expect.any(String) },
  });
  return parsed;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('MCP over Streamable HTTP at /mcp', () => {
  it('serves a 2026-07-28 client: server/discover, then a call with no handshake', async () => {
    const client = await connect(KEY, server.url, 'modern');
    expect(client.getProtocolEra()).toBe('modern');
    const result = (await client.callTool({
      name: 'web_search',
      arguments: { requests: [{ query: 'rust ownership', count: 2 }] },
    })) as CallToolResult;
    expect((result.structuredContent as { results: { results: unknown[] }[] }).results[0]?.results).toHaveLength(2);
    const discover = await post(
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } },
    );
    expect(discover.status).toBe(200);
    expect(discover.body).toContain('"supportedVersions":["2026-07-28","2025-11-25"]');
    const call = await post(
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'web_search' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'web_search', arguments: { requests: [{ query: 'rust' }] }, _meta: META },
      },
    );
    expect(call.status).toBe(200);
    expect(call.body).toContain('"structuredContent"');
  });

  it('runs the tool for a client with a key', async () => {
    const client = await connect();
    const result = (await client.callTool({
      name: 'web_search',
      arguments: { requests: [{ query: 'rust ownership', count: 2 }] },
    })) as CallToolResult;
    expect(result.isError).toBeUndefined();
    expect((result.structuredContent as { results: { results: unknown[] }[] }).results[0]?.results).toHaveLength(2);
  });

  it('answers 401 with the contract body and WWW-Authenticate before any tool runs, for a missing or wrong key', async () => {
    for (const authorization of ['', 'Bearer wrong-key-0123456789abcdef']) {
      const answer = await post({ authorization });
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(rpcError(answer.body).error.data).toMatchObject({ code: 'unauthorized' });
    }
    await expect(connect('wrong-key-0123456789abcdef')).rejects.toThrow();
    expect(brave.requests).toHaveLength(0);
  });

  it('refuses a foreign Origin or Host with 403, and accepts a listed origin', async () => {
    const foreignOrigin = await post({ origin: 'https://evil.example' });
    expect(foreignOrigin.status).toBe(403);
    expect(rpcError(foreignOrigin.body).error.data).toMatchObject({ code: 'forbidden' });
    const rebinding = await post({ host: 'evil.example:8787' });
    expect(rebinding.status).toBe(403);
    expect((await post({ origin: 'https://agent.example.com' })).status).toBe(200);
    expect((await post({ host: 'localhost' })).status).toBe(200);
  });

  it('holds the body to 64 KiB and JSON, answering each refusal as a JSON-RPC error', async () => {
    const large = await post({}, 'x'.repeat(70 * 1024));
    expect(large.status).toBe(413);
    expect(rpcError(large.body).error).toMatchObject({ code: -32600, data: { code: 'payload_too_large' } });
    const text = await post({ 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(rpcError(text.body).error.data).toMatchObject({ code: 'unsupported_media_type' });
    const broken = await post({}, '{"jsonrpc":');
    expect(broken.status).toBe(400);
    expect(rpcError(broken.body).error).toMatchObject({ code: -32700, data: { code: 'invalid_request' } });
  });

  it('answers 405 for GET and DELETE: the endpoint is stateless', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${server.url}${PATHS.mcp}`, {
        method,
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(rpcError(await response.text()).error.data).toMatchObject({ code: 'method_not_allowed' });
    }
  });

  it("answers a refused request as isError with REST's issue paths", async () => {
    const body = { requests: [{ query: '', count: 0 }], max_results: 1 };
    const client = await connect();
    const result = (await client.callTool({ name: 'web_search', arguments: body })) as CallToolResult;
    expect(result.isError).toBe(true);
    const rest = await fetch(`${server.url}${PATHS.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify(body),
    });
    const restBody = (await rest.json()) as { issues: { path: string; message: string }[] };
    const mcpBody = result.structuredContent as { code: string; issues: { path: string; message: string }[] };
    expect(mcpBody.code).toBe('invalid_request');
    expect(mcpBody.issues).toEqual(restBody.issues);
  });

  it('answers a batch whose every group failed as isError with each group error', async () => {
    const client = await connect();
    const result = (await client.callTool({
      name: 'web_search',
      arguments: { requests: [{ query: 'error500 a' }, { query: 'unavailable b' }] },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const response = result.structuredContent as { results: { error?: { code: string } }[] };
    expect(response.results.map((g) => g.error?.code)).toEqual(['provider_error', 'provider_unavailable']);
    expect(JSON.stringify(result)).not.toContain(brave.apiKey);
  });

  it("counts each tools/call against the key's rate limit, and nothing else", async () => {
    const limited = await startTestServer(brave, {
      env: { OPENMATES_API_KEYS: KEY, OPENMATES_RATE_LIMIT_PER_MIN: '2' },
    });
    try {
      const client = await connect(KEY, limited.url);
      const search = async () =>
        (await client.callTool({ name: 'web_search', arguments: { requests: [{ query: 'rust' }] } })) as CallToolResult;
      await client.listTools();
      await client.listTools();
      expect((await search()).isError).toBeUndefined();
      expect((await search()).isError).toBeUndefined();
      const third = await search();
      expect(third.isError).toBe(true);
      expect(third.structuredContent).toMatchObject({ code: 'rate_limited' });
      expect(brave.requests).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });

  it('keeps forged boundary markers inside the boundary', async () => {
    const client = await connect();
    const result = (await client.callTool({
      name: 'web_search',
      arguments: { requests: [{ query: 'forge markers' }] },
    })) as CallToolResult;
    const [block] = result.content;
    const text = block?.type === 'text' ? block.text : '';
    const token = /<untrusted-search-results token="([0-9a-f]{32})">/.exec(text)?.[1] ?? '';
    expect(token).not.toBe('');
    // The token appears in the two real markers only; the forged close sits before the real one.
    expect(text.split(token)).toHaveLength(3);
    expect(text.endsWith(`</untrusted-search-results token="${token}">`)).toBe(true);
    expect(text.indexOf('</untrusted-search-results token="0">')).toBeLessThan(text.lastIndexOf('</untrusted'));
  });
});
