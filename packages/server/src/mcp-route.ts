import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ErrorResponse } from '@openmates/contract';
import { EngineError, errorResponse } from '@openmates/core';
import { createMcpServer, engineBackend } from '@openmates/mcp';
import type { ApiCore } from './api-core.ts';
import { readJsonBody } from './transport.ts';

export interface McpRouteOptions {
  core: ApiCore;
  version: string;
  /** True when the request's `Host` and `Origin` may reach the endpoint (see host-policy.ts). */
  allowHost: (host: string | null, origin: string | null) => boolean;
}

/** A JSON-RPC message's method, or undefined (responses, garbage). */
function methodsOf(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) =>
    m && typeof m === 'object' && typeof (m as { method?: unknown }).method === 'string'
      ? [(m as { method: string }).method]
      : [],
  );
}

/**
 * MCP over Streamable HTTP at `/mcp`, stateless (SPEC §8.3): any replica answers any request, so
 * each POST gets a server and transport of its own. The API's own rules come first, in the core's
 * words: `Host`/`Origin` (403), the API key (401 before any tool runs), the body limit and type
 * (413, 415, 400); only POST reaches here (no server-initiated stream: 405 for GET). Each `tools/call` then counts against the key's rate limit. Throws EngineError
 * for the refusals, which the handler answers as the contract's ErrorResponse.
 */
export function createMcpRoute(options: McpRouteOptions) {
  const { core, version } = options;
  const backend = engineBackend(core.engine);
  const provider = { id: core.engine.provider.id, name: core.engine.provider.name };

  return async (request: Request, lengthEnforced: boolean, remoteAddress: string | undefined): Promise<Response> => {
    if (!options.allowHost(request.headers.get('host'), request.headers.get('origin')))
      throw new EngineError(
        'forbidden',
        'Requests from this origin or host name are not allowed: see OPENMATES_ALLOWED_ORIGINS.',
      );
    const authorization = request.headers.get('authorization');
    core.requireKey(authorization);
    const body = await readJsonBody(request, lengthEnforced);

    const admitCall = async (): Promise<ErrorResponse | undefined> => {
      try {
        await core.admit(authorization, remoteAddress);
        return undefined;
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        return errorResponse(error.code, { message: error.message });
      }
    };
    const server = createMcpServer({ backend, version, provider, admitCall });
    // No session id generator: stateless, so any replica can answer the next request.
    const transport = new WebStandardStreamableHTTPServerTransport({});
    // A client that goes away aborts the searches it started (closing the server aborts its handlers).
    const onAbort = () => void server.close();
    request.signal.addEventListener('abort', onAbort, { once: true });
    await server.connect(transport);
    core.log.debug({ event: 'mcp', methods: methodsOf(body) }, 'mcp request');
    const response = await transport.handleRequest(request, { parsedBody: body });
    if (!response.body) {
      request.signal.removeEventListener('abort', onAbort);
      await server.close();
      return response;
    }
    const release = new TransformStream<Uint8Array, Uint8Array>({
      flush() {
        request.signal.removeEventListener('abort', onAbort);
        void server.close();
      },
    });
    return new Response(response.body.pipeThrough(release), { status: response.status, headers: response.headers });
  };
}
