// A field added to a copy of the request-field table reaches every surface built from the table,
// with nothing else changed: the proof that no surface names a field by hand. The CLI half (oclif
// and the fast path parsing `--x-probe v`) is packages/cli/test/search-flags.test.ts.
import {
  buildItemSchema,
  buildOpenApiDocument,
  buildRequestSchema,
  cacheIdentity,
  normalizeItems,
  REQUEST_FIELDS,
  toIssues,
} from '@openmates/contract';
import { renderReference } from '@openmates/contract/reference';
import { PROBE_FIELD } from '@openmates/fixtures';
import { toolInputSchema } from '@openmates/mcp';
import { readSearchForm, toSearchRequest } from '@openmates/web/search-form';
import { describe, expect, it } from 'vitest';

const PROBE_DESCRIPTION = PROBE_FIELD.description;

const fields = [...REQUEST_FIELDS, PROBE_FIELD] as const;

describe('a field added to the request-field table', () => {
  it('is accepted by the item schema and kept by the normalizer', () => {
    const schema = buildRequestSchema(buildItemSchema(fields));
    const parsed = schema.parse({ requests: [{ query: 'a', x_probe: 'v' }] });
    const [item] = normalizeItems(parsed.requests, fields);
    expect(item?.x_probe).toBe('v');
  });

  it('is built by the GUI from its link parameter', () => {
    const form = readSearchForm(new URLSearchParams('q=a&xp=v'), fields);
    const request = toSearchRequest(form, fields) as { requests: Record<string, unknown>[] };
    expect(request.requests[0]?.x_probe).toBe('v');
  });

  it('is listed by the unknown-field message', () => {
    const schema = buildRequestSchema(buildItemSchema(fields));
    const result = schema.safeParse({ requests: [{ query: 'a', x_nope: 1 }] });
    expect(result.success).toBe(false);
    if (result.success) return;
    const [issue] = toIssues(result.error, fields);
    expect(issue?.path).toBe('requests[0].x_nope');
    expect(issue?.message).toContain(`${REQUEST_FIELDS.at(-1)?.name}, x_probe)`);
  });

  it('gives two cache keys for two values', () => {
    const [a, b] = normalizeItems(
      [
        { query: 'a', x_probe: 'one' },
        { query: 'a', x_probe: 'two' },
      ],
      fields,
    );
    expect(a && b && cacheIdentity(a, fields)).not.toBe(a && b && cacheIdentity(b, fields));
    // The contract's own table does not see the probe: the same two items share one key there.
    expect(a && b && cacheIdentity(a)).toBe(a && b && cacheIdentity(b));
  });

  it('carries its description into the OpenAPI component, the MCP tool schema and the reference docs', () => {
    const document = buildOpenApiDocument(fields) as unknown as { components: { schemas: Record<string, unknown> } };
    const item = document.components.schemas.WebSearchRequestItem as {
      properties: Record<string, { description?: string }>;
    };
    expect(item.properties.x_probe?.description).toBe(PROBE_DESCRIPTION);

    const tool = toolInputSchema(document) as unknown as {
      properties: { requests: { items: { properties: Record<string, { description?: string }> } } };
    };
    expect(tool.properties.requests.items.properties.x_probe?.description).toBe(PROBE_DESCRIPTION);

    const reference = renderReference(fields);
    expect(reference).toContain(`| \`x_probe\` | no | ${PROBE_DESCRIPTION} | \`--x-probe V\` | text: “Probe” | \`xp\``);
  });
});
