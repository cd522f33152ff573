import type { ErrorCode } from './errors.ts';
import { MAX_BATCH_ITEMS } from './limits.ts';
import { UsageSchema } from './quota.ts';
import { WebSearchRequestSchema } from './request-schema-values.ts';
import { WebSearchResponseSchema } from './response-schemas.ts';
import { HealthSchema, ReadinessSchema, SkillInfoSchema } from './skill-info.ts';
import { EVENT_STREAM_MEDIA_TYPE, SearchStreamEventSchema } from './stream-schemas.ts';
import { z } from './zod.ts';

/**
 * Every HTTP route of the API, declared once as data: the server dispatches from this table, the
 * OpenAPI document registers its paths from it, the GUI and the SDKs take their paths from it.
 */

/** The methods a route declares; HEAD is answered wherever GET is (without a body). */
export type RouteMethod = 'GET' | 'POST';

/** A response header as the OpenAPI document describes it (a type, not an interface: it is indexable as OpenAPI's). */
export type RouteHeader = {
  description: string;
  schema: { type: 'integer' | 'string' };
};

/** An answer carrying the contract's ErrorResponse for one error code. */
export interface ErrorAnswer {
  error: ErrorCode;
  /** Said after the code's message in the document (starts with a space). */
  note?: string;
  headers?: Record<string, RouteHeader>;
}

/** Any other answer: its description and its body's schema by media type (none: no body). */
export interface BodyAnswer {
  description: string;
  content?: Readonly<Record<string, z.ZodType>>;
  headers?: Record<string, RouteHeader>;
}

export type RouteAnswer = ErrorAnswer | BodyAnswer;

/** How a route meets the rate limit (see `RouteDefinition.metering`). */
export type Metering = 'request' | 'call' | 'peek' | 'none';

/**
 * The refusals a request meets before it is counted: a server checks the `Host` and `Origin`, the
 * body's limits and the key first, so these answers of a metered route carry no rate-limit state.
 */
export const REFUSED_BEFORE_COUNTING = [
  'forbidden',
  'payload_too_large',
  'unsupported_media_type',
  'unauthorized',
] as const satisfies readonly ErrorCode[];

/** True for an answer of a metered route that carries the caller's rate-limit state. */
export function carriesRateLimit(answer: RouteAnswer): boolean {
  return !('error' in answer && (REFUSED_BEFORE_COUNTING as readonly ErrorCode[]).includes(answer.error));
}

/** True when the route's answers count against the rate limit (and so carry the caller's state). */
export function isMetered(route: Pick<RouteDefinition, 'metering'>): boolean {
  return route.metering === 'request' || route.metering === 'call';
}

export interface RouteDefinition {
  /** The operation's name: the OpenAPI operationId, the SDKs' name for the call. */
  operation: string;
  method: RouteMethod;
  /** The path the route is documented and called at. */
  path: string;
  /**
   * The route also owns every path under this one (`prefix` itself and `${prefix}/…`); its handler
   * answers the ones it does not know (404). Without it, only `path` matches.
   */
  prefix?: string;
  /** Every method reaches the route's operation (the GUI's pages take form posts too); otherwise a 405. */
  anyMethod?: boolean;
  /**
   * The same method and path as operation `of`, chosen by the request's `Accept` naming `accept`
   * first: documented inside that operation (its answers merged into `of`'s), never dispatched on
   * its own.
   */
  variant?: { of: string; accept: string };
  /** Needs a valid API key when the server is started with keys (`OPENMATES_API_KEYS`); public otherwise. */
  needsKey: boolean;
  /**
   * How the route meets the per-key (or per-address) rate limit: `request`, each request counts
   * once, after its key; `call`, each metered call inside the request counts (an MCP `tools/call`,
   * not its handshake or listings); `peek`, the caller's state is read without counting; `none`.
   */
  metering: Metering;
  /**
   * The route is reachable from browsers without CORS's protection (JSON-RPC over POST): its `Host`
   * and `Origin` are checked against the bound names and the allowed origins (403 otherwise).
   */
  guardsHost?: true;
  /** The surface the route belongs to; it also picks how a refusal is worded (tRPC's envelope, JSON-RPC, JSON). */
  tag: 'web' | 'trpc' | 'mcp' | 'meta' | 'gui';
  summary: string;
  description: string;
  /** The JSON request body, when the route takes one. */
  request?: { body: z.ZodType };
  /** The answers by HTTP status. */
  responses: Readonly<Record<number, RouteAnswer>>;
}

