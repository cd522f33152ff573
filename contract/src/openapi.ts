import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ERROR_TABLE } from './errors.ts';
import { REQUEST_FIELDS, type RequestFields } from './fields.ts';
import { MAX_BATCH_ITEMS } from './limits.ts';
import { PATHS, TRPC_SEARCH_PROCEDURE } from './paths.ts';
import {
  buildItemSchema,
  buildRequestSchema,
  WebSearchRequestItemSchema,
  WebSearchRequestSchema,
} from './request-schemas.ts';
import {
  ErrorResponseSchema,
  ResultGroupSchema,
  WebSearchResponseSchema,
  WebSearchResultSchema,
} from './response-schemas.ts';
import { HealthSchema, ReadinessSchema, SkillInfoSchema } from './skill-info.ts';
import {
  EVENT_STREAM_MEDIA_TYPE,
  SearchStreamDoneEventSchema,
  SearchStreamErrorEventSchema,
  SearchStreamEventSchema,
  SearchStreamGroupEventSchema,
} from './stream-schemas.ts';
import { z } from './zod.ts';

/** The OpenAPI document as plain JSON data. */
export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, unknown> };

const CONTRACT_VERSION = '1.0.0';

function errorResponse(code: keyof typeof ERROR_TABLE, extra = '') {
  return {
    description: `${ERROR_TABLE[code].message}${extra}`,
    content: { 'application/json': { schema: ErrorResponseSchema } },
  };
}

/**
 * Builds the OpenAPI 3.1 document from the contract's schemas, with every HTTP path registered.
 * `fields`: the request-field table the request schemas are built from (default the contract's).
 */
