import { COUNTRIES, SAFESEARCH_LEVELS } from './countries.ts';
import { ERROR_CODES, GROUP_ERROR_CODES } from './errors.ts';
import { isIso6391 } from './languages.ts';
import {
  MAX_BATCH_ITEMS,
  MAX_COUNT,
  MAX_DESCRIPTION_LENGTH,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_ID_LENGTH,
  MAX_NOTE_LENGTH,
  MAX_PASSTHROUGH_LENGTH,
  MAX_QUERY_LENGTH,
  MAX_RESULTS_PER_GROUP,
  MAX_SUGGESTION_LENGTH,
  MAX_SUGGESTIONS,
  MAX_TITLE_LENGTH,
  MAX_URL_LENGTH,
  MIN_BATCH_ITEMS,
  MIN_COUNT,
} from './limits.ts';
import { cleanText, codePointLength } from './text.ts';
import { z } from './zod.ts';

/** A string bounded in code points; the bounds are also written into the OpenAPI schema. */
function boundedText(min: number, max: number, what: string) {
  return z
    .string()
    .refine((s) => codePointLength(s) >= min, { message: `${what} must not be empty` })
    .refine((s) => codePointLength(s) <= max, {
      message: `${what} must be at most ${max} characters`,
    })
    .openapi({ minLength: min, maxLength: max });
}

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

export const MetaUrlSchema = z
  .strictObject({
    scheme: z.enum(['http', 'https']),
    netloc: z.string().openapi({ description: 'Host and, when not the default, port.' }),
    hostname: z.string(),
    path: z.string().openapi({ description: 'The normalized URL path.' }),
    favicon: z.string().optional().openapi({ description: 'Favicon URL, only ever https.', format: 'uri' }),
  })
  .openapi('MetaUrl', { description: 'Parts of the result URL, derived from the normalized `url`.' });
export type MetaUrl = z.infer<typeof MetaUrlSchema>;

