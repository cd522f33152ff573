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

/** Parses `env` with `schema`; throws a ConfigError naming every bad variable, one per line. */
export function parseEnv<S extends z.ZodType>(schema: S, env: Env): z.infer<S> {
  const parsed = schema.safeParse(env);
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
