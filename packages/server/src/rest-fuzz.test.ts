// Property fuzzing of the REST search body (issue 20): documents generated from the committed
// OpenAPI document, valid and near-valid, sent to a real server on loopback over the Brave fixture.
import { createRequire } from 'node:module';
import {
  type ErrorCode,
  httpStatus,
  ISSUE_MESSAGES,
  isIssueMessage,
  issueMessage,
  PATHS,
  searchStatus,
} from '@openmates/contract';
import { EngineError, errorResponse } from '@openmates/core';
import { BRAVE_SCENARIOS, type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/index.ts';

interface JsonSchema {
  $ref?: string;
  type?: string;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  example?: unknown;
}

interface OpenApiDocument {
  components: { schemas: Record<string, JsonSchema> };
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }> }>
  >;
}

const doc = createRequire(import.meta.url)('@openmates/contract/openapi.json') as OpenApiDocument;
const SCHEMAS = doc.components.schemas;
const REF = '#/components/schemas/';
const SEED = 20;
/** Each property stops after this long, whatever run it reached (a cap, not an assertion). */
const TIME_LIMIT_MS = 20_000;

/** The document's components as one JSON Schema 2020-12 resource, validated by Ajv in strict mode. */
function validators(): (status: number) => ValidateFunction {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  // ajv-formats is CommonJS: its function is `default` of what Node hands an ES module.
  addFormats.default(ajv);
  ajv.addVocabulary(['example']); // an OpenAPI annotation, not a JSON Schema keyword
  const defs = JSON.parse(JSON.stringify(SCHEMAS).replaceAll(`"${REF}`, '"#/$defs/'));
  ajv.addSchema({ $id: 'contract', $defs: defs });
  const responses = doc.paths[PATHS.search]?.post?.responses ?? {};
  return (status) => {
    const ref = responses[String(status)]?.content?.['application/json']?.schema.$ref;
    if (ref === undefined) throw new Error(`the document declares no JSON answer ${status} for POST ${PATHS.search}`);
    const validate = ajv.getSchema(`contract#/$defs/${ref.slice(REF.length)}`);
    if (!validate) throw new Error(`no schema ${ref}`);
    return validate;
  };
}

/** Query text: plain words, the fixture's scenario words (failures, hostile text), and any text. */
const WORDS = [
  'rust',
  'fetch',
  'abort',
  'signal',
  'sqlite',
  'fts5',
  'node',
  'Zürich',
  '東京',
  '👩\u200D💻',
  'می\u200Cخواهم',
];
const SAFE_SCENARIOS = Object.keys(BRAVE_SCENARIOS).filter(
  // Stateful (answers differ between the REST call and the in-process one), slow on purpose, or
  // held until a test releases it.
  (name) =>
    !name.startsWith('ratelimit') && name !== 'slow' && name !== 'delay' && name !== 'hold' && name !== 'marked',
);
const query = fc.oneof(
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((words) => words.join(' ')),
  fc
    .tuple(fc.constantFrom(...SAFE_SCENARIOS), fc.constantFrom(...WORDS))
    .map(([scenario, word]) => `${scenario} ${word}`),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
);

/** Strings for a property: its example, values near the ones the contract knows, and any text. */
function stringOf(name: string, schema: JsonSchema): fc.Arbitrary<string> {
  if (name === 'query') return query;
  // The document gives these as plain strings; their forms are the contract's own rules, so valid
  // documents take valid forms (any text would make nearly every batch a 400). The two domain lists
  // never overlap, so no exclusion covers an inclusion.
  const scoped: Record<string, string[]> = {
    freshness: ['week', 'DAY', '2025-01-01..', '..2025-06-30', '2025-01-01..2025-01-31'],
    include_domains: ['example.org', 'Docs.Example.ORG', 'bücher.example'],
    exclude_domains: ['example.com', 'b.example'],
  };
  const forms = scoped[name];
  if (forms !== undefined) return fc.constantFrom(...forms);
  const known: Record<string, string[]> = {
    country: ['US', 'de', 'No', 'ALL', 'XX', ''],
    search_lang: ['en', 'DE', 'fr', 'jp'],
    safesearch: ['off', 'moderate', 'STRICT', 'bogus'],
  };
  const text = fc.string({ unit: 'grapheme', minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? 12 });
  const examples = [...(known[name] ?? []), ...(typeof schema.example === 'string' ? [schema.example] : [])];
  return examples.length > 0 ? fc.oneof(fc.constantFrom(...examples), text) : text;
}

