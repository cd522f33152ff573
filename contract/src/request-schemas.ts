// The request schemas, apart from the response ones: a client validating requests (the CLI's
// search) does not build the response schemas at start-up.
import { boundedText } from './bounded-text.ts';
import { COUNTRIES, SAFESEARCH_LEVELS } from './countries.ts';
import { isIso6391 } from './languages.ts';
import { MAX_BATCH_ITEMS, MAX_COUNT, MAX_ID_LENGTH, MAX_QUERY_LENGTH, MIN_BATCH_ITEMS, MIN_COUNT } from './limits.ts';
import { cleanText, codePointLength } from './text.ts';
import { z } from './zod.ts';

/** A caller id: a string of 1–64 characters or a safe integer ≥ 0. Compared as `String(id)`. */
export const IdSchema = z
  .union([boundedText(1, MAX_ID_LENGTH, 'id'), z.int().min(0, { message: 'id must be a non-negative integer' })])
  .openapi('RequestId', {
    description: `A string of 1–${MAX_ID_LENGTH} characters or a safe integer ≥ 0. Ids are compared as strings, so \`1\` and \`"1"\` collide.`,
    example: 'q1',
  });
export type RequestId = z.infer<typeof IdSchema>;

/** Rejects queries that are blank or too long once invisible characters and extra whitespace go. */
const QuerySchema = z
  .string()
  .superRefine((raw, ctx) => {
    const length = codePointLength(cleanText(raw));
    if (length === 0) ctx.addIssue({ code: 'custom', message: 'query must not be blank' });
    else if (length > MAX_QUERY_LENGTH)
      ctx.addIssue({
        code: 'custom',
        message: `query must be at most ${MAX_QUERY_LENGTH} characters after cleaning (it has ${length})`,
      });
  })
  .openapi({
    description: `The search query. Invisible and format characters are removed and whitespace is collapsed and trimmed; the result must be 1–${MAX_QUERY_LENGTH} characters (code points).`,
    example: 'fetch abort signal',
  });

export const WebSearchRequestItemSchema = z
  .strictObject({
    id: IdSchema.optional(),
    query: QuerySchema,
    count: z
      .int({ message: `count must be an integer from ${MIN_COUNT} to ${MAX_COUNT}` })
      .min(MIN_COUNT, { message: `count must be at least ${MIN_COUNT}` })
      .max(MAX_COUNT, { message: `count must be at most ${MAX_COUNT}` })
      .optional()
      .openapi({ description: 'How many results to return (1–20). Default 10.', example: 10 }),
    country: z
      .string()
      .optional()
      .openapi({
        description: `Country to localize results to, case-insensitive: one of ${COUNTRIES.join(', ')}. Default \`US\`; an unknown value falls back to \`US\`.`,
        example: 'US',
      }),
    search_lang: z
      .string()
      .refine(isIso6391, { message: 'search_lang must be an ISO 639-1 language code such as "en"' })
      .optional()
      .openapi({
        description: 'ISO 639-1 language code, case-insensitive (normalized to lowercase).',
        example: 'en',
      }),
    safesearch: z
      .string()
      .optional()
      .openapi({
        description: `One of ${SAFESEARCH_LEVELS.join(', ')}, case-insensitive. Default \`moderate\`; an unknown value falls back to \`moderate\`.`,
        example: 'moderate',
      }),
    filter_tabloids: z.boolean().optional().openapi({
      description: 'Remove results from a maintained list of tabloid domains. Default true.',
    }),
  })
  .openapi('WebSearchRequestItem', { description: 'One query of a batch and its options.' });
export type WebSearchRequestItem = z.infer<typeof WebSearchRequestItemSchema>;

export const WebSearchRequestSchema = z
  .strictObject({
    requests: z
      .array(WebSearchRequestItemSchema)
      .min(MIN_BATCH_ITEMS, { message: `requests must hold ${MIN_BATCH_ITEMS} to ${MAX_BATCH_ITEMS} items` })
      .max(MAX_BATCH_ITEMS, { message: `requests must hold ${MIN_BATCH_ITEMS} to ${MAX_BATCH_ITEMS} items` }),
  })
  .superRefine((request, ctx) => {
    const seen = new Map<string, number>();
    request.requests.forEach((item, index) => {
      if (item.id === undefined) return;
      const key = String(item.id);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else
        ctx.addIssue({
          code: 'custom',
          path: ['requests', index, 'id'],
          message: `id "${key}" is already used by requests[${first}] (ids are compared as strings)`,
        });
    });
  })
  .openapi('WebSearchRequest', {
    description: `A batch of ${MIN_BATCH_ITEMS} to ${MAX_BATCH_ITEMS} searches. Unknown fields are rejected.`,
  });
export type WebSearchRequest = z.infer<typeof WebSearchRequestSchema>;
