// The request schemas' builders, apart from the response schemas, and the contract's own request
// schemas built at their first use: a process that never validates a request (the CLI's `--help`)
// never builds them. The item's fields come from the
// field table (`fields.ts`); the schemas as constants are in `request-schema-values.ts`.
import { getRefId } from '@asteasolutions/zod-to-openapi';
import { REQUEST_FIELDS, type RequestField, type RequestFields } from './fields.ts';
import { fieldError, issueMessage } from './issue-messages.ts';
import { MAX_BATCH_ITEMS, MIN_BATCH_ITEMS } from './limits.ts';
import { once } from './once.ts';
import { z } from './zod.ts';

export type { RequestId } from './fields.ts';

/** The zod shape of an item built from a field table: each field's schema, optional unless required. */
export type ItemShape<F extends RequestFields> = {
  [E in F[number] as E['name']]: E extends { required: true } ? E['schema'] : z.ZodOptional<E['schema']>;
};

function fieldSchema(field: RequestField): z.ZodType {
  // A component's description is its own; describing it again here would replace it everywhere.
  const described =
    getRefId(field.schema) !== undefined
      ? field.schema
      : field.schema.openapi({
          description: field.description,
          ...(field.example === undefined ? {} : { example: field.example }),
        });
  return field.required ? described : described.optional();
}

/** The item schema of a field table (the contract's own is `WebSearchRequestItemSchema`). */
export function buildItemSchema<F extends RequestFields>(fields: F) {
  const shape = Object.fromEntries(fields.map((field) => [field.name, fieldSchema(field)])) as ItemShape<F>;
  const checks = fields.flatMap((field) => (field.check === undefined ? [] : [field.check]));
  return z
    .strictObject(shape, { error: (issue) => (issue.code === 'invalid_type' ? issueMessage('item') : undefined) })
    .superRefine((item, ctx) => {
      for (const check of checks)
        for (const problem of check(item as Record<string, unknown>))
          ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    })
    .openapi('WebSearchRequestItem', { description: 'One query of a batch and its options.' });
}

const REQUESTS_SIZE = issueMessage('requestsSize', { min: MIN_BATCH_ITEMS, max: MAX_BATCH_ITEMS });

/** The request schema around an item schema: 1–5 items, caller ids unique as strings. */
export function buildRequestSchema<I extends z.ZodType<{ id?: string | number | undefined }>>(item: I) {
  return z
    .strictObject(
      {
        requests: z
          .array(item, { error: fieldError('requests', REQUESTS_SIZE) })
          .min(MIN_BATCH_ITEMS, { error: REQUESTS_SIZE })
          .max(MAX_BATCH_ITEMS, { error: REQUESTS_SIZE })
          .openapi({
            description: `The searches to run, ${MIN_BATCH_ITEMS} to ${MAX_BATCH_ITEMS} items, answered in this order. Related queries belong in one batch: they run at once.`,
          }),
      },
      { error: (issue) => (issue.code === 'invalid_type' ? issueMessage('bodyShape') : undefined) },
    )
    .superRefine((request, ctx) => {
      const seen = new Map<string, number>();
      request.requests.forEach((entry, index) => {
        const id = (entry as { id?: string | number | undefined }).id;
        if (id === undefined) return;
        const key = String(id);
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
}

/** The contract's item schema (`WebSearchRequestItemSchema`), built at its first use. */
export const contractItemSchema = once(() => buildItemSchema(REQUEST_FIELDS));
export type WebSearchRequestItem = z.infer<ReturnType<typeof contractItemSchema>>;

/** The contract's request schema (`WebSearchRequestSchema`), built at its first use. */
export const contractRequestSchema = once(() => buildRequestSchema(contractItemSchema()));
export type WebSearchRequest = z.infer<ReturnType<typeof contractRequestSchema>>;
