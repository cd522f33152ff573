import { once } from '@openmates/contract';
import { z } from 'zod';

/** An environment as the process has it: every value a string, or unset. */
export type Env = Record<string, string | undefined>;

/** A configuration value is wrong; the message names the variable and never echoes a secret. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * A variable's schema, built at its first use (`once`): a table costs nothing at load, and a
 * process that reads only unset variables and values its readers answer for never runs zod, not
 * even to make a lazy schema (a process pays for its first zod schema).
 */
export type EnvSchema<S extends z.ZodType = z.ZodType> = () => S;

/**
 * Readers of a variable's value in its common form, without zod, by schema: `read(raw)` is the
 * value the schema parses `raw` to, or undefined to leave `raw` to the schema (a wrong value, a
 * blank, an unusual form). Running a schema first costs building it and compiling zod's code for
 * it, while a process parses each variable once; a test holds every reader to its schema's answer.
 */
const READERS = new WeakMap<EnvSchema, (raw: string) => unknown>();

/** `schema`, read by `read` where it answers (see `READERS`). */
export function withReader<S extends z.ZodType>(schema: EnvSchema<S>, read: (raw: string) => unknown): EnvSchema<S> {
  READERS.set(schema, read);
  return schema;
}

/** The reader of `schema`, if it has one. */
export function readerOf(schema: EnvSchema): ((raw: string) => unknown) | undefined {
  return READERS.get(schema);
}

/** A non-blank value as typed. */
const plainText = (raw: string) => (raw.trim() === '' ? undefined : raw);

/**
 * A whole number ≥ `min` (and ≤ `max` when given), or undefined when unset or blank. Like every
 * schema of an environment table, built on its first use (`EnvSchema`): a process sets few of the
 * variables it could read, and `parseEnv` never runs the schema of an unset one.
 */
export const wholeNumber = (name: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
  const message =
    max === Number.MAX_SAFE_INTEGER
      ? `${name} must be a whole number ≥ ${min}`
      : `${name} must be a whole number from ${min} to ${max}`;
  const inRange = (n: number) => n >= min && n <= max && Number.isSafeInteger(n);
  return withReader(
    once(() =>
      z.preprocess(
        blankToUndefined,
        z.string().regex(/^\d+$/, { message }).transform(Number).refine(inRange, { message }).optional(),
      ),
    ),
    (raw) => {
      const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
      return inRange(n) ? n : undefined;
    },
  );
};

/** An http(s) URL without trailing slashes, or undefined when unset or blank. */
export const httpUrl = (name: string) =>
  withReader(
    once(() =>
      z.preprocess(
        blankToUndefined,
        z
          .string()
          .refine(isHttpUrl, { message: `${name} must be an http(s) URL` })
          .transform(withoutTrailingSlashes)
          .optional(),
      ),
    ),
    (raw) => (raw.trim() !== '' && isHttpUrl(raw) ? withoutTrailingSlashes(raw) : undefined),
  );
const isHttpUrl = (s: string) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol);
const withoutTrailingSlashes = (s: string) => s.replace(/\/+$/, '');

/** Any text, or undefined when unset or blank. */
export const text = () =>
  withReader(
    once(() => z.preprocess(blankToUndefined, z.string().optional())),
    plainText,
  );

export const secret = text();

/**
 * How an environment is parsed: without zod's JIT, which compiles an object's parser with
 * `new Function` on its first parse and so only pays off over many parses, while a process reads
 * its environment once. Same results.
 */
export const ONE_PARSE = { jitless: true } as const;

/** What a table's parser yields: each variable's parsed value, by name. */
export type EnvValues<T extends EnvTable> = { -readonly [K in keyof T]: z.output<ReturnType<T[K]['schema']>> };

/**
 * Reads every variable of `table` from `env`, as `tableSchema(table)` would (the same values, the
 * same messages in the same order; a test holds them equal), one variable at a time: an unset one
 * takes its entry's `unset` value and a value its schema's reader answers for is taken from the
 * reader (`withReader`), neither building nor running the schema (ADR 0078). Returns the values,
 * or the message of every bad variable.
 */
export function readEnv<T extends EnvTable>(
  table: T,
  env: Env,
): { ok: true; data: EnvValues<T> } | { ok: false; issues: string[] } {
  const data: Record<string, unknown> = {};
  const issues: string[] = [];
  for (const [name, variable] of Object.entries(table)) {
    const raw = env[name];
    if (raw === undefined) {
      if (variable.unset !== undefined) data[name] = variable.unset;
      continue;
    }
    const read = readerOf(variable.schema)?.(raw);
    if (read !== undefined) {
      data[name] = read;
      continue;
    }
    const parsed = variable.schema().safeParse(raw, ONE_PARSE);
    if (!parsed.success) issues.push(...parsed.error.issues.map((issue) => issue.message));
    else if (parsed.data !== undefined) data[name] = parsed.data;
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, data: data as EnvValues<T> };
}

/** Reads `table` from `env` (`readEnv`); throws a ConfigError naming every bad variable, one per line. */
export function parseEnv<T extends EnvTable>(table: T, env: Env): EnvValues<T> {
  const read = readEnv(table, env);
  if (!read.ok) throw new ConfigError(read.issues.join('\n'));
  return read.data;
}

/** True when the variable holds more than blanks. */
export function isSet(env: Env, name: string): boolean {
  return (env[name]?.trim() ?? '') !== '';
}

/** The host of a URL, for messages that must not show its path or credentials. */
export function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : url;
}

/**
 * One environment variable as the code that reads it declares it: the schema parses it, and
 * docs/reference.md prints its default and description from the same entry, so the page cannot
 * name a variable the parser does not read, nor a default it does not apply. Plain data: a table
 * costs nothing at load, its schemas being built on their first use (`EnvSchema`).
 */
export interface EnvVariable<S extends z.ZodType = z.ZodType> {
  /** Parses the variable's value; `undefined` while it is unset. */
  readonly schema: EnvSchema<S>;
  /**
   * What `schema` yields for an unset variable, so that `readEnv` need not run it: `withDefault`'s
   * value; absent when that is `undefined`. A test holds every entry to its schema's own answer.
   */
  readonly unset?: unknown;
  /** What it does, in one line. */
  readonly description: string;
  /** What holds while it is unset, as the reference shows it; absent when nothing does. */
  readonly default?: string;
}

/** The variables one parser reads, by name. */
export type EnvTable = Readonly<Record<string, EnvVariable>>;

/** The zod object that parses every variable of `table`. */
export function tableSchema<T extends EnvTable>(
  table: T,
): z.ZodObject<{ -readonly [K in keyof T]: ReturnType<T[K]['schema']> }> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, variable] of Object.entries(table)) shape[name] = variable.schema();
  return z.object(shape) as unknown as z.ZodObject<{ -readonly [K in keyof T]: ReturnType<T[K]['schema']> }>;
}

/**
 * `schema` falling back to `value` while the variable is unset, the reference's default said from
 * that same value (`shown` when it reads better otherwise), and `unset` too.
 */
export function withDefault<T extends string | number>(
  schema: EnvSchema<z.ZodType<T | undefined, unknown>>,
  value: T,
  shown: string = String(value),
) {
  const read = readerOf(schema);
  const withValue = once(() => schema().transform((parsed): T => parsed ?? value));
  return { schema: read ? withReader(withValue, read) : withValue, default: shown, unset: value };
}
