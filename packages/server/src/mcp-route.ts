import { createMcpHandler, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ErrorResponse } from '@openmates/contract';
import { EngineError, errorResponse, parseJsonBody } from '@openmates/core';
import { createMcpServer, engineBackend } from '@openmates/mcp';
import type { ApiCore, PlainResponse } from './api-core.ts';
import { readBodyText } from './transport.ts';

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
 * The JSON-RPC error code of a refusal the HTTP layer answers before any MCP message is read: a
 * body that is not JSON is a parse error, a server that cannot serve an internal error, anything
 * else (key, origin, size, type, method) a request the endpoint will not take.
 */
function rpcCode(status: number, parseFailure: boolean): number {
  if (parseFailure) return ProtocolErrorCode.ParseError;
  return status >= 500 ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidRequest;
}

/**
 * A refusal of `/mcp` as an MCP client reads one: the HTTP status and headers (`WWW-Authenticate`,
 * `Retry-After`, `Allow`) kept, the body a JSON-RPC error object with the contract's ErrorResponse
 * as its `data` (a client's JSON-RPC parser would choke on the REST envelope).
 */
export function mcpErrorResponse(plain: PlainResponse, parseFailure = false): Response {
  let data: ErrorResponse | undefined;
  if (typeof plain.body === 'string') {
    try {
      data = JSON.parse(plain.body) as ErrorResponse;
    } catch {
      data = undefined;
    }
  }
  const message = data?.error ?? 'The request was refused.';
  const body = {
    jsonrpc: '2.0',
    id: null,
    error: { code: rpcCode(plain.status, parseFailure), message, ...(data ? { data } : {}) },
  };
  return new Response(JSON.stringify(body), {
    status: plain.status,
    headers: { ...plain.headers, 'content-type': 'application/json; charset=utf-8' },
  });
}

/**
 * MCP over Streamable HTTP at `/mcp`, stateless: any replica answers any request, each POST gets a
 * server of its own, in the protocol era the request speaks (2026-07-28 by its `_meta` and headers,
 * or the 2025-11-25 `initialize` handshake). The API's own rules come first, in the core's words:
 * `Host`/`Origin` (403), the API key (401 before any tool runs), the body limit and type (413, 415,
 * 400); only POST reaches here (no server-initiated stream: 405 for GET). Each `tools/call` then
 * counts against the key's rate limit. Every refusal is a JSON-RPC error object (`mcpErrorResponse`).
 */
export function createMcpRoute(options: McpRouteOptions) {
  const { core, version } = options;
  const backend = engineBackend(core.engine);
  const provider = { id: core.engine.provider.id, name: core.engine.provider.name };
  const providers = core.engine.providers.map((p) => ({ id: p.id, name: p.name }));
  // The SDK builds the server per request from the request it was handed: what the call needs from
  // the HTTP layer (the key and address the rate limit counts) is found by that request.
  const admission = new WeakMap<Request, () => Promise<ErrorResponse | undefined>>();
  const handler = createMcpHandler(
    ({ requestInfo }) =>
      createMcpServer({
        backend,
        version,
        provider,
        providers,
        admitCall: requestInfo ? admission.get(requestInfo) : undefined,
      }),
    {
      legacy: 'stateless',
      onerror: (error) => core.log.debug({ event: 'mcp', error_name: error.name }, 'mcp transport error'),
    },
  );

  return async (
    request: Request,
    lengthEnforced: boolean,
    remoteAddress: string | undefined,
    requestId: string,
  ): Promise<Response> => {
    let parsing = false;
    let body: unknown;
    const authorization = request.headers.get('authorization');
    try {
      if (!options.allowHost(request.headers.get('host'), request.headers.get('origin')))
        throw new EngineError(
          'forbidden',
          'Requests from this origin or host name are not allowed: see OPENMATES_ALLOWED_ORIGINS.',
        );
      core.requireKey(authorization);
      const text = await readBodyText(request, lengthEnforced);
      parsing = true;
      body = parseJsonBody(text);
    } catch (error) {
      return mcpErrorResponse(core.failure(error, requestId, request.signal.aborted), parsing);
    }

    // The rate-limit headers of the calls this request counted (the last one's state).
    let counted: Record<string, string> = {};
    admission.set(request, async () => {
      try {
        counted = await core.admit(authorization, remoteAddress);
        return undefined;
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        counted = { ...counted, ...(error as EngineError & { rateLimit?: Record<string, string> }).rateLimit };
        return errorResponse(error.code, { message: error.message });
      }
    });
    core.log.debug({ event: 'mcp', methods: methodsOf(body) }, 'mcp request');
    const answer = await handler.fetch(request, { parsedBody: body });
    if (Object.keys(counted).length === 0) return answer;
    const headers = new Headers(answer.headers);
    for (const [name, value] of Object.entries(counted)) headers.set(name, value);
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
  };
}