/** A document valid by `schema` (of the subset the request schemas use), built from the document itself. */
function valid(schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  if (schema.$ref) {
    const target = SCHEMAS[schema.$ref.slice(REF.length)];
    if (!target) throw new Error(`no component ${schema.$ref}`);
    return valid(target, name);
  }
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => valid(option, name)));
  switch (schema.type) {
    case 'object': {
      const properties = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, valid(value, key)]),
      );
      return fc.record(properties, { requiredKeys: schema.required ?? [] });
    }
    case 'array':
      return fc.array(valid(schema.items ?? {}, name), {
        minLength: schema.minItems ?? 0,
        maxLength: schema.maxItems ?? 5,
      });
    case 'string':
      return stringOf(name, schema);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 });
    case 'boolean':
      return fc.boolean();
    default:
      throw new Error(`the generator does not know ${JSON.stringify(schema)}`);
  }
}

/** JSON numbers that JavaScript cannot hold as written, spliced into the body text. */
const RAW_NUMBERS = ['1e309', '-1e309', '12345678901234567890', '1.0000000000000002', '-0', '20.0', '1E1'];
const WRONG_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  21,
  2 ** 53,
  '',
  ' ',
  '\u200B',
  'x'.repeat(401),
  [],
  {},
];

/** Near-valid: one mutation of a valid document, as the body's text. */
function nearValid(base: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  type Body = { requests: Record<string, unknown>[] };
  const field = fc.constantFrom('id', 'query', 'count', 'country', 'search_lang', 'safesearch', 'filter_tabloids');
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('drop' as const), field }),
    fc.record({
      kind: fc.constant('unknown' as const),
      field: fc.constantFrom('max_results', 'offset', 'Query', 'query '),
    }),
    fc.record({ kind: fc.constant('rootUnknown' as const), field: fc.constantFrom('extra', 'request') }),
    fc.record({ kind: fc.constant('wrong' as const), field, value: fc.constantFrom(...WRONG_VALUES) }),
    fc.record({ kind: fc.constant('raw' as const), field, value: fc.constantFrom(...RAW_NUMBERS) }),
    fc.record({ kind: fc.constant('duplicateId' as const), value: fc.constantFrom<unknown>(1, '1', 'q') }),
    fc.record({ kind: fc.constant('items' as const), value: fc.constantFrom(0, 6) }),
    fc.record({
      kind: fc.constant('body' as const),
      value: fc.constantFrom('null', '[]', '"text"', '{', '{"requests":', ''),
    }),
  );
  return fc.tuple(base, mutation, fc.nat()).map(([generated, m, pick]) => {
    const body = structuredClone(generated) as Body;
    const item = body.requests[pick % body.requests.length] as Record<string, unknown>;
    const RAW = '__raw_number__';
    let raw: string | undefined;
    switch (m.kind) {
      case 'drop':
        delete item[m.field];
        break;
      case 'unknown':
        item[m.field] = 5;
        break;
      case 'rootUnknown':
        (body as unknown as Record<string, unknown>)[m.field] = [];
        break;
      case 'wrong':
        item[m.field] = m.value;
        break;
      case 'raw':
        item[m.field] = RAW;
        raw = m.value;
        break;
      case 'duplicateId':
        body.requests = [
          { ...item, id: m.value },
          { query: 'rust', id: String(m.value) },
        ];
        break;
      case 'items':
        body.requests = Array.from({ length: m.value }, (_, i) => ({ query: `q${i}` }));
        break;
      case 'body':
        return m.value;
    }
    const text = JSON.stringify(body);
    return raw === undefined ? text : text.replace(`"${RAW}"`, raw);
  });
}

/** Whether the issue path `requests[0].query` names something in `body` ('' is the body itself). */
function pathIn(body: unknown, path: string): boolean {
  let node: unknown = body;
  for (const [, key, index] of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (node === null || typeof node !== 'object') return false;
    const step = index ?? key ?? '';
    if (index !== undefined ? !Array.isArray(node) : Array.isArray(node)) return false;
    if (!Object.hasOwn(node, step)) return false;
    node = (node as Record<string, unknown>)[step];
  }
  return true;
}

