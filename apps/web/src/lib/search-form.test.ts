import { describe, expect, it } from 'vitest';
import { blankRow, formIntent, readSearchForm, toSearchRequest } from './search-form.ts';

const intentOf = (query: string) => {
  const params = new URLSearchParams(query);
  return formIntent(params, readSearchForm(params));
};

describe('search form', () => {
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