/** The API's versioned namespace: every path under it is the API's, known or not (an unknown one is a 404). */
export const API_NAMESPACE = '/v1';

/** The tRPC procedure path of the search mutation. */
export const TRPC_SEARCH_PROCEDURE = 'webSearch.search';

const SEARCH = `${API_NAMESPACE}/apps/web/skills/search` as const;
const TRPC = '/trpc';

// Public routes answer without a key whatever the server's settings (ADR 0026); their one
// refusal is a method other than GET or HEAD.
const NOT_ALLOWED = { 405: { error: 'method_not_allowed' } } as const;

const JSON_RPC_MESSAGE = z.object({ jsonrpc: z.literal('2.0') }).passthrough();

/** Every route of the API, by operation name, in the order the OpenAPI document lists them. */
export const ROUTE_TABLE = {
  search: {
    operation: 'search',
    method: 'POST',
    path: SEARCH,
    needsKey: true,
    metering: 'request',
    tag: 'web',
    summary: `Search the web: a batch of 1 to ${MAX_BATCH_ITEMS} queries`,
    description:
      'Runs every query of the batch concurrently at the configured provider and answers one result group per query, in request order, under its id. Results are sanitized plain text with normalized URLs; a query the provider failed carries its own `error` while the others keep their results.',
    request: { body: WebSearchRequestSchema },
    responses: {
      200: {
        description:
          'Every group succeeded, or at least one did. Failed groups carry `error`; the response-level `error` names them.',
        content: { 'application/json': WebSearchResponseSchema },
      },
      400: { error: 'invalid_request', note: ' `issues` lists every problem with its path.' },
      401: { error: 'unauthorized' },
      413: { error: 'payload_too_large' },
      415: { error: 'unsupported_media_type' },
      429: {
        error: 'rate_limited',
        note: " Or `quota_exceeded`: the key's quota is spent until its window (the UTC day or month) ends; `RateLimit-Policy` names the quota.",
        headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
      },
      500: { error: 'internal_error' },
      502: {
        description:
          "Every group failed at the provider. The body is a full WebSearchResponse with each group's `error` set.",
        content: { 'application/json': WebSearchResponseSchema },
      },
      503: { error: 'not_configured' },
    },
  },
  searchStream: {
    operation: 'searchStream',
    method: 'POST',
    path: SEARCH,
    variant: { of: 'search', accept: EVENT_STREAM_MEDIA_TYPE },
    needsKey: true,
    metering: 'request',
    tag: 'web',
    summary: 'The same search as a stream of events, each group as its query finishes',
    description:
      'The search with `Accept` preferring `text/event-stream` explicitly: `*/*` and `text/*` alone get JSON. A request refused before the search starts (400, 401, 413, 415, 429, 503) is answered as JSON as usual.',
    request: { body: WebSearchRequestSchema },
    responses: {
      200: {
        description:
          'With `Accept` preferring `text/event-stream` explicitly, every accepted request answers 200 with a stream of events (`Cache-Control: no-store`, `X-Accel-Buffering: no`): a `group` per query as it finishes, then one `done` (the WebSearchResponse, whatever its JSON status would be) or one `error`; comment lines keep the connection alive.',
        content: { [EVENT_STREAM_MEDIA_TYPE]: SearchStreamEventSchema },
      },
    },
  },
  skillInfo: {
    operation: 'skillInfo',
    method: 'GET',
    path: SEARCH,
    needsKey: true,
    // A client (the GUI's key prompt) checks a key and its state without spending a search.
    metering: 'peek',
    tag: 'web',
    summary: 'Skill info: limits, provider, honoured options, fingerprint and assertion ids',
    description:
      'What this server offers before any search is spent: the provider and where queries go, the limits, the options the provider honours and refuses, the contract fingerprint and the assertion ids. Needs the API key when keys are configured; never rate limited.',
    responses: {
      200: { description: 'Skill info.', content: { 'application/json': SkillInfoSchema } },
      401: { error: 'unauthorized' },
    },
  },
  usage: {
    operation: 'usage',
    method: 'GET',
    path: `${API_NAMESPACE}/usage`,
    needsKey: true,
    // Reading what was spent spends nothing.
    metering: 'none',
    tag: 'web',
    summary: "The calling key's usage today and this month, and what is left of its quotas",
    description:
      "Provider calls, billed units and estimated cost of the calling key in the current UTC day and UTC month, in total and per provider, and what is left of each quota the key has (`OPENMATES_API_KEYS_FILE`). Only the calling key's own usage is ever shown. Cache hits and shared calls count nothing.",
    responses: {
      200: { description: "The key's usage.", content: { 'application/json': UsageSchema } },
      401: { error: 'unauthorized' },
      ...NOT_ALLOWED,
    },
  },
  trpcSearch: {
    operation: 'trpcSearch',
    method: 'POST',
    path: `${TRPC}/${TRPC_SEARCH_PROCEDURE}`,
    prefix: TRPC,
    needsKey: true,
    metering: 'request',
    tag: 'trpc',
    summary: 'The same search as a tRPC mutation (no batching)',
    description:
      "tRPC v11 over HTTP: the body is the WebSearchRequest; success answers `{ result: { data: WebSearchResponse } }`, failure `{ error: { message, code, data } }` where `data` carries the contract's `{ error, code, issues }`.",
    request: { body: WebSearchRequestSchema },
    responses: {
      200: {
        description: 'tRPC result envelope.',
        content: { 'application/json': z.object({ result: z.object({ data: WebSearchResponseSchema }) }) },
      },
      400: { description: 'tRPC error envelope carrying the contract error.' },
    },
  },
  mcp: {
    operation: 'mcp',
    method: 'POST',
    path: '/mcp',
    needsKey: true,
    metering: 'call',
    guardsHost: true,
    tag: 'mcp',
    summary: 'MCP over Streamable HTTP: the web_search tool for AI agents',
    description:
      'The Model Context Protocol over its Streamable HTTP transport, stateless (no session id; any replica answers). The body is a JSON-RPC 2.0 message or a batch; the answer is JSON-RPC, as JSON or as an event stream (`Accept` must list both `application/json` and `text/event-stream`). One tool, `web_search`: input WebSearchRequest, output WebSearchResponse, or the ErrorResponse of a refused call with `isError`. The key, the body limit and the per-key rate limit (each `tools/call`) hold as for the search; an `Origin` or `Host` other than the bound names and `OPENMATES_ALLOWED_ORIGINS` is refused. GET and DELETE answer 405.',
    request: {
      body: JSON_RPC_MESSAGE.openapi({
        description: 'A JSON-RPC 2.0 message of the MCP protocol (a batch is an array of them).',
      }),
    },
    responses: {
      200: {
        description: 'The JSON-RPC answer, as JSON or as an event stream whose events carry JSON-RPC messages.',
        content: { 'application/json': JSON_RPC_MESSAGE, [EVENT_STREAM_MEDIA_TYPE]: z.string() },
      },
      202: { description: 'Accepted: the body held only notifications or responses.' },
      400: { error: 'invalid_request', note: ' The body is not JSON.' },
      401: { error: 'unauthorized' },
      403: { error: 'forbidden' },
      413: { error: 'payload_too_large' },
      415: { error: 'unsupported_media_type' },
    },
  },
  openapi: {
    operation: 'openapi',
    method: 'GET',
    path: `${API_NAMESPACE}/openapi.json`,
    needsKey: false,
    metering: 'none',
    tag: 'meta',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 document of this API, exactly as committed in `contract/openapi.json`. Public.',
    responses: {
      200: { description: 'The OpenAPI 3.1 document.', content: { 'application/json': z.object({}).passthrough() } },
      ...NOT_ALLOWED,
    },
  },
  docs: {
    operation: 'docs',
    method: 'GET',
    path: '/docs',
    // The page's own assets live under it.
    prefix: '/docs',
    needsKey: false,
    metering: 'none',
    tag: 'meta',
    summary: 'API reference page rendered from this document',
    description: 'One HTML page rendered from this document: no script, nothing fetched elsewhere. Public.',
    responses: {
      200: { description: 'HTML page.', content: { 'text/html': z.string() } },
      ...NOT_ALLOWED,
    },
  },
  health: {
    operation: 'health',
    method: 'GET',
    path: '/healthz',
    needsKey: false,
    metering: 'none',
    tag: 'meta',
    summary: 'Liveness check',
    description:
      'Answers while the process serves requests, with the configured provider id; it does not call the provider. Public.',
    responses: {
      200: { description: 'The server is up.', content: { 'application/json': HealthSchema } },
      ...NOT_ALLOWED,
    },
  },
  readiness: {
    operation: 'readiness',
    method: 'GET',
    path: '/readyz',
    needsKey: false,
    metering: 'none',
    tag: 'meta',
    summary: 'Readiness check: never calls a paid provider, does not depend on Redis',
    description:
      'Answers 200 once the provider is configured and prepared (the local index opened and its demo corpus built), 503 before that and from the moment the server drains; a load balancer stops sending new work on 503. Public.',
    responses: {
      200: { description: 'The server takes searches.', content: { 'application/json': ReadinessSchema } },
      ...NOT_ALLOWED,
      503: {
        error: 'not_configured',
        note: ' Also answered while the local index is being built at start, and from the moment the server is told to stop (SIGTERM).',
      },
    },
  },
  metrics: {
    operation: 'metrics',
    method: 'GET',
    path: '/metrics',
    needsKey: true,
    metering: 'none',
    tag: 'meta',
    summary: 'Prometheus metrics (text exposition format)',
    description:
      'Counters and histograms of requests, search groups, provider calls, the cache and the rate limit, plus process metrics. Labels never hold query text, keys or addresses. Not counted against the search rate limit.',
    responses: {
      200: {
        description: 'The metrics in the Prometheus text format, version 0.0.4.',
        content: { 'text/plain': z.string() },
      },
      401: { error: 'unauthorized' },
    },
  },
} as const satisfies Record<string, RouteDefinition>;

