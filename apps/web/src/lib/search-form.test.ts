import { REQUEST_FIELDS, type RequestField, type RequestFields, z } from '@openmates/contract';
import { PROBE_FIELD as PROBE } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import {
  blankRow,
  formIntent,
  optionSummary,
  readSearchForm,
  rowParams,
  shareableLink,
  toSearchRequest,
} from './search-form.ts';

const intentOf = (query: string) => {
  const params = new URLSearchParams(query);
  return formIntent(params, readSearchForm(params));
};

describe('search form', () => {
  it('builds the request a link shared before the form was built from the field table built', () => {
    expect(intentOf('q=a&q=b&count=3&lang=de&tabloids=off&id=7&idtype=number')).toEqual({
      kind: 'search',
      request: {
        requests: [
          { id: 7, query: 'a', count: 3, search_lang: 'de', filter_tabloids: false },
          { query: 'b', count: 3, search_lang: 'de', filter_tabloids: false },
        ],
      },
    });
    // Key order too: the body the API receives is the same JSON text.
    const intent = intentOf('q=%20a%20&count=%204%20&tabloids=YES&id=%20x%20&safesearch=OFF&country=de');
    expect(JSON.stringify(intent.kind === 'search' && intent.request)).toBe(
      '{"requests":[{"id":" x ","query":" a ","count":4,"country":"de","safesearch":"OFF","filter_tabloids":true}]}',
    );
  });

  it('keeps the link parameters and the row keys of the field table', () => {
    expect(rowParams().map(({ key, param, broadcast }) => [key, param, broadcast])).toEqual([
      ['id', 'id', false],
      ['idtype', 'idtype', false],
      ['count', 'count', true],
      ['topic', 'topic', true],
      ['page', 'page', true],
      ['country', 'country', true],
      ['search_lang', 'lang', true],
      ['safesearch', 'safesearch', true],
      ['filter_tabloids', 'tabloids', true],
      ['freshness', 'freshness', true],
      ['include_domains', 'include', true],
      ['exclude_domains', 'exclude', true],
      ['extra_snippets', 'excerpts', true],
    ]);
    expect(blankRow('a')).toEqual({
      query: 'a',
      id: '',
      idtype: '',
      count: '',
      topic: '',
      page: '',
      country: '',
      search_lang: '',
      safesearch: '',
      filter_tabloids: '',
      freshness: '',
      include_domains: '',
      exclude_domains: '',
      extra_snippets: '',
    });
  });

  it('sends extra_snippets from its toggle (excerpts=on) as true, and nothing without it', () => {
    expect(intentOf('q=a&excerpts=on')).toEqual({
      kind: 'search',
      request: { requests: [{ query: 'a', extra_snippets: true }] },
    });
    expect(intentOf('q=a')).toEqual({ kind: 'search', request: { requests: [{ query: 'a' }] } });
  });

  it('maps every field of the GET form to the request, an option given once applied to each query', () => {
    expect(intentOf('q=a&q=b&count=3&country=de&lang=DE&safesearch=strict&tabloids=off')).toEqual({
      kind: 'search',
      request: {
        requests: ['a', 'b'].map((query) => ({
          query,
          count: 3,
          country: 'de',
          search_lang: 'DE',
          safesearch: 'strict',
          filter_tabloids: false,
        })),
      },
    });
  });

  it('leaves out options that were not given, so the API applies its defaults', () => {
    expect(intentOf('q=a&count=&country=')).toEqual({ kind: 'search', request: { requests: [{ query: 'a' }] } });
  });

  it('passes values of the wrong type through for the API to reject with its own issue paths', () => {
    const form = readSearchForm(new URLSearchParams('q=a&count=abc&tabloids=maybe'));
    expect(toSearchRequest(form).requests[0]).toEqual({ query: 'a', count: 'abc', filter_tabloids: 'maybe' });
    expect(toSearchRequest(readSearchForm(new URLSearchParams('q=a&count=1.5'))).requests[0]?.count).toBe(1.5);
  });

  it('keeps blank and surplus queries: validation belongs to the API', () => {
    const intent = intentOf('q=a&q=&q=c&q=d&q=e&q=f');
    expect(intent.kind === 'search' && intent.request.requests.map((r) => r.query)).toEqual([
      'a',
      '',
      'c',
      'd',
      'e',
      'f',
    ]);
  });

  it('sends ids from a shared link, aligned with the queries, as strings unless typed as numbers', () => {
    const intent = intentOf('q=a&q=b&id=first&id=7');
    expect(intent.kind === 'search' && intent.request.requests.map((r) => r.id)).toEqual(['first', '7']);
    const partial = intentOf('q=a&q=b&id=x');
    expect(partial.kind === 'search' && partial.request.requests).toEqual([{ id: 'x', query: 'a' }, { query: 'b' }]);
    const typed = intentOf('q=a&q=b&q=c&id=1&id=1&id=&idtype=number&idtype=&idtype=number');
    expect(typed.kind === 'search' && typed.request.requests).toEqual([
      { id: 1, query: 'a' },
      { id: '1', query: 'b' },
      { query: 'c' },
    ]);
    const notNumber = intentOf('q=a&id=one&idtype=number');
    expect(notNumber.kind === 'search' && notNumber.request.requests[0]?.id).toBeNull();
  });

  it('reads options positionally: the n-th value belongs to the n-th query, blank for the default', () => {
    const intent = intentOf(
      'q=a&id=&idtype=&count=3&country=&lang=de&safesearch=strict&tabloids=&q=b&id=&idtype=&count=&country=fr&lang=&safesearch=&tabloids=off',
    );
    expect(intent).toEqual({
      kind: 'search',
      request: {
        requests: [
          { query: 'a', count: 3, search_lang: 'de', safesearch: 'strict' },
          { query: 'b', country: 'fr', filter_tabloids: false },
        ],
      },
    });
  });

  it('shares a submitted form as a link with only what differs from the defaults, which reads back as the same search', () => {
    // What the browser submits: every control of every row, empty ones too, the carried id included.
    const params = new URLSearchParams();
    const rows = [
      { q: 'rust ownership', id: '', idtype: '', count: '3', lang: '' },
      { q: 'svelte runes', id: '7', idtype: 'number', count: '', lang: 'de' },
    ];
    for (const row of rows) for (const [name, value] of Object.entries(row)) params.append(name, value);
    for (const { param } of rowParams()) if (!params.has(param)) for (const _ of rows) params.append(param, '');
    const link = shareableLink(params);
    expect(link).toBe('/?q=rust+ownership&q=svelte+runes&id=&id=7&idtype=&idtype=number&count=3&count=&lang=&lang=de');
    const shared = new URLSearchParams(link.slice(2));
    // No parameter that no query sets: the blank values left are those a query sets aligned with another's.
    for (const name of new Set(shared.keys()))
      expect(
        shared.getAll(name).some((v) => v !== ''),
        name,
      ).toBe(true);
    expect(formIntent(shared, readSearchForm(shared))).toEqual(formIntent(params, readSearchForm(params)));
    // A link already in that form is its own shareable link.
    expect(shareableLink(shared)).toBe(link);
    expect(shareableLink(new URLSearchParams('q=a&count=&lang='))).toBe('/?q=a');
  });

  it('is idle without queries, and the add/remove buttons edit fields without searching', () => {
    expect(intentOf('')).toEqual({ kind: 'idle' });
    expect(intentOf('q=a&add=1')).toEqual({ kind: 'edit' });
    const queries = (query: string) => readSearchForm(new URLSearchParams(query)).rows.map((row) => row.query);
    expect(queries('q=a&add=1')).toEqual(['a', '']);
    expect(queries('q=a&q=b&q=c&remove=1')).toEqual(['a', 'c']);
    expect(readSearchForm(new URLSearchParams('q=a&q=b&count=1&count=2&remove=0')).rows).toEqual([
      { ...blankRow('b'), count: '2' },
    ]);
    expect(queries('q=a&remove=0')).toEqual(['a']);
    expect(queries('q=1&q=2&q=3&q=4&q=5&add=1')).toHaveLength(5);
  });
});