export const WebSearchResultSchema = z
  .strictObject({
    title: boundedText(1, MAX_TITLE_LENGTH, 'title').openapi({
      description: 'Plain text (HTML parsed and removed). Never blank: the URL hostname when nothing else is left.',
    }),
    url: z
      .string()
      .max(MAX_URL_LENGTH)
      .refine((s) => /^https?:\/\//.test(s), { message: 'url must be an absolute http(s) URL' })
      .openapi({
        description: `Absolute http(s) URL normalized by the WHATWG URL parser, no credentials, at most ${MAX_URL_LENGTH} characters.`,
        format: 'uri',
      }),
    description: boundedText(0, MAX_DESCRIPTION_LENGTH, 'description').openapi({
      description: 'Plain text (HTML parsed and removed); may be empty.',
    }),
    age: boundedText(1, MAX_PASSTHROUGH_LENGTH, 'age').optional().openapi({
      description: 'How old the page is, as the provider states it (for example "2 days ago" or an ISO date).',
    }),
    language: boundedText(1, MAX_PASSTHROUGH_LENGTH, 'language').optional().openapi({
      description: 'The page language as the provider states it.',
    }),
    family_friendly: z.boolean().optional(),
    meta_url: MetaUrlSchema.optional(),
    note: boundedText(1, MAX_NOTE_LENGTH, 'note').optional().openapi({
      description:
        "A note generated by the provider's model about this result (for example the sentence of its answer that cited it), not an excerpt of the page. Plain text; the first thing removed when the response must be fitted.",
    }),
  })
  .openapi('WebSearchResult', { description: 'One search hit. Every string is sanitized plain text.' });
export type WebSearchResult = z.infer<typeof WebSearchResultSchema>;

export const GroupErrorCodeSchema = z.enum(GROUP_ERROR_CODES).openapi('GroupErrorCode');

export const GroupErrorSchema = z
  .strictObject({
    code: GroupErrorCodeSchema,
    message: boundedText(1, MAX_ERROR_MESSAGE_LENGTH, 'message').openapi({
      description: 'A safe, human-readable message. Never raw provider text, headers or secrets.',
    }),
  })
  .openapi('GroupError');
export type GroupError = z.infer<typeof GroupErrorSchema>;

export const ResultGroupSchema = z
  .strictObject({
    id: IdSchema,
    results: z.array(WebSearchResultSchema).max(MAX_RESULTS_PER_GROUP),
    error: GroupErrorSchema.optional(),
    sources_cut: z.int().min(1).optional().openapi({
      description:
        "How many of this group's results the request's distinct-source budget cut (new URLs that arrived after the budget was spent). Omitted when none.",
    }),
    results_fitted_out: z.int().min(1).optional().openapi({
      description:
        'How many results were removed from the end of this group to fit the response size ceiling. Omitted when none.',
    }),
  })
  .refine((g) => g.error === undefined || g.results.length === 0, {
    message: 'a failed group has no results',
    path: ['results'],
  })
  .openapi('ResultGroup', {
    description:
      'The results of one request item, under its id. `results: []` without `error` means the provider answered and found nothing; a failed group carries `error` and `results: []`.',
  });
export type ResultGroup = z.infer<typeof ResultGroupSchema>;

export const ErrorCodeSchema = z.enum(ERROR_CODES).openapi('ErrorCode');

const count = (description: string) => z.int().min(0).openapi({ description });

export const SearchBudgetSchema = z
  .strictObject({
    calls_used: count('Search calls this request debited before dispatch; a failed call keeps its debit.'),
    max_sources: z.int().min(1).openapi({ description: 'The distinct-source budget of one request.' }),
    sources_admitted: count('Distinct result URLs admitted; a URL repeated across groups counts once.'),
    sources_cut: count('Results cut because the distinct-source budget was spent, over all groups.'),
    notes_fitted_out: count('Generated notes removed to fit the response size ceiling.'),
    suggestions_fitted_out: count('Follow-up suggestions removed to fit the response size ceiling.'),
    results_fitted_out: count('Results removed from the end of the last groups to fit the response size ceiling.'),
  })
  .openapi('SearchBudget', {
    description:
      'What this request spent and what was cut. Calls complete concurrently and their results are admitted in the order the calls completed, not in request order, until the distinct-source budget is spent; then notes, suggestions and results (in that order, from the end) are removed until the response fits its size ceiling.',
  });
export type SearchBudget = z.infer<typeof SearchBudgetSchema>;

export const WebSearchResponseSchema = z
  .strictObject({
    results: z
      .array(ResultGroupSchema)
      .max(MAX_BATCH_ITEMS)
      .refine((groups) => new Set(groups.map((g) => String(g.id))).size === groups.length, {
        message: 'result groups must be unique by id',
      }),
    provider: z.string().min(1).openapi({
      description: 'Who answered and, where another party ran the search, who that was.',
      example: 'Brave Search',
    }),
    suggestions_follow_up_requests: z
      .array(boundedText(1, MAX_SUGGESTION_LENGTH, 'suggestion'))
      .max(MAX_SUGGESTIONS)
      .optional()
      .openapi({
        description:
          'Follow-up queries derived from what the provider returned; omitted when there is nothing real to suggest.',
      }),
    error: boundedText(1, MAX_ERROR_MESSAGE_LENGTH, 'error').optional().openapi({
      description: 'Set when any group failed; names the failed group ids. Safe to show.',
    }),
    code: GroupErrorCodeSchema.optional().openapi({
      description: 'With `error`: the code of the first failed group in request order.',
    }),
    request_id: z.string().optional().openapi({ description: 'The server request id, for support.' }),
    budget: SearchBudgetSchema.optional(),
  })
  .openapi('WebSearchResponse', {
    description: 'One result group per request item, in request order.',
  });
export type WebSearchResponse = z.infer<typeof WebSearchResponseSchema>;

export const IssueSchema = z
  .strictObject({
    path: z.string().openapi({
      description: 'Where the problem is, such as `requests[0].query`; empty for the body itself.',
      example: 'requests[0].query',
    }),
    message: z.string(),
  })
  .openapi('Issue');
export type Issue = z.infer<typeof IssueSchema>;

export const ErrorResponseSchema = z
  .strictObject({
    error: z.string().min(1).openapi({ description: 'A safe, human-readable message.' }),
    code: ErrorCodeSchema,
    issues: z.array(IssueSchema).optional(),
    request_id: z.string().optional(),
  })
  .openapi('ErrorResponse', { description: 'The body of every non-2xx answer except 502.' });
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;
