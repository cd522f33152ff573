// The contract accepts a valid request without zod (`acceptItems`, from each field's `accepts` in
// the field table) and leaves every other to the schemas. These properties hold the two verdicts
// equal: per field, `accepts` says what its schema says on valid, refused and arbitrary values; per
// request, what `acceptItems` takes the schema takes and normalizes alike, every valid request is
// taken, and a broken one never is. Seeded (OPENMATES_PROPERTY_SEED, default 20261; a failure prints
// the seed and the shrunk counterexample). A few seconds of CPU.
import {
  acceptItems,
  contractRequestSchema,
  normalizeParsed,
  normalizeRequest,
  REQUEST_FIELDS,
  type RequestField,
} from '@openmates/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brokenRequest, invalidValue, validRequest, validValue } from './testing/index.ts';

const SEED = Number(process.env.OPENMATES_PROPERTY_SEED ?? 20261);
const PARAMETERS = { seed: SEED, numRuns: 2_000 };

const words = {
  hits: ['rust', 'fetch', 'abort', 'signal', 'Zürich', '東京', '👩\u200D💻', 'css grid'],
  misses: ['', ' ', '\u0000', '\uFEFF', '\u200B', '"', '<b>', '\u202E', 'x'.repeat(401)],
  hosts: ['example.org', 'docs.example.org', 'example.com', 'bücher.example', 'xn--bcher-kva.example', 'EXAMPLE.org.'],
};

/** Any value a JSON body (or a program calling the SDK) may hand a field. */
const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom<unknown>(undefined, Number.NaN, Number.POSITIVE_INFINITY, -0, 2 ** 53, 1.5),
  // A sparse list: `accepts` must read its hole as zod does.
  fc.constant(Object.assign(new Array<unknown>(2), { 1: 'example.org' })),
  fc.string({ unit: 'grapheme', maxLength: 70 }),
);

/** Values for `field`: its valid ones, the ones its schema refuses, and anything. */
const valuesOf = (field: RequestField) => fc.oneof(validValue(field, words), invalidValue(field), anyValue);

const schemaTakes = (field: RequestField, value: unknown) => field.schema.safeParse(value).success;

describe('accepting a request without zod', () => {
  it('gives each field of the table an `accepts`', () => {
    expect(REQUEST_FIELDS.filter((field) => field.accepts === undefined).map((field) => field.name)).toEqual([]);
  });

  it.each(REQUEST_FIELDS.map((field) => [field.name, field] as const))(
    '`accepts` of %s says what its schema says',
    (_name, field) => {
      fc.assert(
        fc.property(valuesOf(field), (value) => {
          expect(field.accepts?.(value), JSON.stringify(value)).toBe(schemaTakes(field, value));
        }),
        PARAMETERS,
      );
    },
  );

  it('takes every valid request and normalizes it as the schema path does', () => {
    fc.assert(
      fc.property(validRequest(REQUEST_FIELDS, words), (request) => {
        expect(acceptItems(request)).toBeDefined();
        const parsed = contractRequestSchema().parse(request);
        expect(normalizeRequest(request)).toEqual({ ok: true, request: normalizeParsed(parsed) });
      }),
      PARAMETERS,
    );
  });

  it('never takes a broken request, which the schema refuses', () => {
    fc.assert(
      fc.property(brokenRequest(REQUEST_FIELDS, words), ({ request }) => {
        expect(contractRequestSchema().safeParse(request).success).toBe(false);
        expect(acceptItems(request)).toBeUndefined();
      }),
      PARAMETERS,
    );
  });

  it('takes what the schema takes and nothing else, whatever the body', () => {
    const item = fc.dictionary(
      fc.constantFrom(...REQUEST_FIELDS.map((field) => field.name), 'Query', '__proto__', 'constructor'),
      anyValue,
    );
    const body = fc.oneof(
      fc.record({ requests: fc.array(item, { minLength: 0, maxLength: 6 }) }),
      fc.record({ requests: anyValue }),
      anyValue,
    );
    fc.assert(
      fc.property(body, (request) => {
        expect(acceptItems(request) !== undefined).toBe(contractRequestSchema().safeParse(request).success);
      }),
      PARAMETERS,
    );
  });
});
