import { CHOICE_VALUES, REQUEST_FIELDS, type RequestFields } from '@openmates/contract';
import openapi from '@openmates/contract/openapi.json' with { type: 'json' };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const COMPONENT_REF = '#/components/schemas/';
/**
 * The dialect both tool schemas are written in, declared in each so a client compiles them as 2020-12
 * whatever its validator's default (MCP's default dialect is 2020-12 too).
 */
export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
/** OpenAPI's own keywords: not JSON Schema, so a strict validator compiling the tool schema would refuse them. */
const OPENAPI_ONLY = new Set(['example', 'discriminator', 'xml', 'externalDocs']);

/** An OpenAPI document as the tool schemas read it: its component schemas. */
export interface SchemaDocument {
  components: { schemas: Record<string, unknown> };
}

const CONTRACT_DOCUMENT = openapi as unknown as SchemaDocument;

/**
 * A component of the contract's OpenAPI document as one self-contained JSON Schema (draft 2020-12):
 * every `$ref` into the components replaced by the component itself, OpenAPI-only keywords dropped.
 * MCP clients compile a tool's schemas alone, with no document to resolve references against.
 */
export function selfContainedSchema(name: string, document: SchemaDocument = CONTRACT_DOCUMENT): JsonObject {
  const components = document.components.schemas as Record<string, Json>;
  const component = (target: string): Json => {
    const schema = components[target];
    if (schema === undefined) throw new Error(`the contract has no schema ${target}`);
    return schema;
  };
  // `names`: the node maps property names to schemas (`properties`), so its keys are never keywords.
  const inline = (node: Json, trail: readonly string[], names = false): Json => {
    if (Array.isArray(node)) return node.map((child) => inline(child, trail));
    if (node === null || typeof node !== 'object') return node;
    const ref = node.$ref;
    if (typeof ref === 'string') {
      if (!ref.startsWith(COMPONENT_REF)) throw new Error(`unexpected reference ${ref}`);
      const target = ref.slice(COMPONENT_REF.length);
      // The contract's schemas are not recursive; a cycle would make inlining endless.
      if (trail.includes(target)) throw new Error(`recursive schema ${[...trail, target].join(' → ')}`);
      const { $ref: _, ...siblings } = node;
      const resolved = inline(component(target), [...trail, target]) as JsonObject;
      return Object.keys(siblings).length === 0
        ? resolved
        : { ...resolved, ...(inline(siblings, trail) as JsonObject) };
    }
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node))
      if (names || (!OPENAPI_ONLY.has(key) && !key.startsWith('x-')))
        out[key] = inline(value, trail, !names && (key === 'properties' || key === 'patternProperties'));
    return out;
  };
  return inline(component(name), [name]) as JsonObject;
}

/** The subschema of `schema` of a JSON type: itself, or the branch of its `anyOf` (an id's). */
function branchOf(schema: JsonObject, type: string): JsonObject | undefined {
  if (schema.type === type) return schema;
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : [];
  return branches.find(
    (branch): branch is JsonObject =>
      branch !== null && typeof branch === 'object' && !Array.isArray(branch) && branch.type === type,
  );
}

/**
 * The `web_search` tool's input schema of a document: its WebSearchRequest, every field described,
 * with what the field table says a model should be told beyond the API's document (each field's
 * `modelSchema`: the pattern a query must match, an id's upper bound, the accepted values of a
 * field). It is stricter than the OpenAPI document, on purpose: the server still accepts what the
 * API accepts (case variants, the fallback for an unknown country), but a model is shown the values
 * to send (packages/mcp/README.md).
 */
export function toolInputSchema(
  document: SchemaDocument = CONTRACT_DOCUMENT,
  fields: RequestFields = REQUEST_FIELDS,
): JsonObject & { type: 'object' } {
  const schema = selfContainedSchema('WebSearchRequest', document) as JsonObject & { type: 'object' };
  const item = ((schema.properties as JsonObject).requests as JsonObject).items as JsonObject;
  const properties = item.properties as JsonObject;
  for (const field of fields) {
    const model = field.modelSchema;
    const property = properties[field.name] as JsonObject | undefined;
    if (!model || !property) continue;
    const text = branchOf(property, 'string');
    const integer = branchOf(property, 'integer');
    if ((model.pattern !== undefined || model.choices !== undefined) && !text)
      throw new Error(`${field.name}: a pattern or choices need a string schema`);
    if (model.maximum !== undefined && !integer) throw new Error(`${field.name}: a maximum needs an integer schema`);
    if (text && model.pattern !== undefined) text.pattern = model.pattern;
    if (text && model.choices !== undefined) text.enum = [...CHOICE_VALUES[model.choices]];
    if (integer && model.maximum !== undefined) integer.maximum = model.maximum;
  }
  return { $schema: SCHEMA_DIALECT, ...schema };
}

/** The `web_search` tool's input schema: the contract's WebSearchRequest. */
export const INPUT_SCHEMA = toolInputSchema();
/**
 * The `web_search` tool's output schema: a WebSearchResponse, or the ErrorResponse of a refused
 * call. MCP clients check `structuredContent` against this schema on error results too (the official
 * TypeScript client does), so a schema of WebSearchResponse alone would make every refusal throw
 * in the client instead of reaching the caller (ADR 0028).
 */
export const OUTPUT_SCHEMA = {
  $schema: SCHEMA_DIALECT,
  type: 'object',
  description: 'A WebSearchResponse (`results` present), or the ErrorResponse of a refused call (`isError`).',
  anyOf: [selfContainedSchema('WebSearchResponse'), selfContainedSchema('ErrorResponse')],
} as JsonObject & { type: 'object' };