export type OperationName = keyof typeof ROUTE_TABLE;

/**
 * The GUI's pages and files on the origin it shares with the API: what a server that mounts the GUI
 * answers for every path the route table does not own. Not a route of the API (the OpenAPI document
 * leaves it out): public, never metered, without CORS (a page's own paths are not the API's).
 */
export const GUI_ROUTE = {
  operation: 'gui',
  method: 'GET',
  path: '/',
  anyMethod: true,
  needsKey: false,
  metering: 'none',
  tag: 'gui',
  summary: 'The web GUI',
  description: "The GUI's pages, forms and static files (SvelteKit), mounted beside the API.",
  responses: { 200: { description: 'A page or file of the GUI.' } },
} as const satisfies RouteDefinition;

/** Every route, in table order. */
export const ROUTES: readonly RouteDefinition[] = Object.values(ROUTE_TABLE);

/** The methods a request may name: what a route declares, and HEAD wherever GET is. */
export function allowedMethods(routes: readonly RouteDefinition[]): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
  }
  return [...methods].sort();
}

/** The outcome of a route lookup: the route that answers, or only the methods the path allows (405). */
export interface RouteMatch {
  /** The route that answers; absent when the path is the API's but the method is not (405). */
  route?: RouteDefinition;
  /** The path's methods, for the `Allow` header of a 405. */
  allow: readonly string[];
  /**
   * The route's template for logs and metrics: its path, a prefix's own path (with `/*` when its
   * route is documented at a path under it, like tRPC's procedures). Never the raw path, which
   * could carry text a caller typed.
   */
  template: string;
  /** The surface of the path's routes: how a 405 there is worded (JSON-RPC on the MCP endpoint). */
  tag: RouteDefinition['tag'];
}

