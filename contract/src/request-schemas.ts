// The request schemas, apart from the response ones: a client validating requests (the CLI's
// search) does not build the response schemas at start-up.
import { boundedText } from './bounded-text.ts';
import { COUNTRIES, SAFESEARCH_LEVELS } from './countries.ts';
import { fieldError, issueMessage } from './issue-messages.ts';
import { isIso6391 } from './languages.ts';
import { MAX_BATCH_ITEMS, MAX_COUNT, MAX_ID_LENGTH, MAX_QUERY_LENGTH, MIN_BATCH_ITEMS, MIN_COUNT } from './limits.ts';
import { cleanText, codePointLength } from './text.ts';
import { z } from './zod.ts';

const ID_TYPE = issueMessage('idType', { min: 1, max: MAX_ID_LENGTH, maxInteger: Number.MAX_SAFE_INTEGER });

/** A caller id: a string of 1–64 characters or a safe integer ≥ 0. Compared as `String(id)`. */
export const IdSchema = z
  .union([boundedText(1, MAX_ID_LENGTH, 'id'), z.int({ error: ID_TYPE }).min(0, { error: ID_TYPE })], {
    error: ID_TYPE,
  })
  .openapi('RequestId', {
    description: `A string of 1–${MAX_ID_LENGTH} characters or a safe integer ≥ 0. Ids are compared as strings, so \`1\` and \`"1"\` collide.`,
    example: 'q1',
  });
export type RequestId = z.infer<typeof IdSchema>;

/** Rejects queries that are blank or too long once invisible characters and extra whitespace go. */
const QuerySchema = z
  .string({ error: fieldError('query', issueMessage('queryType')) })
  .superRefine((raw, ctx) => {
    const length = codePointLength(cleanText(raw));
    if (length === 0) ctx.addIssue({ code: 'custom', message: issueMessage('queryBlank') });
    else if (length > MAX_QUERY_LENGTH)
      ctx.addIssue({ code: 'custom', message: issueMessage('queryTooLong', { max: MAX_QUERY_LENGTH, length }) });
  })
  .openapi({
    description: `The search query. Invisible and format characters are removed and whitespace is collapsed and trimmed; the result must be 1–${MAX_QUERY_LENGTH} characters (code points).`,
    example: 'fetch abort signal',
  });

const COUNT = issueMessage('count', { min: MIN_COUNT, max: MAX_COUNT });

export const WebSearchRequestItemSchema = z
  .strictObject(
    {
      id: IdSchema.optional(),
      query: QuerySchema,
      count: z
        .int({ error: COUNT })
        .min(MIN_COUNT, { error: COUNT })
        .max(MAX_COUNT, { error: COUNT })
        .optional()
        .openapi({ description: 'How many results to return (1–20). Default 10.', example: 10 }),
      country: z
        .string({ error: issueMessage('string', { field: 'country' }) })
        .optional()
        .openapi({
          description: `Country to localize results to, case-insensitive: one of ${COUNTRIES.join(', ')}. Default \`US\`; an unknown value falls back to \`US\`.`,
          example: 'US',
        }),
      search_lang: z
        .string({ error: issueMessage('searchLang') })
        .refine(isIso6391, { error: issueMessage('searchLang') })
        .optional()
        .openapi({
          description: 'ISO 639-1 language code, case-insensitive (normalized to lowercase).',
          example: 'en',
        }),
      safesearch: z
        .string({ error: issueMessage('string', { field: 'safesearch' }) })
        .optional()
        .openapi({
          description: `One of ${SAFESEARCH_LEVELS.join(', ')}, case-insensitive. Default \`moderate\`; an unknown value falls back to \`moderate\`.`,
          example: 'moderate',
        }),
      filter_tabloids: z
        .boolean({ error: issueMessage('boolean', { field: 'filter_tabloids' }) })
        .optional()
        .openapi({
          description: 'Remove results from a maintained list of tabloid domains. Default true.',
        }),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? issueMessage('item') : undefined) },
  )
  .openapi('WebSearchRequestItem', { description: 'One query of a batch and its options.' });
export type WebSearchRequestItem = z.infer<typeof WebSearchRequestItemSchema>;

const REQUESTS_SIZE = issueMessage('requestsSize', { min: MIN_BATCH_ITEMS, max: MAX_BATCH_ITEMS });

export const WebSearchRequestSchema = z
  .strictObject(
    {
      requests: z
        .array(WebSearchRequestItemSchema, { error: fieldError('requests', REQUESTS_SIZE) })
        .min(MIN_BATCH_ITEMS, { error: REQUESTS_SIZE })
        .max(MAX_BATCH_ITEMS, { error: REQUESTS_SIZE }),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? issueMessage('bodyShape') : undefined) },
  )
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
          message: issueMessage('idTaken', { id: key, index: first }),
        });
    });
  })
  .openapi('WebSearchRequest', {
    description: `A batch of ${MIN_BATCH_ITEMS} to ${MAX_BATCH_ITEMS} searches. Unknown fields are rejected.`,
  });
export type WebSearchRequest = z.infer<typeof WebSearchRequestSchema>;
