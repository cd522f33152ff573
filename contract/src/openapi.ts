import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import pkg from '../package.json' with { type: 'json' };
import { ERROR_TABLE } from './errors.ts';
import { REQUEST_FIELDS, type RequestFields } from './fields.ts';
import { RATE_LIMIT_ROUTE_HEADERS } from './rate-limit.ts';
import { WebSearchRequestItemSchema, WebSearchRequestSchema } from './request-schema-values.ts';
import { buildItemSchema, buildRequestSchema } from './request-schemas.ts';
import {
  ErrorResponseSchema,
  ResultGroupSchema,
  WebSearchResponseSchema,
  WebSearchResultSchema,
} from './response-schemas.ts';
import { carriesRateLimit, isMetered, ROUTES, type RouteAnswer, type RouteDefinition } from './routes.ts';
import {
  SearchStreamDoneEventSchema,
  SearchStreamErrorEventSchema,
  SearchStreamEventSchema,
  SearchStreamGroupEventSchema,
} from './stream-schemas.ts';

/** The OpenAPI document as plain JSON data. */
export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, unknown> };

/**
 * `info.version`: the release version, which `pnpm generate` writes into this package's package.json
 * from the root one (ADR 0095, ADR 0123), so `/docs`, `/v1/openapi.json` and skill info say one version.
 */
const API_VERSION: string = pkg.version;

type ResponseObject = ResponseConfig;

/** One answer of the route table as the document has it: an error code's answer is the ErrorResponse. */
function response(answer: RouteAnswer): ResponseObject {
  if ('error' in answer)
    return {
      description: `${ERROR_TABLE[answer.error].message}${answer.note ?? ''}`,
      content: { 'application/json': { schema: ErrorResponseSchema } },
      ...(answer.headers ? { headers: answer.headers } : {}),
    };
  return {
    description: answer.description,
    ...(answer.content
      ? {
          content: Object.fromEntries(
            Object.entries(answer.content).map(([mediaType, schema]) => [mediaType, { schema }]),
          ),
        }
      : {}),
    ...(answer.headers ? { headers: answer.headers } : {}),
  };
}

/**
 * A route's answers by status, with its variants' merged in: one operation per method and path, its
 * descriptions joined and its media types added (a variant is the same call with another `Accept`).
 */
function responses(route: RouteDefinition, variants: readonly RouteDefinition[]): Record<number, ResponseObject> {
  const merged: Record<number, ResponseObject> = {};
  for (const [status, answer] of Object.entries(route.responses)) merged[Number(status)] = response(answer);
  for (const variant of variants)
    for (const [status, answer] of Object.entries(variant.responses)) {
      const own = merged[Number(status)];
      const extra = response(answer);
      merged[Number(status)] = own
        ? {
            ...own,
            description: `${own.description} ${extra.description}`,
            content: { ...own.content, ...extra.content },
          }
        : extra;
    }
  // A counted route's answers carry the caller's rate-limit state, but for the refusals made before counting.
  if (isMetered(route))
    for (const [status, answer] of Object.entries(merged)) {
      const declared = route.responses[Number(status)];
      if (!declared || carriesRateLimit(declared)) answer.headers = { ...RATE_LIMIT_ROUTE_HEADERS, ...answer.headers };
    }
  return merged;
}

/**
 * Builds the OpenAPI 3.1 document from the contract's schemas, with every route of the route table
 * registered. `fields`: the request-field table the request schemas are built from (default the contract's).
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
  const requestBody = (schema: NonNullable<RouteDefinition['request']>['body']) =>
    schema === WebSearchRequestSchema ? WebSearchRequest : schema;
  for (const route of ROUTES) {
    if (route.variant) continue;
    const variants = ROUTES.filter((r) => r.variant?.of === route.operation);
    registry.registerPath({
      method: route.method === 'GET' ? 'get' : 'post',
      path: route.path,
      operationId: route.operation,
      summary: route.summary,
      description: route.description,
      tags: [route.tag],
      security: route.needsKey ? security : [],
      ...(route.request
        ? {
            request: {
              body: { required: true, content: { 'application/json': { schema: requestBody(route.request.body) } } },
            },
          }
        : {}),
      responses: responses(route, variants),
    });
  }

  const generator = new OpenApiGeneratorV31(registry.definitions);
  const document = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'OpenMates web search',
      version: API_VERSION,
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