/** A route table made into lookups, once: what the server resolves each request with. */
export interface Router {
  /**
   * What answers a method and path: `undefined` when no route owns the path; a match with `route`;
   * or one without (the path is the table's, the method is not: 405 with `allow`). HEAD finds the
   * GET route. Variants are not dispatched on their own: the search route picks its event stream
   * from `Accept`. The answers are shared objects, built with the router.
   */
  match(method: string, pathname: string): RouteMatch | undefined;
  /**
   * True for the paths the API owns on an origin it shares with the GUI: every route's path and
   * prefix, and all of the versioned namespace (where an unknown path is the API's 404).
   */
  owns(pathname: string): boolean;
}

/** The routes that answer one path (or one prefix), their answers by method, and their 405. */
interface PathEntry {
  byMethod: Map<string, RouteMatch>;
  /** The route taking every method, when there is one. */
  any?: RouteMatch;
  refused: RouteMatch;
}

/** The template of lookups that fall to no route (a 404): one label however many paths are scanned. */
export const UNMATCHED_TEMPLATE = 'other';

function pathEntry(routes: readonly RouteDefinition[], prefix: string | undefined): PathEntry {
  const allow = allowedMethods(routes);
  const template =
    prefix === undefined ? (routes[0]?.path ?? '') : routes.every((r) => r.path === prefix) ? prefix : `${prefix}/*`;
  const tag = routes[0]?.tag ?? 'web';
  const byMethod = new Map<string, RouteMatch>();
  let any: RouteMatch | undefined;
  for (const route of routes) {
    const match: RouteMatch = Object.freeze({ route, allow, template, tag });
    if (route.anyMethod) any ??= match;
    if (!byMethod.has(route.method)) byMethod.set(route.method, match);
    if (route.method === 'GET' && !byMethod.has('HEAD')) byMethod.set('HEAD', match);
  }
  return { byMethod, ...(any ? { any } : {}), refused: Object.freeze({ allow, template, tag }) };
}

