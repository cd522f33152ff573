import { describe, expect, it } from 'vitest';
import { ENGINE_ENVIRONMENT, SELECTION_ENVIRONMENT } from '../config.ts';
import { PROVIDER_MODULES } from '../providers/registry.ts';
import { type EnvTable, ONE_PARSE, readEnv, readerOf, tableSchema } from './env-schema.ts';

// `readEnv` reads a table one variable at a time and skips the schema of an unset one; zod's object
// over the whole table (`tableSchema`) is the reference it must agree with on every environment.
const TABLES: [string, EnvTable][] = [
  ['selection', SELECTION_ENVIRONMENT],
  ['engine', ENGINE_ENVIRONMENT],
  ...Object.values(PROVIDER_MODULES).map((module): [string, EnvTable] => [module.id, module.environment]),
];

/** Values every variable is tried with: blanks, each kind's valid forms, and wrong ones. */
const SAMPLES = [
  '',
  '   ',
  '0',
  '7',
  ' 12 ',
  '-3',
  '1.5',
  '99999999999999999999',
  'abc',
  'INFO',
  'silent',
  'local',
  'brave,local',
  'local,local',
  'local=2',
  'brave=1,local=x',
  'http://127.0.0.1:9/v1/',
  'https://user:pa%20ss@search.example/sub/',
  'ftp://example.org',
  'redis://127.0.0.1:6379',
  'a'.repeat(16),
  'gpt-5.4',
  'prefix:',
  ' Brave , LOCAL ',
  'openai,searxng',
  'nope',
  'Debug',
  ' warn',
  '/tmp/index.db',
  'https://api.search.brave.com/res/v1',
  'http://[::1]:8080//',
  'http://',
  '00012',
  '262144',
];

function byZod(table: EnvTable, env: Record<string, string | undefined>) {
  const parsed = tableSchema(table).safeParse(env, ONE_PARSE);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, issues: parsed.error.issues.map((issue) => issue.message) };
}

describe.each(TABLES)('the %s environment table', (_name, table) => {
  it.each(Object.keys(table))('declares what %s yields while unset', (name) => {
    const variable = table[name];
    expect(variable?.schema().safeParse(undefined, ONE_PARSE)).toEqual({ success: true, data: variable?.unset });
  });

  it('is read as zod reads the whole table, when nothing is set', () => {
    expect(readEnv(table, {})).toEqual(byZod(table, {}));
  });

  it.each(SAMPLES)('is read as zod reads the whole table, every variable set to %j', (value) => {
    const env = Object.fromEntries(Object.keys(table).map((name) => [name, value]));
    expect(readEnv(table, env)).toEqual(byZod(table, env));
    // One variable set at a time, the others unset.
    for (const name of Object.keys(table))
      expect(readEnv(table, { [name]: value })).toEqual(byZod(table, { [name]: value }));
  });
});

describe.each(TABLES)('the readers of the %s table', (_name, table) => {
  const read = Object.entries(table).flatMap(([name, variable]) => {
    const reader = readerOf(variable.schema);
    return reader ? [[name, reader, variable.schema] as const] : [];
  });

  it.each(read.map(([name]) => name))('read %s as its schema parses it, where they answer', (name) => {
    const [, reader, schema] = read.find(([found]) => found === name) ?? [];
    if (!reader || !schema) throw new Error(`no reader for ${name}`);
    let answered = 0;
    for (const value of SAMPLES) {
      const fast = reader(value);
      if (fast === undefined) continue;
      answered += 1;
      expect(schema().safeParse(value, ONE_PARSE), JSON.stringify(value)).toEqual({ success: true, data: fast });
    }
    // A reader that never answers would pass the check above and save nothing.
    expect(answered).toBeGreaterThan(0);
  });
});

describe('the readers', () => {
  it('cover the variables a local search sets', () => {
    const tables = Object.fromEntries(TABLES);
    for (const [table, name] of [
      ['selection', 'OPENMATES_PROVIDER'],
      ['engine', 'OPENMATES_CACHE_TTL_S'],
      ['engine', 'OPENMATES_LOG_LEVEL'],
      ['local', 'OPENMATES_INDEX'],
      ['brave', 'BRAVE_SEARCH_API_KEY'],
      ['brave', 'BRAVE_SEARCH_BASE_URL'],
    ] as const)
      expect(readerOf(tables[table]?.[name]?.schema ?? (() => tableSchema({}))), name).toBeTypeOf('function');
  });
});
