import { ROUTE_TABLE } from './routes.ts';

/**
 * The HTTP paths of the API by short name, read from the route table (`routes.ts`), where each is
 * declared: servers, clients and docs import these.
 */
export const PATHS = {
  /** POST: run a batch of searches. GET: skill info. */
  search: ROUTE_TABLE.search.path,
  openapi: ROUTE_TABLE.openapi.path,
  docs: ROUTE_TABLE.docs.path,
  /** Liveness: the process answers. */
  health: ROUTE_TABLE.health.path,
  /** POST: MCP over Streamable HTTP, stateless. */
  mcp: ROUTE_TABLE.mcp.path,
  /** Readiness: the provider is configured, the local index built, and the server is not draining. */
  ready: ROUTE_TABLE.readiness.path,
  /** Prometheus text format (behind the API keys when they are configured). */
  metrics: ROUTE_TABLE.metrics.path,
  /** tRPC endpoint prefix; the search procedure lives at `${trpc}/${TRPC_SEARCH_PROCEDURE}`. */
  trpc: ROUTE_TABLE.trpcSearch.prefix,
} as const;

/** Default origin of a local server (`openmates serve`). */
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8787;
export const DEFAULT_BASE_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;