describe('options summary', () => {
  it("names every option set, in table order, from each field's summary", () => {
    const [row] = readSearchForm(new URLSearchParams('q=a&id=7&idtype=number&count=3&lang=de&tabloids=0')).rows;
    expect(optionSummary(row ?? {})).toBe('id 7 (number), 3 results, language de, tabloids included');
    expect(optionSummary(blankRow('a'))).toBe('defaults');
  });
});

/** The table with one more field: what a new field of the contract would be. */
function withField(field: RequestField): RequestFields {
  return [...REQUEST_FIELDS, field];
}

const SITES: RequestField = {
  name: 'x_sites',
  kind: 'list',
  schema: z.array(z.string()),
  description: 'A list probe.',
  normalize: (v: string[] | undefined) => v,
  cacheKey: true,
  providerOption: true,
  control: { control: 'list', label: 'Sites', help: 'Domains.' },
  link: { param: 'sites', broadcast: true },
};

describe('a field added to the table', () => {
  it('reaches the request from its link parameter with no other change', () => {
    const fields = withField(PROBE);
    const params = new URLSearchParams('q=a&xp=v');
    const intent = formIntent(params, readSearchForm(params, fields), fields);
    expect(intent.kind === 'search' && intent.request.requests[0]).toEqual({ query: 'a', x_probe: 'v' });
    const item = intent.kind === 'search' ? (intent.request.requests[0] as Record<string, unknown>) : {};
    expect(item.x_probe).toBe('v');
    expect(blankRow('', fields).x_probe).toBe('');
    expect(optionSummary(readSearchForm(params, fields).rows[0] ?? {}, fields)).toBe('Probe: v');
  });

  it('reads a list field as one parameter value per query, entries joined by commas', () => {
    const fields = withField(SITES);
    const request = (link: string) => toSearchRequest(readSearchForm(new URLSearchParams(link), fields), fields);
    expect(request('q=a&q=b&sites=a.com,%20b.org&sites=').requests).toEqual([
      { query: 'a', x_sites: ['a.com', 'b.org'] },
      { query: 'b' },
    ]);
    expect(request('q=a&q=b&sites=c.net').requests).toEqual([
      { query: 'a', x_sites: ['c.net'] },
      { query: 'b', x_sites: ['c.net'] },
    ]);
    expect(request('q=a&sites=,').requests).toEqual([{ query: 'a', x_sites: [] }]);
  });
});
