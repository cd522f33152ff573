import { createMcpHandler, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ErrorResponse } from '@openmates/contract';
import { errorResponse, parseJsonBody } from '@openmates/core';
import { createMcpServer, engineBackend } from '@openmates/mcp';
import { type ApiCore, plainJson } from './api-core.ts';
import type { Operation } from './pipeline.ts';
import { Refusal } from './refusal.ts';

export interface McpRouteOptions {
  core: ApiCore;
  version: string;
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
 * A refusal of `/mcp` as an MCP client reads one: the HTTP status and headers (`WWW-Authenticate`,
 * `Retry-After`, `Allow`) kept, the body a JSON-RPC error object with the contract's ErrorResponse
 * as its `data` (a client's JSON-RPC parser would choke on the REST envelope). A body that is not
 * JSON is a parse error, a server that cannot serve an internal error, anything else (key, origin,
 * size, type, method) a request the endpoint will not take.
 */
export function mcpRefusal(
  refusal: Refusal,
  requestId: string,
  headers: Record<string, string> = {},
  parseFailure = false,
): Response {
  const data = refusal.body(requestId);
  const code = parseFailure
    ? ProtocolErrorCode.ParseError
    : refusal.status >= 500
      ? ProtocolErrorCode.InternalError
      : ProtocolErrorCode.InvalidRequest;
  const body = { jsonrpc: '2.0', id: null, error: { code, message: data.error, data } };
  return plainJson(refusal.status, JSON.stringify(body), { ...refusal.headers, ...headers });
}

/**
 * MCP over Streamable HTTP at `/mcp`, stateless: any replica answers any request, each POST gets a
 * server of its own, in the protocol era the request speaks (2026-07-28 by its `_meta` and headers,
 * or the 2025-11-25 `initialize` handshake). The request path has already applied the API's rules
 * to it (`Host`/`Origin`, the key, the body's limits: the route's entry asks for each); this parses
 * the JSON-RPC and runs it, counting each `tools/call` against the caller's rate limit (the
 * route is metered per call) and nothing else.
 */
export function createMcpOperation(options: McpRouteOptions): Operation {
  const { core, version } = options;
  const backend = engineBackend(core.engine);
  // A caller's key meters its calls (ADR 0136): the backend of a request debits to its key.
  const backends = new WeakMap<Request, ReturnType<typeof engineBackend>>();
  // Each with its capability table: the tool's options say which provider applies them.
  const providers = core.engine.providers.map((p) => ({ id: p.id, name: p.name, capabilities: p.capabilities }));
  const provider = providers[0];
  // The SDK builds the server per request from the request it was handed: what the call needs from
  // the request path (the exchange, whose meter counts the call) is found by that request.
  const admission = new WeakMap<Request, () => Promise<ErrorResponse | undefined>>();
  const handler = createMcpHandler(
    ({ requestInfo }) =>
      createMcpServer({
        backend: (requestInfo && backends.get(requestInfo)) || backend,
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

  return async (exchange) => {
    let body: unknown;
    try {
      body = parseJsonBody(exchange.body);
    } catch (error) {
      const refusal = Refusal.of(error);
      if (!refusal) throw error;
      return mcpRefusal(refusal, exchange.requestId, exchange.headers, true);
    }
    // The SDK's transport takes the request itself, its body already read and parsed.
    const request = exchange.request;
    backends.set(request, engineBackend(core.engine, { meter: core.quotas.meter(exchange.caller) }));
    admission.set(request, async () => {
      try {
        await exchange.meter();
        return undefined;
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        return errorResponse(error.code, { message: error.message });
      }
    });
    core.log.debug({ event: 'mcp', methods: methodsOf(body) }, 'mcp request');
    return handler.fetch(request, { parsedBody: body });
  };
}