export function buildOpenApiDocument(fields: RequestFields = REQUEST_FIELDS): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  const ownFields = fields === REQUEST_FIELDS;
  const WebSearchRequestItem = ownFields ? WebSearchRequestItemSchema : buildItemSchema(fields);
  const WebSearchRequest = ownFields ? WebSearchRequestSchema : buildRequestSchema(WebSearchRequestItem);
  for (const [name, schema] of [
    ['WebSearchRequestItem', WebSearchRequestItem],
    ['WebSearchRequest', WebSearchRequest],
    ['WebSearchResult', WebSearchResultSchema],
    ['ResultGroup', ResultGroupSchema],
    ['WebSearchResponse', WebSearchResponseSchema],
    ['ErrorResponse', ErrorResponseSchema],
    ['SearchStreamGroupEvent', SearchStreamGroupEventSchema],
    ['SearchStreamDoneEvent', SearchStreamDoneEventSchema],
    ['SearchStreamErrorEvent', SearchStreamErrorEventSchema],
    ['SearchStreamEvent', SearchStreamEventSchema],
  ] as const)
    registry.register(name, schema);
  const bearer = registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Required when the server is started with OPENMATES_API_KEYS.',
  });
  const security = [{ [bearer.name]: [] }, {}];
  // Public routes answer without a key whatever the server's settings (docs/decisions.md); their one
  // refusal is a method other than GET or HEAD.
  const notAllowed = { 405: errorResponse('method_not_allowed') };
  const searchResponses = {
    200: {
      description:
        'Every group succeeded, or at least one did. Failed groups carry `error`; the response-level `error` names them. With `Accept` preferring `text/event-stream` explicitly, every accepted request answers 200 with a stream of events (`Cache-Control: no-store`, `X-Accel-Buffering: no`): a `group` per query as it finishes, then one `done` (the WebSearchResponse, whatever its JSON status would be) or one `error`; comment lines keep the connection alive.',
      content: {
        'application/json': { schema: WebSearchResponseSchema },
        [EVENT_STREAM_MEDIA_TYPE]: { schema: SearchStreamEventSchema },
      },
    },
    400: errorResponse('invalid_request', ' `issues` lists every problem with its path.'),
    401: errorResponse('unauthorized'),
    413: errorResponse('payload_too_large'),
    415: errorResponse('unsupported_media_type'),
    429: {
      ...errorResponse('rate_limited'),
      headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
    },
    500: errorResponse('internal_error'),
    502: {
      description:
        "Every group failed at the provider. The body is a full WebSearchResponse with each group's `error` set.",
      content: { 'application/json': { schema: WebSearchResponseSchema } },
    },
    503: errorResponse('not_configured'),
  } as const;

  registry.registerPath({
    method: 'post',
    path: PATHS.search,
    operationId: 'search',
    summary: `Search the web: a batch of 1 to ${MAX_BATCH_ITEMS} queries`,
    description:
      'Runs every query of the batch concurrently at the configured provider and answers one result group per query, in request order, under its id. Results are sanitized plain text with normalized URLs; a query the provider failed carries its own `error` while the others keep their results.',
    tags: ['web'],
    security,
    request: { body: { required: true, content: { 'application/json': { schema: WebSearchRequest } } } },
    responses: searchResponses,
  });
  registry.registerPath({
    method: 'get',
    path: PATHS.search,
    operationId: 'skillInfo',
    summary: 'Skill info: limits, provider, honoured options, fingerprint and assertion ids',
    description:
      'What this server offers before any search is spent: the provider and where queries go, the limits, the options the provider honours and refuses, the contract fingerprint and the assertion ids. Needs the API key when keys are configured; never rate limited.',
    tags: ['web'],
    security,
    responses: {
      200: { description: 'Skill info.', content: { 'application/json': { schema: SkillInfoSchema } } },
      401: errorResponse('unauthorized'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: `${PATHS.trpc}/${TRPC_SEARCH_PROCEDURE}`,
    operationId: 'trpcSearch',
    summary: 'The same search as a tRPC mutation (no batching)',
    description:
      "tRPC v11 over HTTP: the body is the WebSearchRequest; success answers `{ result: { data: WebSearchResponse } }`, failure `{ error: { message, code, data } }` where `data` carries the contract's `{ error, code, issues }`.",
    tags: ['trpc'],
    security,
    request: { body: { required: true, content: { 'application/json': { schema: WebSearchRequest } } } },
    responses: {
      200: {
        description: 'tRPC result envelope.',
        content: {
          'application/json': { schema: z.object({ result: z.object({ data: WebSearchResponseSchema }) }) },
        },
      },
      400: { description: 'tRPC error envelope carrying the contract error.' },
    },
  });
  registry.registerPath({
    method: 'post',
    path: PATHS.mcp,
    operationId: 'mcp',
    summary: 'MCP over Streamable HTTP: the web_search tool for AI agents',
    description:
      'The Model Context Protocol over its Streamable HTTP transport, stateless (no session id; any replica answers). The body is a JSON-RPC 2.0 message or a batch; the answer is JSON-RPC, as JSON or as an event stream (`Accept` must list both `application/json` and `text/event-stream`). One tool, `web_search`: input WebSearchRequest, output WebSearchResponse, or the ErrorResponse of a refused call with `isError`. The key, the body limit and the per-key rate limit (each `tools/call`) hold as for the search; an `Origin` or `Host` other than the bound names and `OPENMATES_ALLOWED_ORIGINS` is refused. GET and DELETE answer 405.',
    tags: ['mcp'],
    security,
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z
              .object({ jsonrpc: z.literal('2.0') })
              .passthrough()
              .openapi({ description: 'A JSON-RPC 2.0 message of the MCP protocol (a batch is an array of them).' }),
          },
        },
      },
    },
    responses: {
      200: {
        description: 'The JSON-RPC answer, as JSON or as an event stream whose events carry JSON-RPC messages.',
        content: {
          'application/json': { schema: z.object({ jsonrpc: z.literal('2.0') }).passthrough() },
          'text/event-stream': { schema: z.string() },
        },
      },
      202: { description: 'Accepted: the body held only notifications or responses.' },
      400: errorResponse('invalid_request', ' The body is not JSON.'),
      401: errorResponse('unauthorized'),
      403: errorResponse('forbidden'),
      413: errorResponse('payload_too_large'),
      415: errorResponse('unsupported_media_type'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: PATHS.openapi,
    operationId: 'openapi',
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 document of this API, exactly as committed in `contract/openapi.json`. Public.',
    tags: ['meta'],
    security: [],
    responses: {
      200: {
        description: 'The OpenAPI 3.1 document.',
        content: { 'application/json': { schema: z.object({}).passthrough() } },
      },
      ...notAllowed,
    },
  });
  registry.registerPath({
    method: 'get',
    path: PATHS.docs,
    operationId: 'docs',
    summary: 'API reference page rendered from this document',
    description: 'Swagger UI, served from local assets (no CDN), rendering this document. Public.',
    tags: ['meta'],
    security: [],
    responses: {
      200: { description: 'HTML page.', content: { 'text/html': { schema: z.string() } } },
      ...notAllowed,
    },
  });
  registry.registerPath({
    method: 'get',
    path: PATHS.health,
    operationId: 'health',
    summary: 'Liveness check',
    description:
      'Answers while the process serves requests, with the configured provider id; it does not call the provider. Public.',
    tags: ['meta'],
    security: [],
    responses: {
      200: { description: 'The server is up.', content: { 'application/json': { schema: HealthSchema } } },
      ...notAllowed,
    },
  });
  registry.registerPath({
    method: 'get',
    path: PATHS.ready,
    operationId: 'readiness',
    summary: 'Readiness check: never calls a paid provider, does not depend on Redis',
    description:
      'Answers 200 once the provider is configured and prepared (the local index opened and its demo corpus built), 503 before that and from the moment the server drains; a load balancer stops sending new work on 503. Public.',
    tags: ['meta'],
    security: [],
    responses: {
      200: { description: 'The server takes searches.', content: { 'application/json': { schema: ReadinessSchema } } },
      ...notAllowed,
      503: errorResponse(
        'not_configured',
        ' Also answered while the local index is being built at start, and from the moment the server is told to stop (SIGTERM).',
      ),
    },
  });
  registry.registerPath({
    method: 'get',
    path: PATHS.metrics,
    operationId: 'metrics',
    summary: 'Prometheus metrics (text exposition format)',
    description:
      'Counters and histograms of requests, search groups, provider calls, the cache and the rate limit, plus process metrics. Labels never hold query text, keys or addresses. Not counted against the search rate limit.',
    tags: ['meta'],
    security,
    responses: {
      200: {
        description: 'The metrics in the Prometheus text format, version 0.0.4.',
        content: { 'text/plain': { schema: z.string() } },
      },
      401: errorResponse('unauthorized'),
    },
  });

  const generator = new OpenApiGeneratorV31(registry.definitions);
  const document = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'OpenMates web search',
      version: CONTRACT_VERSION,
      description:
        'Search the public web and get sanitized, attributable result groups. One contract for REST, tRPC, the CLI, the SDK and the web GUI.',
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'OpenMates web search maintainers' },
    },
    // Relative: the document a deployment serves points "Try it out" at that deployment's own origin.
    servers: [{ url: '/', description: 'The server that serves this document' }],
    tags: [
      { name: 'web', description: 'The web search skill.' },
      { name: 'trpc', description: 'The same skill over tRPC.' },
      { name: 'mcp', description: 'The same skill as an MCP tool for AI agents.' },
      { name: 'meta', description: 'Documentation, health, readiness and metrics.' },
    ],
  });
  const { openapi, ...rest } = document;
  // A JSON round trip leaves plain data: no undefined members, stable for hashing and diffing.
  return JSON.parse(
    JSON.stringify({
      openapi,
      'x-generated':
        'Generated by contract/scripts/generate.ts from the zod schemas in contract/src. Do not edit; run `pnpm generate`.',
      ...rest,
    }),
  ) as OpenApiDocument;
}
