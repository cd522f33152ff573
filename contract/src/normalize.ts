import type { z } from 'zod';
import { fieldNames, type NormalizedFields, REQUEST_FIELDS, type RequestField, type RequestFields } from './fields.ts';
import { issueMessage } from './issue-messages.ts';
import { contractRequestSchema, type RequestId, type WebSearchRequest } from './request-schemas.ts';
import type { Issue } from './response-schemas.ts';

/**
 * A request item after validation: query cleaned, id assigned, every option resolved, each field as
 * its `normalize` in the field table returns it (`search_lang` absent when the caller gave none).
 */
export type NormalizedRequestItem = NormalizedFields<typeof REQUEST_FIELDS>;

export interface NormalizedRequest {
  requests: NormalizedRequestItem[];
}

export type NormalizeResult = { ok: true; request: NormalizedRequest } | { ok: false; issues: Issue[] };

/** Renders a zod path as `requests[0].query`; the body itself is the empty string. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** The path of an issue about the batch itself (how many items `requests` holds, or its type). */
export const BATCH_PATH = 'requests';

/** What an issue path names inside one request item: the item, the field, and an entry of a list field. */
export interface IssueTarget {
  /** The item's position in `requests`. */
  readonly item: number;
  readonly field: RequestField;
  /** The entry of a list field (`include_domains[1]`), when the issue is about one. */
  readonly entry?: number;
}

/**
 * The item and field an issue path written by `formatPath` names (`requests[0].include_domains[1]`),
 * or undefined for a path that names no field of `fields` (the body, the batch, an unknown field).
 * A surface that set the field under a name of its own (a CLI flag, a form control) finds it here.
 */
export function issueTarget(path: string, fields: RequestFields = REQUEST_FIELDS): IssueTarget | undefined {
  const match = /^requests\[(\d+)\]\.(\w+)(?:\[(\d+)\])?$/.exec(path);
  const field = match && fields.find((candidate) => candidate.name === match[2]);
  if (!match || !field) return undefined;
  return { item: Number(match[1]), field, ...(match[3] === undefined ? {} : { entry: Number(match[3]) }) };
}

/**
 * Turns zod issues into the contract's `{ path, message }` list, one issue per unknown field. Every
 * schema of the request carries its messages (see `issue-messages.ts`), so only zod's issue for
 * unknown keys, which lists them all at once, is reworded here.
 */
export function toIssues(error: z.ZodError, fields: RequestFields = REQUEST_FIELDS): Issue[] {
  const issues: Issue[] = [];
  // zod may report one fault twice under one message (a non-array `requests` fails its type and,
  // being a string, its length check too): a caller is told each thing once.
  const seen = new Set<string>();
  const push = (issue: Issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    issues.push(issue);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const allowed = issue.path.length === 0 ? 'requests' : fieldNames(fields);
      for (const field of issue.keys)
        push({
          path: formatPath([...issue.path, field]),
          message: issueMessage('unknownField', { field, allowed }),
        });
    } else {
      push({ path: formatPath(issue.path), message: issue.message });
    }
  }
  return issues;
}

/**
 * Assigns ids to items without one: in item order, the smallest positive integer whose string
 * form no caller id in the batch and no earlier auto id uses.
 */
export function assignIds(ids: readonly (RequestId | undefined)[]): RequestId[] {
  const taken = new Set(ids.filter((id) => id !== undefined).map(String));
  let next = 1;
  return ids.map((id) => {
    if (id !== undefined) return id;
    while (taken.has(String(next))) next += 1;
    taken.add(String(next));
    return next;
  });
}

/**
 * Turns untrusted input into a normalized request, or the list of everything wrong with it: the
 * request schema, built from the field table, decides. Nothing is half-done: either every item is
 * valid and normalized, or none is returned.
 */
export function normalizeRequest(input: unknown): NormalizeResult {
  const parsed = contractRequestSchema().safeParse(input);
  if (!parsed.success) return { ok: false, issues: toIssues(parsed.error) };
  return { ok: true, request: normalizeParsed(parsed.data) };
}

/** Normalizes an already-validated request (for callers that ran the schema themselves). */
export function normalizeParsed(request: WebSearchRequest): NormalizedRequest {
  return { requests: normalizeItems(request.requests) as NormalizedRequestItem[] };
}

/**
 * Normalizes validated items by a field table: each field's `normalize`, in table order, a field
 * that normalizes to `undefined` left out; then ids assigned.
 */
export function normalizeItems(
  items: readonly object[],
  fields: RequestFields = REQUEST_FIELDS,
): Record<string, unknown>[] {
  const ids = assignIds(items.map((item) => (item as { id?: RequestId }).id));
  return items.map((item, index) => {
    const values = item as Record<string, unknown>;
    const normalized: Record<string, unknown> = {};
    for (const field of fields) {
      const given = field.name === 'id' ? ids[index] : values[field.name];
      const value = (field.normalize as (value: unknown) => unknown)(given);
      if (value !== undefined) normalized[field.name] = value;
    }
    return normalized;
  });
}
