// Requests for property tests, built from the contract's field table and the OpenAPI document it
// generates: each field's values come from its kind, its bounds in the document and its option
// list, and are kept only when the field's own schema says so. A field added to the table is drawn
// (and broken) here without a change.
import { createRequire } from 'node:module';
import {
  CHOICE_VALUES,
  type ChoiceList,
  REQUEST_FIELDS,
  type RequestField,
  WebSearchRequestSchema,
} from '@openmates/contract';
import fc from 'fast-check';

interface JsonSchema {
  $ref?: string;
  type?: string;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

const doc = createRequire(import.meta.url)('@openmates/contract/openapi.json') as {
  components: { schemas: Record<string, JsonSchema> };
};
const SCHEMAS = doc.components.schemas;
const REF = '#/components/schemas/';

function resolve(schema: JsonSchema | undefined): JsonSchema {
  if (schema?.$ref === undefined) return schema ?? {};
  return resolve(SCHEMAS[schema.$ref.slice(REF.length)]);
}

/** A field's schema in the OpenAPI document (its bounds: minimum, maxItems, …). */
function documented(field: RequestField): JsonSchema {
  return resolve(SCHEMAS.WebSearchRequestItem?.properties?.[field.name]);
}

const BATCH = resolve(SCHEMAS.WebSearchRequest?.properties?.requests);
/** The batch sizes the document allows. */
export const MIN_ITEMS = BATCH.minItems ?? 1;
export const MAX_ITEMS = BATCH.maxItems ?? 5;

/** The words and hosts a corpus offers; queries and domain lists draw from them and from misses. */
export interface Vocabulary {
  /** Words the index holds (queries made of them find documents). */
  hits: readonly string[];
  /** Words it does not hold, text a query parser must survive among them. */
  misses: readonly string[];
  /** Host names, those of indexed documents first. */
  hosts: readonly string[];
}

/** The option list a field's values come from (its model schema's, its control's or suggestions'). */
function choiceList(field: RequestField): ChoiceList | undefined {
  const control = field.control as { choices?: ChoiceList; suggestions?: ChoiceList } | undefined;
  return field.modelSchema?.choices ?? control?.choices ?? control?.suggestions;
}

/** Date ranges (`YYYY-MM-DDtoYYYY-MM-DD`) and their open ends, over the years a corpus may date. */
const dateRange = fc
  .tuple(fc.integer({ min: 2015, max: 2027 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 }))
  .map(([year, span, open]) => {
    const from = `${year}-01-01`;
    const to = `${year + span}-12-31`;
    return open === 0 ? `${from}..${to}` : open === 1 ? `${from}..` : `..${to}`;
  });

const caseOf = (text: fc.Arbitrary<string>) =>
  fc
    .tuple(text, fc.constantFrom('as-is', 'upper', 'lower'))
    .map(([value, form]) => (form === 'upper' ? value.toUpperCase() : form === 'lower' ? value.toLowerCase() : value));

const accepts = (field: RequestField) => (value: unknown) => field.schema.safeParse(value).success;

/** A query: mostly one word (several words of a corpus rarely meet in one document), hits and misses mixed. */
export function queryOf(vocabulary: Vocabulary): fc.Arbitrary<string> {
  const word = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...vocabulary.hits) },
    { weight: 1, arbitrary: fc.constantFrom(...vocabulary.misses) },
  );
  return fc.oneof(
    { weight: 2, arbitrary: word },
    { weight: 1, arbitrary: fc.array(word, { minLength: 2, maxLength: 4 }).map((words) => words.join(' ')) },
  );
}

/** Values the field's schema accepts, drawn by its kind within the document's bounds. */
export function validValue(field: RequestField, vocabulary: Vocabulary): fc.Arbitrary<unknown> {
  const schema = documented(field);
  const list = choiceList(field);
  switch (field.kind) {
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 100 });
    case 'boolean':
      return fc.boolean();
    case 'id': {
      const text = resolve(schema.anyOf?.find((s) => resolve(s).type === 'string'));
      return fc.oneof(
        fc.string({ minLength: text.minLength ?? 1, maxLength: Math.min(text.maxLength ?? 64, 12) }),
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      );
    }
    case 'list': {
      const entry = caseOf(fc.constantFrom(...vocabulary.hosts));
      const maxLength = Math.min(schema.maxItems ?? 3, 3);
      return fc.uniqueArray(entry, { minLength: schema.minItems ?? 1, maxLength, selector: (h) => h.toLowerCase() });
    }
    default: {
      if (field.required) return queryOf(vocabulary).filter(accepts(field));
      const candidates: fc.Arbitrary<string>[] = [dateRange];
      if (list !== undefined) candidates.push(caseOf(fc.constantFrom(...CHOICE_VALUES[list])));
      if (typeof field.example === 'string') candidates.push(fc.constant(field.example));
      return fc.oneof(...candidates).filter(accepts(field));
    }
  }
}

/** The fields a request to a provider may carry: those that are no option, and the options it applies. */
export function appliedFields(honoured: readonly string[]): RequestField[] {
  return REQUEST_FIELDS.filter((field) => !field.providerOption || honoured.includes(field.name));
}

/**
 * Valid requests of 1 to the document's most items: each item any subset of `fields` (the required
 * ones always), every value valid; kept only when the whole request is (ids unique, scopes apart).
 */
