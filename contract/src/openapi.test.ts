import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { computeFingerprint, generatedFiles, OPENAPI_PATH, readCatalogue } from '../scripts/generated-files.ts';
import { CONTRACT_FINGERPRINT } from './fingerprint.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { PATHS } from './paths.ts';
import { TRPC_SEARCH_PROCEDURE } from './routes.ts';

describe('the committed OpenAPI document', () => {
  it('is exactly what the generator produces from the schemas (no drift)', () => {
    for (const file of generatedFiles()) {
      expect(readFileSync(file.path, 'utf8'), `${file.path} is stale: run \`pnpm generate\``).toBe(file.content);
    }
  });

  it('passes a real OpenAPI 3.1 validator', async () => {
    const document = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'));
    const result = await validate(document);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('names the six contract components', () => {
    const names = Object.keys(buildOpenApiDocument().components as object);
    expect(names).toContain('schemas');
    const schemas = Object.keys((buildOpenApiDocument().components as { schemas: object }).schemas);
    for (const name of [
      'WebSearchRequest',
      'WebSearchRequestItem',
      'WebSearchResult',
      'ResultGroup',
      'WebSearchResponse',
      'ErrorResponse',
    ])
      expect(schemas).toContain(name);
  });

  it('registers every HTTP path the API serves', () => {
    const paths = buildOpenApiDocument().paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths[PATHS.search] ?? {}).sort()).toEqual(['get', 'post']);
    for (const path of [PATHS.openapi, PATHS.docs, PATHS.health, PATHS.ready, PATHS.metrics])
      expect(paths[path]).toHaveProperty('get');
    expect(paths[`${PATHS.trpc}/${TRPC_SEARCH_PROCEDURE}`]).toHaveProperty('post');
  });

  it('is generated deterministically', () => {
    expect(JSON.stringify(buildOpenApiDocument())).toBe(JSON.stringify(buildOpenApiDocument()));
  });
});

describe('the contract fingerprint', () => {
  it('is the SHA-256 of the canonical JSON of the document and the catalogue', () => {
    const openapi = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8'));
    expect(CONTRACT_FINGERPRINT).toMatch(/^[0-9a-f]{64}$/);
    expect(computeFingerprint({ openapi, assertions: readCatalogue() })).toBe(CONTRACT_FINGERPRINT);
  });

  it('changes when the catalogue or the document changes, and not with key order', () => {
    const openapi = buildOpenApiDocument();
    const assertions = readCatalogue();
    const base = computeFingerprint({ openapi, assertions });
    const reordered = Object.fromEntries(Object.entries(openapi).reverse());
    expect(computeFingerprint({ openapi: reordered, assertions })).toBe(base);
    expect(computeFingerprint({ openapi: { ...openapi, info: {} }, assertions })).not.toBe(base);
    expect(computeFingerprint({ openapi, assertions: assertions.slice(1) })).not.toBe(base);
  });

  it('covers the assertion ids of the catalogue', () => {
    expect(readCatalogue().map((a) => a.id)).toEqual([
      'web-search.request.validated',
      'web-search.request.ids-correlated',
      'web-search.response.sanitized',
      'web-search.results.bounded',
      'web-search.no-results.explicit',
      'web-search.provider-error.visible',
      'web-search.secrets.never-exposed',
      'web-search.scope.domains-enforced',
      'web-search.scope.freshness-applied',
      'web-search.surface-parity',
      'web-search.usage.counted',
    ]);
  });
});
