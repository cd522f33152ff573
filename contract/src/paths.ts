/** The HTTP paths of the API (SPEC §4). Servers, clients and docs import these. */
export const PATHS = {
  /** POST: run a batch of searches. GET: skill info. */
  search: '/v1/apps/web/skills/search',
  openapi: '/v1/openapi.json',
  docs: '/docs',
  /** Liveness: the process answers. */
  health: '/healthz',
  /** POST: MCP over Streamable HTTP, stateless (SPEC §8.3). */
  mcp: '/mcp',
  /** Readiness: the provider is configured, the local index built, and the server is not draining. */
  ready: '/readyz',
  /** Prometheus text format (behind the API keys when they are configured). */
  metrics: '/metrics',
  /** tRPC endpoint prefix; the search procedure lives at `${trpc}/${TRPC_SEARCH_PROCEDURE}`. */
  trpc: '/trpc',
} as const;

/** The tRPC procedure path of the search mutation. */
export const TRPC_SEARCH_PROCEDURE = 'webSearch.search';

/** Default origin of a local server (`openmates serve`). */
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8787;
export const DEFAULT_BASE_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;
