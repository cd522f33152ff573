import { CHOICE_VALUES, REQUEST_FIELDS, type RequestFields } from '@openmates/contract';
import openapi from '@openmates/contract/openapi.json' with { type: 'json' };
import type { SearchProvider } from '@openmates/core';

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

/** A member of the configured chain as the tool's schema reads it: its name and its capability table. */
export interface ChainMember {
  readonly id: string;
  readonly name: string;
  /** Its capability table; unknown (a bridge to another server) leaves the options unannotated. */
  readonly capabilities?: Pick<SearchProvider['capabilities'], 'honoured' | 'conditional' | 'refuses' | 'languages'>;
}

const names = (members: readonly ChainMember[]) => members.map((m) => m.name).join(', ');

/**
 * Which members of the chain apply `option`, as skill info says it, read from their capability
 * tables: who applies it, who applies it only in some cases (their rule), who refuses a value of it
 * (and, when every member does, that the server cannot answer it at all), who leaves it aside.
 * Empty when no member's table is known.
 */
export function chainNote(option: string, chain: readonly ChainMember[]): string {
  const known = chain.filter((m) => m.capabilities !== undefined) as (ChainMember & {
    capabilities: NonNullable<ChainMember['capabilities']>;
  })[];
  if (known.length === 0) return '';
  const sentences: string[] = [];
  const applying = known.filter((m) => (m.capabilities.honoured as readonly string[]).includes(option));
  if (applying.length > 0) sentences.push(`Applied by ${names(applying)}.`);
  const rest = known.filter((m) => !applying.includes(m));
  const conditional = rest.flatMap((m) =>
    (m.capabilities.conditional ?? []).filter((c) => c.option === option).map((c) => ({ member: m, rule: c.rule })),
  );
  for (const { member, rule } of conditional) sentences.push(`${member.name}: ${rule}`);
  // Refusals of a member that applies the option in some cases are its rule's to say.
  const refusing = rest.filter((m) => !conditional.some((c) => c.member === m));
  const labels = new Map<string, { member: ChainMember; reason: string }[]>();
  for (const member of refusing)
    for (const refusal of member.capabilities.refuses ?? [])
      if (refusal.option === option) {
        const label = refusal.label ?? option;
        labels.set(label, [...(labels.get(label) ?? []), { member, reason: refusal.reason }]);
      }
  for (const [label, refusals] of labels) {
    const each = refusals.map((r) => `${r.member.name} refuses ${label} (${r.reason})`).join('; ');
    sentences.push(
      refusals.length === known.length ? `The configured providers cannot answer ${label}: ${each}.` : `${each}.`,
    );
  }
  const aside = refusing.filter((m) => ![...labels.values()].some((r) => r.some((x) => x.member === m)));
  if (aside.length > 0) sentences.push(`Not applied by ${names(aside)}.`);
  if (option === 'search_lang')
    for (const member of applying)
      if (member.capabilities.languages)
        sentences.push(`${member.name} takes only ${member.capabilities.languages.join(', ')}.`);
  return sentences.join(' ');
}

/**
 * The `web_search` tool's input schema of a document: its WebSearchRequest, each field described
 * once, in what the field table says a model should be told (each field's `modelSchema`: a shorter
 * description, the pattern a query or a language must match, an id's upper bound, the accepted values
 * of a field), and each provider option followed by which members of `chain` apply it (ADR 0119). It
 * is stricter than the OpenAPI document, on purpose: the server still accepts what the API accepts
 * (case variants, the fallback for an unknown safe-search level), but a model is shown the values to
 * send (packages/mcp/README.md). A country is the exception: its description gives the contract's
 * fallback rather than an enum, so an unknown code reads alike on every surface.
 */
