import { Readable } from 'node:stream';
import { Parser } from '@oclif/core';
import { REQUEST_FIELDS, type RequestField, type RequestFields } from '@openmates/contract';
import { LIST_PROBE_FIELD as LIST_PROBE, PROBE_FIELD as PROBE } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import Search, { oclifSearchFlags, searchArgs, searchFlags } from '../src/commands/search.ts';
import { parseFastSearchArgs } from '../src/fast-search.ts';
import { buildRequest, UsageError } from '../src/search/build-request.ts';
import { COMMAND_FLAGS, type SearchFlagValues, searchFlagTable, switchGivenValue } from '../src/search/search-flags.ts';

// Throwaway fields added to a copy of the contract's table: a flag appears on both parsers and
// reaches the built request from its table entry alone.
const TABLE: RequestFields = [...REQUEST_FIELDS, PROBE, LIST_PROBE];

const noStdin = () => Readable.from([]);

/** The request `openmates search ARGV` builds through the oclif command's parser. */
async function viaOclif(argv: string[], fields: RequestFields = TABLE) {
  const parsed = await Parser.parse(argv, { flags: oclifSearchFlags(fields), args: searchArgs, strict: Search.strict });
  return buildRequest(parsed.argv as string[], parsed.flags as SearchFlagValues, noStdin, fields);
}

/** The request `openmates search ARGV` builds through the fast path of `bin/run.js`. */
async function viaFastPath(argv: string[], fields: RequestFields = TABLE) {
  const parsed = parseFastSearchArgs(argv, fields);
  if (!parsed) throw new Error(`the fast path declined ${argv.join(' ')}`);
  return buildRequest(parsed.positionals, parsed.values, noStdin, fields);
}

describe.each([
  ['oclif', viaOclif],
  ['the fast path', viaFastPath],
])('request flags from the field table, parsed by %s', (_parser, build) => {
  it('sets a new text field from its table entry alone', async () => {
    expect(await build(['q', '--x-probe', 'v'])).toEqual({ requests: [{ query: 'q', x_probe: 'v' }] });
  });

  it('collects a repeated list flag, one value per occurrence, queries staying queries', async () => {
    expect(await build(['--x-list', 'a', 'q1', '--x-list', 'b', 'q2'])).toEqual({
      requests: [
        { query: 'q1', x_list: ['a', 'b'] },
        { query: 'q2', x_list: ['a', 'b'] },
      ],
    });
  });

  it("maps each existing flag to its field's wire name, every query getting it", async () => {
    const argv = ['a', 'b', '--count', '5', '--country', 'DE', '--lang', 'de', '--safesearch', 'off'];
    const options = { count: 5, country: 'DE', search_lang: 'de', safesearch: 'off', filter_tabloids: false };
    expect(await build([...argv, '--no-filter-tabloids'])).toEqual({
      requests: [
        { query: 'a', ...options },
        { query: 'b', ...options },
      ],
    });
    expect(await build(['a', '--filter-tabloids'])).toEqual({ requests: [{ query: 'a', filter_tabloids: true }] });
  });

  it('passes a value the contract must judge as typed', async () => {
    expect(await build(['a', '--count', 'abc'])).toEqual({ requests: [{ query: 'a', count: 'abc' }] });
  });

  it('refuses a new field with --input, naming its flag', async () => {
    const refused = build(['--input', '-', '--x-probe', 'v']);
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toThrow('--x-probe cannot be combined with --input');
  });
});

describe('the flag tables', () => {
  it('declares every flagged field and every command flag for oclif, as the fast path does', () => {
    const flagged = REQUEST_FIELDS.flatMap((field: RequestField) => (field.flag ? [field.flag.name] : []));
    expect(Object.keys(searchFlags)).toEqual([...flagged, ...Object.keys(COMMAND_FLAGS)]);
    expect(Object.keys(searchFlagTable())).toEqual(Object.keys(searchFlags));
    expect(Search.flags).toBe(searchFlags);
  });

  it("gives oclif's help the entry's value name and help line", () => {
    const flags = oclifSearchFlags(TABLE);
    expect(flags['x-probe']).toMatchObject({ type: 'option', helpValue: 'V', description: 'The probe.' });
    expect(flags['x-list']).toMatchObject({ type: 'option', multiple: true, helpValue: 'ITEM' });
    expect(flags['filter-tabloids']).toMatchObject({ type: 'boolean', allowNo: true });
    expect(flags.count).toMatchObject({ helpValue: 'N', description: expect.stringContaining('Results per query') });
  });

  it('leaves to oclif any --no- that is not a boolean field, and a flag it does not know', () => {
    for (const argv of [
      ['q', '--no-x-probe'],
      ['q', '--no-json'],
      ['q', '--no-count'],
      ['q', '--bogus'],
    ])
      expect(parseFastSearchArgs(argv, TABLE)).toBeUndefined();
    expect(parseFastSearchArgs(['q', '--no-filter-tabloids'], TABLE)?.values['filter-tabloids']).toBe(false);
  });

  it('refuses a field whose flag would shadow a command flag', () => {
    const clash: RequestField = { ...PROBE, flag: { name: 'json', help: 'Clash.' } };
    expect(() => searchFlagTable([...REQUEST_FIELDS, clash])).toThrow('--json');
  });
});

describe('a switch written with a value', () => {
  it('is found as typed: the switches of the field table, their --no- forms and the command switches', () => {
    expect(switchGivenValue(['q', '--json=1'])).toBe('--json=1');
    expect(switchGivenValue(['--filter-tabloids=false', 'q'])).toBe('--filter-tabloids=false');
    expect(switchGivenValue(['q', '--no-extra-snippets=yes'])).toBe('--no-extra-snippets=yes');
  });

  it('leaves value flags, plain switches and queries after -- alone', () => {
    expect(switchGivenValue(['q', '--count=5', '--json', '--no-filter-tabloids', '--lang=de'])).toBeUndefined();
    expect(switchGivenValue(['--', '--json=1'])).toBeUndefined();
    expect(switchGivenValue(['a=b', '-i=-'])).toBeUndefined();
  });
});
