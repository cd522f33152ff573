import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, InMemoryTransport, type Tool } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createConfiguredProviders, createEngine, createLogger, type Engine, loadConfig } from '@openmates/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineBackend } from './engine-backend.ts';
import { createMcpServer } from './mcp-server.ts';
import { type ChainMember, chainNote } from './tool-schemas.ts';

/** What a listing of the tool may cost a model, in characters of its compact JSON (ADR 0119). */
const MAX_TOOLS_CHARACTERS = 6_000;

let dir: string;
let engine: Engine;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'openmates-mcp-listing-'));
  // The default chain: no OPENMATES_PROVIDER, so the local index alone.
  const config = loadConfig({ OPENMATES_INDEX: join(dir, 'index.db') });
  engine = createEngine({
    config,
    provider: createConfiguredProviders(config),
    logger: createLogger({ level: 'silent', redact: (s) => s }),
  });
});

afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The `tools` array of `tools/list` as the server sent it, in the era, from the server `openmates mcp` makes. */
async function listedTools(era: 'legacy' | 'modern'): Promise<Tool[]> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const providers = engine.providers.map((p) => ({ id: p.id, name: p.name, capabilities: p.capabilities }));
  const handle = serveStdio(
    () => createMcpServer({ backend: engineBackend(engine), version: '0', provider: providers[0], providers }),
    { transport: serverSide },
  );
  const client = new Client(
    { name: 'test', version: '0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  try {
    await client.connect(clientSide);
    // The raw answer: the client's parsing may drop keys, a model's host sends what the server did.
    const raw: unknown[] = [];
    const deliver = clientSide.onmessage;
    clientSide.onmessage = (message, extra) => {
      raw.push(message);
      deliver?.(message, extra);
    };
    await client.listTools();
    const listed = raw.find((m) => JSON.stringify(m).includes('"tools"')) as { result: { tools: Tool[] } };
    return listed.result.tools;
  } finally {
    await client.close();
    await handle.close();
  }
}

/** The properties of a request item in the tool's input schema. */
function itemProperties(tool: Tool | undefined): Record<string, { description?: string; enum?: string[] }> {
  if (!tool) throw new Error('no tool listed');
  const { requests } = tool.inputSchema.properties as {
    requests: { items: { properties: Record<string, { description?: string; enum?: string[] }> } };
  };
  return requests.items.properties;
}

describe.each(['legacy', 'modern'] as const)('the tool listing on the default chain, in the %s era', (era) => {
  it(`costs a model at most ${MAX_TOOLS_CHARACTERS} characters, every option kept`, async () => {
    expect(engine.providers.map((p) => p.id)).toEqual(['local']);
    const tools = await listedTools(era);
    expect(JSON.stringify(tools).length).toBeLessThanOrEqual(MAX_TOOLS_CHARACTERS);
    const [tool] = tools;
    expect(Object.keys(itemProperties(tool))).toEqual([
      'id',
      'query',
      'count',
      'topic',
      'page',
      'country',
      'search_lang',
      'safesearch',
      'filter_tabloids',
      'freshness',
      'include_domains',
      'exclude_domains',
      'extra_snippets',
    ]);
  });

  it('says in the topic description that the configured chain cannot answer news, from the capability table', async () => {
    const [tool] = await listedTools(era);
    const properties = itemProperties(tool);
    expect(properties.topic?.enum).toEqual(['web', 'news']);
    expect(properties.topic?.description).toMatch(
      /The configured providers cannot answer topic "news": Local index refuses topic "news" \(it holds the documents added to it, no news\)\./,
    );
    // Which member applies each option, as skill info says: the index has no regions.
    expect(properties.country?.description).toMatch(/Not applied by Local index\.$/);
    expect(properties.freshness?.description).toMatch(/Applied by Local index\.$/);
    // A description is said once: none of the schema's nested parts repeats one.
    const descriptions: string[] = [];
    const walk = (node: unknown) => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, child] of Object.entries(node))
        if (key === 'description' && typeof child === 'string') descriptions.push(child);
        else walk(child);
    };
    walk(tool?.inputSchema);
    walk(tool?.outputSchema);
    expect(new Set(descriptions).size).toBe(descriptions.length);
    expect(tool?.outputSchema?.description).toBeUndefined();
  });
});

describe('which provider of a chain applies an option', () => {
  /** The chain `OPENMATES_PROVIDER` lists, as the server reads it (no provider is called). */
  const chainOf = (providers: string) =>
    createConfiguredProviders(
      loadConfig({
        OPENMATES_PROVIDER: providers,
        OPENMATES_INDEX: join(dir, 'index.db'),
        BRAVE_SEARCH_API_KEY: 'test-key',
        SEARXNG_BASE_URL: 'http://127.0.0.1:9',
        OPENAI_API_KEY: 'sk-test',
      }),
    ).map((p) => ({ id: p.id, name: p.name, capabilities: p.capabilities }));

  it('names who applies it, who refuses a value and why, and says so when no member answers it', () => {
    const failover = chainOf('brave,local');
    expect(chainNote('topic', failover)).toBe(
      'Applied by Brave Search. Local index refuses topic "news" (it holds the documents added to it, no news).',
    );
    expect(chainNote('count', failover)).toBe('Applied by Brave Search, Local index.');
    expect(chainNote('country', failover)).toBe('Applied by Brave Search. Not applied by Local index.');
    expect(chainNote('search_lang', chainOf('brave'))).toMatch(
      /^Applied by Brave Search\. Brave Search takes only ar, /,
    );
    const [openai] = chainOf('openai');
    expect(chainNote('freshness', [openai as ChainMember])).toMatch(
      /^The configured providers cannot answer freshness: OpenAI web_search \(.+\) refuses freshness \(its hosted search has no date filter\)\.$/,
    );
  });

  it("gives a member's rule where it applies the option only in some cases, and nothing without a table", () => {
    expect(chainNote('freshness', chainOf('searxng'))).toBe(
      'SearXNG: Honoured for day, week, month and year (SearXNG’s time_range); a date range is refused: SearXNG has no date-range filter.',
    );
    expect(chainNote('topic', [{ id: 'remote', name: 'A bridge' }])).toBe('');
  });
});
