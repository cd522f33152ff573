import type { z } from 'zod';
import {
  COUNTRIES,
  type Country,
  DEFAULT_COUNTRY,
  DEFAULT_SAFESEARCH,
  SAFESEARCH_LEVELS,
  type Safesearch,
} from './countries.ts';
import { issueMessage } from './issue-messages.ts';
import { DEFAULT_COUNT } from './limits.ts';
import { type RequestId, type WebSearchRequest, WebSearchRequestSchema } from './request-schemas.ts';
import type { Issue } from './response-schemas.ts';
import { cleanText } from './text.ts';

/** A request item after validation: query cleaned, id assigned, every option resolved. */
export interface NormalizedRequestItem {
  id: RequestId;
  query: string;
  count: number;
  country: Country;
  /** Lowercase ISO 639-1 code; absent when the caller gave none. */
  search_lang?: string;
  safesearch: Safesearch;
  filter_tabloids: boolean;
}

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

const ITEM_FIELDS = 'id, query, count, country, search_lang, safesearch, filter_tabloids';

/**
 * Turns zod issues into the contract's `{ path, message }` list, one issue per unknown field. Every
 * schema of the request carries its messages (see `issue-messages.ts`), so only zod's issue for
 * unknown keys, which lists them all at once, is reworded here.
 */
export function toIssues(error: z.ZodError): Issue[] {
  const issues: Issue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const allowed = issue.path.length === 0 ? 'requests' : ITEM_FIELDS;
      for (const field of issue.keys)
        issues.push({
          path: formatPath([...issue.path, field]),
          message: issueMessage('unknownField', { field, allowed }),
        });
    } else {
      issues.push({ path: formatPath(issue.path), message: issue.message });
    }
  }
  return issues;
}

function resolveCountry(value: string | undefined): Country {
  const upper = value?.trim().toUpperCase();
  return (COUNTRIES as readonly string[]).includes(upper ?? '') ? (upper as Country) : DEFAULT_COUNTRY;
}

function resolveSafesearch(value: string | undefined): Safesearch {
  const lower = value?.trim().toLowerCase();
  return (SAFESEARCH_LEVELS as readonly string[]).includes(lower ?? '') ? (lower as Safesearch) : DEFAULT_SAFESEARCH;
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
 * Turns untrusted input into a normalized request, or the list of everything wrong with it.
 * Nothing is half-done: either every item is valid and normalized, or none is returned.
 */
export function normalizeRequest(input: unknown): NormalizeResult {
  const parsed = WebSearchRequestSchema.safeParse(input);
  if (!parsed.success) return { ok: false, issues: toIssues(parsed.error) };
  return { ok: true, request: normalizeParsed(parsed.data) };
}

/** Normalizes an already-validated request (for callers that ran the schema themselves). */
export function normalizeParsed(request: WebSearchRequest): NormalizedRequest {
  const ids = assignIds(request.requests.map((item) => item.id));
  return {
    requests: request.requests.map((item, index) => {
      const normalized: NormalizedRequestItem = {
        id: ids[index] as RequestId,
        query: cleanText(item.query),
        count: item.count ?? DEFAULT_COUNT,
        country: resolveCountry(item.country),
        safesearch: resolveSafesearch(item.safesearch),
        filter_tabloids: item.filter_tabloids ?? true,
      };
      if (item.search_lang !== undefined) normalized.search_lang = item.search_lang.toLowerCase();
      return normalized;
    }),
  };
}
