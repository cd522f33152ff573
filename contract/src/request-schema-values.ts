// The contract's request schemas as values, for what takes a schema by name (the route table, the
// OpenAPI document, tRPC's input, response groups' ids). Importing this module builds them; the
// CLI, which builds them at its first validation (`normalizeRequest`), does not import it.
import { idSchema } from './fields.ts';
import { contractItemSchema, contractRequestSchema } from './request-schemas.ts';

/** A caller id: a string of 1–64 characters or a safe integer ≥ 0. Compared as `String(id)`. */
export const IdSchema = idSchema();

/** One query of a batch and its options. */
export const WebSearchRequestItemSchema = contractItemSchema();

/** A batch of searches. Unknown fields are rejected. */
export const WebSearchRequestSchema = contractRequestSchema();
