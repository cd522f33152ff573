// The CLI column also types each request it can as flags built from the field table: this shows
// which requests that is, so a scope case is proven on the flags too, not only on --input.
import { describe, expect, it } from 'vitest';
import { CASES } from './cases/index.ts';
import { flagLine } from './drivers/cli-driver.ts';

const lineOf = (name: string) => flagLine(CASES.find((c) => c.name === name)?.request);

describe('the CLI driver’s flag line', () => {
  it('says a scoped request with repeated list flags, from the table', () => {
    expect(lineOf('scope-include-brave')).toEqual([
      'scoped docs',
      '--count',
      '10',
      '--include-domain',
      'Docs.Example.ORG',
    ]);
    expect(lineOf('freshness-week-brave')).toEqual(['scoped recent', '--count', '5', '--freshness', 'Week']);
    expect(lineOf('scope-exclude-covers-include')).toEqual([
      'a',
      '--include-domain',
      'docs.example.org',
      '--exclude-domain',
      'example.net',
      '--exclude-domain',
      'example.org',
    ]);
  });

  it('leaves out what flags cannot say: ids, options that differ per query, a number written as text', () => {
    expect(lineOf('freshness-range-brave')).toBeUndefined();
    expect(lineOf('scope-bad-freshness')).toBeUndefined();
    expect(lineOf('count-out-of-range')).toBeUndefined();
    expect(flagLine({ requests: [{ query: 'a', count: '5' }] })).toBeUndefined();
    expect(flagLine({ requests: [{ query: 'a', filter_tabloids: false }] })).toEqual(['a', '--no-filter-tabloids']);
  });

  it('covers most cases, so the flags are exercised widely', () => {
    const said = CASES.filter((c) => c.http === undefined && flagLine(c.request) !== undefined);
    expect(said.length).toBeGreaterThanOrEqual(20);
  });
});
