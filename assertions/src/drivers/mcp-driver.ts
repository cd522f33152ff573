import { fileURLToPath } from 'node:url';
import {
  type CallToolResult,
  Client,
  fromJsonSchema,
  type JsonSchemaType,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ErrorResponseSchema, PATHS, WebSearchResponseSchema } from '@openmates/contract';
import type { CaseEnvironment, DriverResult, ParityCase, ProgressReport, Surface, SurfaceDriver } from '../case.ts';
import { outcomeOfError, outcomeOfResponse } from '../outcome.ts';
import { startCaseServer } from './case-engine.ts';

const BIN = fileURLToPath(new URL('../../../packages/cli/bin/run.js', import.meta.url));
/** The key the HTTP column's server requires and its client sends (the MCP endpoint takes the API's own keys). */
const MCP_HTTP_KEY = 'parity-mcp-http-key-0123456789';

/**
 * The protocol era a column's client speaks: the 2025-11-25 `initialize` handshake, or the
 * stateless 2026-07-28 revision (`server/discover`, then per-request `_meta`), pinned so a server
 * that does not offer it fails the column instead of falling back.
 */
export type McpEra = 'legacy' | 'modern';

/** An MCP client's arguments are a JSON object: a case whose request is anything else has no tool call. */
export function expressible(testCase: ParityCase): boolean {
  const { request } = testCase;
  return testCase.http === undefined && request !== null && typeof request === 'object' && !Array.isArray(request);
}

/** A client connected over `transport` in `era`, which fails when the server does not speak it. */
export async function connectMcp(transport: Transport, era: McpEra): Promise<Client> {
  const client = new Client(
    { name: 'parity', version: '0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  if (client.getProtocolEra() !== era) throw new Error(`mcp: connected in the ${client.getProtocolEra()} era`);
  return client;
}

/** `openmates mcp` as an MCP client spawns it, with only the case's environment; and what it wrote to stderr. */
export function spawnMcpStdio(environment: CaseEnvironment): { transport: Transport; stderr: () => string } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    // Only the case's environment and what Node needs: no provider key leaks in from the parent.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...environment.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return { transport, stderr: () => stderr };
}

/** `/mcp` of a real server (`openmates serve`'s handler) requiring an API key, with the case's environment. */
export async function startMcpHttp(
  environment: CaseEnvironment,
): Promise<{ transport: Transport; logs: () => string; close(): Promise<void> }> {
  const server = await startCaseServer({ ...environment.env, OPENMATES_API_KEYS: MCP_HTTP_KEY });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}${PATHS.mcp}`), {
    requestInit: { headers: { authorization: `Bearer ${MCP_HTTP_KEY}` } },
  });
  return { transport, logs: () => server.logs.join(''), close: () => server.close() };
}

/** Calls `web_search` with the case's request as the raw arguments and reduces the tool result. */
async function callTool(
  testCase: ParityCase,
  era: McpEra,
  transport: Transport,
  logs: () => string,
): Promise<DriverResult> {
  const client = await connectMcp(transport, era);
  try {
    const { tools } = await client.listTools();
    const outputSchema = tools.find((tool) => tool.name === 'web_search')?.outputSchema;
    if (!outputSchema) throw new Error('mcp: web_search is not listed with an output schema');
    // With a token, the client hands each progress notification of the call to `onprogress` until
    // the result arrives (it stops listening then), so what is recorded came before the result.
    const progress: ProgressReport[] = [];
    const onprogress = (p: { progress: number; total?: number | undefined; message?: string | undefined }) => {
      progress.push({
        progress: p.progress,
        ...(p.total !== undefined ? { total: p.total } : {}),
        ...(p.message !== undefined ? { message: p.message } : {}),
      });
    };
    const result = (await client.callTool(
      { name: 'web_search', arguments: testCase.request as Record<string, unknown> },
      testCase.progress?.token ? { onprogress } : {},
    )) as CallToolResult;
    const document = result.structuredContent;
    // The listed output schema holds every answer, a refusal's too (ADR 0028, 0119).
    const checked = await fromJsonSchema(outputSchema as JsonSchemaType)['~standard'].validate(document);
    if (checked.issues)
      throw new Error(
        `mcp: the structured content does not match the listed output schema: ${JSON.stringify(checked.issues)}`,
      );
    const isResponse =
      document !== undefined && document !== null && typeof document === 'object' && 'results' in document;
    const response = isResponse ? WebSearchResponseSchema.parse(document) : undefined;
    const error = isResponse ? undefined : ErrorResponseSchema.parse(document);
    // A refusal, and a batch whose every group failed, are tool errors; nothing else is (ADR 0030).
    const allFailed = response !== undefined && response.results.length > 0 && response.results.every((g) => g.error);
    if ((result.isError === true) !== (error !== undefined || allFailed))
      throw new Error(`mcp: isError is ${result.isError} for ${error ? 'a refusal' : 'a search'}`);
    return {
      outcome: response ? outcomeOfResponse(response) : outcomeOfError(error ?? { code: 'internal_error' }),
      document,
      transcript: JSON.stringify(result) + JSON.stringify(progress) + logs(),
      ...(testCase.progress ? { progress } : {}),
    };
  } finally {
    await client.close();
  }
}

/** `openmates mcp` over stdio, spawned per case by an MCP client as an agent host would. */
export function createMcpDriver(era: McpEra = 'legacy'): SurfaceDriver {
  return {
    surface: (era === 'legacy' ? 'mcp' : 'mcp-2026') satisfies Surface,
    supports: expressible,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const { transport, stderr } = spawnMcpStdio(environment);
      return callTool(testCase, era, transport, stderr);
    },
  };
}

/** MCP over Streamable HTTP at `/mcp` of a real server requiring an API key. */
export function createMcpHttpDriver(era: McpEra = 'legacy'): SurfaceDriver {
  return {
    surface: (era === 'legacy' ? 'mcp-http' : 'mcp-http-2026') satisfies Surface,
    supports: expressible,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const server = await startMcpHttp(environment);
      try {
        return await callTool(testCase, era, server.transport, server.logs);
      } finally {
        await server.close();
      }
    },
  };
}
