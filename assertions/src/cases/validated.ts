import type { ParityCase } from '../case.ts';

const invalid = (issuePaths: string[]) => ({ code: 'invalid_request' as const, issuePaths, groups: [] });
const assertion = 'web-search.request.validated' as const;

/** Validation cases: every one is refused before any provider call. */
export const validatedCases: ParityCase[] = [
  {
    name: 'empty-batch',
    assertion,
    description: 'A batch with no items is refused.',
    request: { requests: [] },
    formCannotExpress: 'batch size: the form always submits at least one query field.',
    expect: invalid(['requests']),
  },
  {
    name: 'six-queries',
    assertion,
    description: 'A batch of six queries is refused: at most five.',
    request: { requests: ['a', 'b', 'c', 'd', 'e', 'f'].map((query) => ({ query })) },
    formCannotExpress: 'batch size: the form offers at most five query fields.',
    expect: invalid(['requests']),
  },
  {
    name: 'requests-not-an-array',
    assertion,
    description: 'A string where the batch belongs is refused with one issue, not one per check it fails.',
    request: { requests: 'css grid' },
    formCannotExpress: 'batch shape: the form always submits an array of query fields.',
    expect: invalid(['requests']),
  },
  {
    name: 'blank-query',
    assertion,
    description: 'A query of only whitespace and zero-width characters is blank.',
    request: { requests: [{ query: ' \u200B\u00A0\n' }] },
    expect: invalid(['requests[0].query']),
  },
  {
    name: 'long-query',
    assertion,
    description: 'A query over 400 code points is refused.',
    request: { requests: [{ query: 'x'.repeat(401) }] },
    expect: invalid(['requests[0].query']),
  },
  {
    name: 'count-out-of-range',
    assertion,
    description: 'count 0 and 21 are refused, a string count is a type error.',
    request: {
      requests: [
        { query: 'a', count: 0 },
        { query: 'b', count: 21 },
        { query: 'c', count: '5' },
      ],
    },
    formCannotExpress: 'JSON type: the string "5" as count; the form sends digits in the count field as a number.',
    expect: invalid(['requests[0].count', 'requests[1].count', 'requests[2].count']),
  },
  {
    name: 'id-past-safe-integer',
    assertion,
    description: 'A numeric id past 2^53 − 1 is refused with the contract’s message, not a library default.',
    request: { requests: [{ id: 2 ** 64, query: 'rust' }] },
    expect: invalid(['requests[0].id']),
  },
  {
    name: 'unknown-field',
    assertion,
    description: 'An unknown field such as max_results is named, not ignored.',
    request: { requests: [{ query: 'rust', max_results: 5 }] },
    formCannotExpress: 'unknown field: the form has a control for each field of the contract and no other.',
    expect: invalid(['requests[0].max_results']),
  },
  {
    name: 'duplicate-ids',
    assertion,
    description: 'Ids 1 and "1" collide: ids are compared as strings.',
    request: {
      requests: [
        { id: 1, query: 'a' },
        { id: '1', query: 'b' },
      ],
    },
    expect: invalid(['requests[1].id']),
  },
  {
    name: 'bad-language',
    assertion,
    description: 'search_lang must be an ISO 639-1 code.',
    request: { requests: [{ query: 'a', search_lang: 'english' }] },
    expect: invalid(['requests[0].search_lang']),
  },
  {
    name: 'brave-word-limit',
    assertion,
    description: 'Brave accepts at most 50 words per query; the engine refuses 51 before calling it.',
    request: { requests: [{ query: Array.from({ length: 51 }, (_, i) => `w${i}`).join(' ') }] },
    surfaces: ['core', 'rest', 'trpc', 'sdk', 'cli', 'web'],
    expect: invalid(['requests[0].query']),
  },
  {
    name: 'not-json',
    assertion,
    description: 'A body that is not JSON is a 400 naming the body.',
    request: undefined,
    http: { body: '{"requests": [', contentType: 'application/json' },
    expect: invalid(['']),
  },
];