/**
 * Builds the lookups of a route table (the contract's, or a copy with more routes). With `pages`
 * (a server mounting the GUI: `GUI_ROUTE`), every path the table does not own matches that route.
 */
export function createRouter(
  table: Readonly<Record<string, RouteDefinition>>,
  options: { pages?: RouteDefinition } = {},
): Router {
  const exact = new Map<string, RouteDefinition[]>();
  const prefixed = new Map<string, RouteDefinition[]>();
  for (const route of Object.values(table)) {
    if (route.variant) continue;
    const [map, path] = route.prefix === undefined ? [exact, route.path] : [prefixed, route.prefix];
    map.set(path, [...(map.get(path) ?? []), route]);
  }
  const exactEntries = new Map([...exact].map(([path, routes]) => [path, pathEntry(routes, undefined)]));
  const prefixEntries = [...prefixed].map(([prefix, routes]) => [prefix, pathEntry(routes, prefix)] as const);
  const owner = (pathname: string): PathEntry | undefined => {
    const entry = exactEntries.get(pathname);
    if (entry) return entry;
    for (const [prefix, candidate] of prefixEntries)
      if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return candidate;
    return undefined;
  };
  const owns = (pathname: string) => pathname.startsWith(`${API_NAMESPACE}/`) || owner(pathname) !== undefined;
  const { pages } = options;
  const page: RouteMatch | undefined = pages
    ? Object.freeze({ route: pages, allow: allowedMethods([pages]), template: `${pages.path}*`, tag: pages.tag })
    : undefined;
  return {
    match(method, pathname) {
      const entry = owner(pathname);
      if (entry === undefined) return page && !owns(pathname) ? page : undefined;
      return entry.any ?? entry.byMethod.get(method) ?? entry.refused;
    },
    owns,
  };
}

/** The contract's own table, as lookups. */
export const ROUTER: Router = createRouter(ROUTE_TABLE);

/** `ROUTER.match`: what answers a method and path in the contract's table. */
export function matchRoute(method: string, pathname: string): RouteMatch | undefined {
  return ROUTER.match(method, pathname);
}

/** `ROUTER.owns`: true for the paths the API owns on an origin it shares with the GUI. */
export function isApiPath(pathname: string): boolean {
  return ROUTER.owns(pathname);
}

/** The route template of a path for logs and metrics (`RouteMatch.template`), `other` for no route. */
export function routeTemplate(pathname: string): string {
  return ROUTER.match('GET', pathname)?.template ?? UNMATCHED_TEMPLATE;
}
