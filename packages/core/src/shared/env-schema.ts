import { z } from 'zod';

/** An environment as the process has it: every value a string, or unset. */
export type Env = Record<string, string | undefined>;

/** A configuration value is wrong; the message names the variable and never echoes a secret. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

export const wholeNumber = (name: string, min: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d+$/, { message: `${name} must be a whole number ≥ ${min}` })
      .transform(Number)
      .refine((n) => n >= min && Number.isSafeInteger(n), { message: `${name} must be a whole number ≥ ${min}` })
      .optional(),
  );

/** An http(s) URL without trailing slashes, or undefined when unset or blank. */
export const httpUrl = (name: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), {
        message: `${name} must be an http(s) URL`,
      })
      .transform((s) => s.replace(/\/+$/, ''))
      .optional(),
  );

export const secret = z.preprocess(blankToUndefined, z.string().optional());

/**
 * How an environment is parsed: without zod's JIT, which compiles an object's parser with
 * `new Function` on its first parse and so only pays off over many parses, while a process reads
 * its environment once (each table's first parse cost ~0.5 ms of a cold start). Same results.
 */
export const ONE_PARSE = { jitless: true } as const;

/** Parses `env` with `schema`; throws a ConfigError naming every bad variable, one per line. */
export function parseEnv<S extends z.ZodType>(schema: S, env: Env): z.infer<S> {
  const parsed = schema.safeParse(env, ONE_PARSE);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message).join('\n'));
  return parsed.data;
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
 * costs nothing at load beyond its schemas, which the parser builds anyway.
 */
export interface EnvVariable<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  /** What it does, in one line. */
  readonly description: string;
  /** What holds while it is unset, as the reference shows it; absent when nothing does. */
  readonly default?: string;
}

/** The variables one parser reads, by name. */
export type EnvTable = Readonly<Record<string, EnvVariable>>;

/** The zod object that parses every variable of `table`. */
export function tableSchema<T extends EnvTable>(table: T): z.ZodObject<{ -readonly [K in keyof T]: T[K]['schema'] }> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, variable] of Object.entries(table)) shape[name] = variable.schema;
  return z.object(shape) as unknown as z.ZodObject<{ -readonly [K in keyof T]: T[K]['schema'] }>;
}

/**
 * `schema` falling back to `value` while the variable is unset, and the reference's default said
 * from that same value (`shown` when it reads better otherwise).
 */
export function withDefault<T extends string | number>(
  schema: z.ZodType<T | undefined, unknown>,
  value: T,
  shown: string = String(value),
) {
  return { schema: schema.transform((parsed): T => parsed ?? value), default: shown };
}