/** The parent of an issue path: `requests[0]` for `requests[0].query`. */
function parentOf(path: string): string {
  return path.replace(/(\.[^.[\]]+|\[\d+\])$|^[^.[\]]+$/, '');
}

const REQUIRED = new RegExp(`^\\S+${ISSUE_MESSAGES.required.replace('{field}', '')}$`);

function withoutRequestId(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return body;
  const { request_id: _, ...rest } = body as Record<string, unknown>;
  return rest;
}

let brave: BraveFixture;
let server: TestServer;
let validatorFor: (status: number) => ValidateFunction;

beforeAll(async () => {
  brave = await startBraveFixture();
  server = await startTestServer(brave);
  validatorFor = validators();
});
afterAll(async () => {
  await server?.close();
  await brave?.close();
});

/** What the engine in this process answers for the same body, as the REST body would carry it. */
async function inProcess(text: string): Promise<{ status: number; body: unknown } | undefined> {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    return undefined; // the transport's refusal; the engine never sees such a body
  }
  try {
    const { json } = await server.engine.search(input);
    const body = JSON.parse(json) as { results: { error?: unknown }[] };
    return { status: searchStatus(body.results), body };
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    const body = errorResponse(error.code as ErrorCode, {
      message: error.message,
      ...(error.issues ? { issues: error.issues } : {}),
    });
    return { status: httpStatus(error.code), body: JSON.parse(JSON.stringify(body)) };
  }
}

/** Posts `text` and checks everything the issue asks of one answer. */
async function check(text: string): Promise<number> {
  const response = await fetch(`${server.url}${PATHS.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
  const body = (await response.json()) as { code?: string; issues?: { path: string; message: string }[] };
  // Never a 500; a 502 only when the provider failed every group (the fixture's failure scenarios).
  expect([200, 400, 502], text).toContain(response.status);
  const validate = validatorFor(response.status);
  expect(validate(body), `${text}\n${JSON.stringify(validate.errors)}`).toBe(true);
  if (response.status === 400) {
    let sent: unknown;
    try {
      sent = JSON.parse(text);
    } catch {
      expect(body.issues).toEqual([{ path: '', message: issueMessage('bodyNotJson') }]);
      return response.status;
    }
    expect(body.issues?.length, text).toBeGreaterThan(0);
    for (const issue of body.issues ?? []) {
      expect(isIssueMessage(issue.message), `${text}\n${issue.message}`).toBe(true);
      // A missing field is named where it belongs: its parent is in the body.
      const named = REQUIRED.test(issue.message) ? parentOf(issue.path) : issue.path;
      expect(pathIn(sent, named), `${text}\n${issue.path}`).toBe(true);
    }
  }
  const local = await inProcess(text);
  if (local !== undefined) {
    expect(response.status, text).toBe(local.status);
    expect(withoutRequestId(body), text).toEqual(withoutRequestId(local.body));
  }
  return response.status;
}

describe('REST search body fuzzing (seeded, time-capped)', () => {
  const request = valid({ $ref: `${REF}WebSearchRequest` });

  it('valid documents: a 200 or a 502 of provider failures, valid by the document, as the engine answers', async () => {
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(request, async (body) => {
        statuses.push(await check(JSON.stringify(body)));
      }),
      { seed: SEED, numRuns: 150, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
    );
    // The generator reaches searches that run, not only refusals (blank queries, Brave's limits).
    expect(statuses).toContain(200);
  });

  it('near-valid documents: never a 500, issues at paths in the body, in the contract’s words', async () => {
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(nearValid(request), async (text) => {
        statuses.push(await check(text));
      }),
      { seed: SEED, numRuns: 300, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
    );
    expect(statuses).toContain(400);
  });

  it('the oracle tells the contract’s wording from a library default', () => {
    expect(isIssueMessage('Too big: expected int to be <=9007199254740991')).toBe(false);
    expect(REQUIRED.test(issueMessage('required', { field: 'query' }))).toBe(true);
    expect(pathIn({ requests: [{ query: 'x' }] }, 'requests[0].query')).toBe(true);
    expect(pathIn({ requests: [{ query: 'x' }] }, 'requests[1].query')).toBe(false);
    expect(parentOf('requests[0].query')).toBe('requests[0]');
    expect(parentOf('requests')).toBe('');
  });
});
