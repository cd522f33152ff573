import { describe, expect, it } from 'vitest';
import { firstDifference, normalizeDocument, REQUEST_ID_PLACEHOLDER } from './document.ts';
import { type CaseRun, compareSurfaces, renderDisagreements } from './report.ts';

describe('whole-document comparison', () => {
  it('normalizes a UUID request id only, and keeps any other value', () => {
    const uuid = '0b6f8f7e-3c1a-4d1e-9a59-2f1c0e5b7a10';
    expect(normalizeDocument({ request_id: uuid, results: [] })).toEqual({
      request_id: REQUEST_ID_PLACEHOLDER,
      results: [],
    });
    expect(normalizeDocument({ request_id: 'not-a-uuid' })).toEqual({ request_id: 'not-a-uuid' });
  });

  it('names the first differing JSON path with both values, absent leaves included', () => {
    const a = { results: [{ id: 1, results: [{ url: 'u', meta_url: { favicon: 'https://f' } }] }] };
    const b = { results: [{ id: 1, results: [{ url: 'u', meta_url: {} }] }] };
    expect(firstDifference(a, b)).toEqual({
      path: '$.results[0].results[0].meta_url.favicon',
      expected: 'https://f',
      actual: undefined,
    });
    expect(firstDifference(a, structuredClone(a))).toBeUndefined();
    expect(firstDifference({ x: [1, 2] }, { x: [1] })?.path).toBe('$.x[1]');
  });

  it('reports a failed parity cell with the path and both values', () => {
    const run = (surface: CaseRun['surface'], document: unknown): CaseRun => ({
      case: 'c',
      assertion: 'web-search.results.bounded',
      surface,
      passed: true,
      outcome: '{"groups":[]}',
      document,
    });
    const { cells, disagreements } = compareSurfaces([
      run('core', { provider: 'Brave Search' }),
      run('rest', { provider: 'Brave Search' }),
      run('sdk', { provider: 'Brave' }),
    ]);
    expect(cells).toEqual({
      core: { passed: 1, total: 1 },
      rest: { passed: 1, total: 1 },
      sdk: { passed: 0, total: 1 },
    });
    expect(renderDisagreements(disagreements)).toEqual([
      'c: sdk differs from core (document) at $.provider: core "Brave Search", sdk "Brave"',
    ]);
  });

  it('holds a surface without a document (the GUI) to the outcome only', () => {
    const run = (surface: CaseRun['surface'], outcome: string, document?: unknown): CaseRun => ({
      case: 'c',
      assertion: 'web-search.results.bounded',
      surface,
      passed: true,
      outcome,
      ...(document === undefined ? {} : { document }),
    });
    const agreeing = compareSurfaces([run('core', '{"groups":[]}', { provider: 'p' }), run('web', '{"groups":[]}')]);
    expect(agreeing.disagreements).toEqual([]);
    const differing = compareSurfaces([run('core', '{"groups":[]}', { provider: 'p' }), run('web', '{"code":"x"}')]);
    expect(differing.disagreements).toMatchObject([{ surface: 'web', compared: 'outcome', path: '$.code' }]);
  });
});
