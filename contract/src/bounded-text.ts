import { codePointLength } from './text.ts';
import { z } from './zod.ts';

/** A string bounded in code points; the bounds are also written into the OpenAPI schema. */
export function boundedText(min: number, max: number, what: string) {
  return z
    .string()
    .refine((s) => codePointLength(s) >= min, { message: `${what} must not be empty` })
    .refine((s) => codePointLength(s) <= max, {
      message: `${what} must be at most ${max} characters`,
    })
    .openapi({ minLength: min, maxLength: max });
}
