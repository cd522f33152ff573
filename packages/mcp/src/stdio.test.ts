import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { SearchBackend } from './mcp-server.ts';
import { serveMcpStdio } from './stdio.ts';

/** A backend that refuses every search: these tests are about the framing, not the search. */
const refusing: SearchBackend = {
  async search() {
    return { kind: 'error', body: { error: 'Invalid request.', code: 'invalid_request' } };
  },
};

/** Serves over a pair of in-memory streams; `lines` are written, then the input ends. */
async function exchange(lines: string[]): Promise<Record<string, unknown>[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const served = serveMcpStdio({ backend: refusing, version: '0' }, { input, output });
  for (const line of lines) input.write(`${line}\n`);
  input.end();
  await served;
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

describe('MCP over stdio', () => {
  it('answers a line that is not JSON with -32700 and keeps serving', async () => {
    const answers = await exchange(['{"jsonrpc":"2.0", "id": 7, "method"', INITIALIZE]);
    expect(answers[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(answers[1]).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
  });

  it('answers JSON that is not a JSON-RPC message with -32600, naming its id', async () => {
    const answers = await exchange(['{"id": 3, "hello": true}', '[1, 2]', INITIALIZE]);
    expect(answers.map((a) => [a.id, (a.error as { code?: number } | undefined)?.code])).toEqual([
      [3, -32600],
      [null, -32600],
      [1, undefined],
    ]);
  });

  it('answers the requests already received when the input ends, then resolves', async () => {
    const call = (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: 'web_search',
          arguments: { requests: [{ query: 'x' }] },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      });
    const answers = await exchange([call(1), call(2)]);
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
    expect(answers.every((a) => (a.result as { isError?: boolean }).isError === true)).toBe(true);
  });
});