export function validRequest(fields: readonly RequestField[], vocabulary: Vocabulary): fc.Arbitrary<unknown> {
  const record = Object.fromEntries(fields.map((field) => [field.name, validValue(field, vocabulary)]));
  const required = fields.filter((field) => field.required).map((field) => field.name);
  const item = fc.record(record, { requiredKeys: required });
  return fc.record({ requests: fc.array(item, { minLength: MIN_ITEMS, maxLength: MAX_ITEMS }) }).map(withoutConflicts);
}

/**
 * The request less each optional field a rule across fields or items refuses (a scope that covers
 * the other, an id used twice): dropped rather than drawn again, so drawing stays cheap.
 */
function withoutConflicts(request: { requests: Record<string, unknown>[] }): { requests: Record<string, unknown>[] } {
  for (let round = 0; round < 3; round++) {
    const parsed = WebSearchRequestSchema.safeParse(request);
    if (parsed.success) return request;
    for (const issue of parsed.error.issues) {
      const [, index, name] = issue.path;
      const field: RequestField | undefined = REQUEST_FIELDS.find((f) => f.name === name);
      if (typeof index !== 'number' || field === undefined || field.required === true)
        throw new Error(`a drawn request is refused at ${issue.path.join('.')}: ${issue.message}`);
      delete request.requests[index]?.[field.name];
    }
  }
  throw new Error(`a drawn request stays refused: ${JSON.stringify(request)}`);
}

/** Values of the wrong type, out of the document's bounds, or malformed, that the field's schema refuses. */
export function invalidValue(field: RequestField): fc.Arbitrary<unknown> {
  const schema = documented(field);
  const wrongTypes: unknown[] = [null, true, 1.5, -1, '', ' ', '\u200B', 'x'.repeat(401), [], {}, ['a'], 2 ** 53];
  const bounds: unknown[] = [];
  if (schema.minimum !== undefined) bounds.push(schema.minimum - 1);
  if (schema.maximum !== undefined) bounds.push(schema.maximum + 1, String(schema.maximum));
  if (schema.maxItems !== undefined)
    bounds.push(Array.from({ length: schema.maxItems + 1 }, (_, i) => `d${i}.example.org`));
  const malformed: unknown[] = [
    'fortnight',
    '2025-13-01..',
    '..',
    '2026-02-30..2026-03-01',
    'xx-bad',
    'x'.repeat(65),
    ['http://example.org'],
    ['*.example.org'],
    ['127.0.0.1'],
    ['localhost'],
    ['exa mple.org'],
    ['example.org', 'EXAMPLE.org.'],
    [5],
  ];
  const refused = [...wrongTypes, ...bounds, ...malformed].filter((value) => !accepts(field)(value));
  return fc.constantFrom(...refused);
}

/** A broken request and the issue path (or a prefix of one) its refusal must name. */
export interface Broken {
  request: { requests: unknown[] } & Record<string, unknown>;
  path: string;
}

/** Field names no table holds: near misses of real ones and plain unknowns. */
const UNKNOWN_FIELDS = fc.constantFrom('Query', 'query ', 'max_results', 'offset', 'lang', 'domains', 'constructor');

/** One mutation of a valid request, with the path the refusal must name. */
export function brokenRequest(fields: readonly RequestField[], vocabulary: Vocabulary): fc.Arbitrary<Broken> {
  const valid = validRequest(fields, vocabulary) as fc.Arbitrary<{ requests: Record<string, unknown>[] }>;
  const wrongField = fc
    .constantFrom(...fields)
    .chain((field) => invalidValue(field).map((value) => ({ kind: 'value' as const, field: field.name, value })));
  const mutation = fc.oneof(
    { weight: 4, arbitrary: wrongField },
    fc.record({ kind: fc.constant('unknown' as const), field: UNKNOWN_FIELDS }),
    fc.record({ kind: fc.constant('missing' as const), field: fc.constantFrom(...requiredNames(fields)) }),
    fc.record({ kind: fc.constant('duplicate' as const), value: fc.constantFrom<unknown>(1, '1', 'q', 0) }),
    fc.record({ kind: fc.constant('size' as const), value: fc.constantFrom(MIN_ITEMS - 1, MAX_ITEMS + 1) }),
  );
  return fc.tuple(valid, mutation, fc.nat()).map(([generated, m, pick]) => {
    const request = structuredClone(generated) as Broken['request'];
    const items = request.requests as Record<string, unknown>[];
    const index = pick % items.length;
    const item = items[index] as Record<string, unknown>;
    switch (m.kind) {
      case 'value':
        item[m.field] = m.value;
        return { request, path: `requests[${index}].${m.field}` };
      case 'unknown':
        item[m.field] = 5;
        return { request, path: `requests[${index}].${m.field}` };
      case 'missing':
        delete item[m.field];
        return { request, path: `requests[${index}].${m.field}` };
      case 'duplicate':
        request.requests = [
          { ...item, id: m.value },
          { ...item, id: String(m.value) },
        ];
        return { request, path: 'requests[1].id' };
      default:
        request.requests = Array.from({ length: m.value }, (_, i) => items[i % items.length]);
        return { request, path: 'requests' };
    }
  });
}

function requiredNames(fields: readonly RequestField[]): string[] {
  return fields.filter((field) => field.required).map((field) => field.name);
}

/** True when `path` is `named` or lies inside it (`requests[0].id` in `requests[0]`, `requests[1][2]` in `requests[1]`). */
export function pathNames(path: string, named: string): boolean {
  return path === named || path.startsWith(`${named}.`) || path.startsWith(`${named}[`);
}