export function toolInputSchema(
  document: SchemaDocument = CONTRACT_DOCUMENT,
  fields: RequestFields = REQUEST_FIELDS,
  chain: readonly ChainMember[] = [],
): JsonObject & { type: 'object' } {
  const { description: _batch, ...schema } = selfContainedSchema('WebSearchRequest', document) as JsonObject & {
    type: 'object';
  };
  const requests = (schema.properties as JsonObject).requests as JsonObject;
  // The batch and the item are said once, by `requests`' description (and the tool's).
  const { description: _item, ...item } = requests.items as JsonObject;
  requests.items = item;
  const properties = item.properties as JsonObject;
  for (const field of fields) {
    const property = properties[field.name] as JsonObject | undefined;
    if (!property) continue;
    const model = field.modelSchema;
    const note = field.providerOption ? chainNote(field.name, chain) : '';
    const description = model?.description ?? (property.description as string | undefined) ?? '';
    property.description = note === '' ? description : `${description} ${note}`;
    if (!model) continue;
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

/** The keywords of the output schema: its shape, nothing a validator checks beyond it, no prose. */
const SHAPE_KEYWORDS = new Set(['type', 'properties', 'items', 'required', 'anyOf', 'allOf']);
/**
 * What a model reading results has no use for, left unlisted (the answer still carries them, and
 * the schema allows them): the request's accounting and a result's URL parts and family flag.
 */
const UNLISTED = new Set(['budget', 'request_id', 'sources_cut', 'results_fitted_out', 'meta_url', 'family_friendly']);

/**
 * A schema reduced to its shape: types, properties, items and what is required. Descriptions, bounds,
 * formats and enums go (the model reads the text block, a program the contract's types), and so does
 * `additionalProperties: false`: an answer may carry fields this schema does not list, such as a
 * `usage` object per group and on the response, so a client checking the structured content does not
 * refuse a server newer than its listing.
 */
function shapeOf(node: Json, names = false): Json {
  if (Array.isArray(node)) return node.map((child) => shapeOf(child));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node))
    if (names ? !UNLISTED.has(key) : SHAPE_KEYWORDS.has(key)) out[key] = shapeOf(value, !names && key === 'properties');
  if (names) return out;
  if (Array.isArray(out.required)) out.required = out.required.filter((name) => !UNLISTED.has(name as string));
  // `allOf` of one shape (a described code) is that shape. (An `anyOf` of types stays: a strict
  // validator, Ajv's, refuses a list of types.)
  if (Array.isArray(out.allOf)) {
    const shapes = out.allOf.filter((s) => s !== null && typeof s === 'object' && Object.keys(s).length > 0);
    delete out.allOf;
    if (shapes.length === 1) Object.assign(out, shapes[0]);
    else if (shapes.length > 1) out.allOf = shapes;
  }
  return out;
}

/**
 * The `web_search` tool's output schema: a WebSearchResponse, or the ErrorResponse of a refused
 * call, each as its shape (`shapeOf`). MCP clients check `structuredContent` against this schema on
 * error results too (the official TypeScript client does), so a schema of WebSearchResponse alone
 * would make every refusal throw in the client instead of reaching the caller (ADR 0028).
 */
export function toolOutputSchema(document: SchemaDocument = CONTRACT_DOCUMENT): JsonObject & { type: 'object' } {
  return {
    $schema: SCHEMA_DIALECT,
    type: 'object',
    anyOf: [
      shapeOf(selfContainedSchema('WebSearchResponse', document)),
      shapeOf(selfContainedSchema('ErrorResponse', document)),
    ],
  };
}

/** The `web_search` tool's input schema for a chain: the contract's request, each option annotated for the chain. */
export const inputSchemaOfChain = (chain: readonly ChainMember[]) =>
  toolInputSchema(CONTRACT_DOCUMENT, REQUEST_FIELDS, chain);
/** The `web_search` tool's input schema with no chain known (a bridge to another server). */
export const INPUT_SCHEMA = toolInputSchema();
/** The `web_search` tool's output schema. */
export const OUTPUT_SCHEMA = toolOutputSchema();
