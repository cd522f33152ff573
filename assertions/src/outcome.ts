import type { ErrorCode, ErrorResponse, RequestId, WebSearchResponse, WebSearchResult } from '@openmates/contract';

/**
 * What a surface answered to a case, reduced to what every surface can express. Two
 * surfaces agree on a case when their outcomes are deeply equal.
 */
export interface Outcome {
  /** The error code of the whole answer: a 4xx/5xx code, or the response `code` of a search with failed groups. */
  code?: ErrorCode;
  /** Issue paths of an `invalid_request`, sorted. */
  issuePaths?: string[];
  groups: OutcomeGroup[];
  /** The response's `provider`, only when its groups say who answered each (several providers listed). */
  provider?: string;
}

export interface OutcomeGroup {
  id: RequestId;
  errorCode?: string;
  /** Who answered the group (only when the server lists several providers). */
  provider?: string;
  /** What the provider searched for instead of the query, when it said so. */
  altered_query?: string;
  /** Present when the provider said more results exist past this page (a GUI offers "More results"). */
  more?: true;
  /** What the group cost, as its `usage` says. */
  usage?: OutcomeUsage;
  results: OutcomeResult[];
}

/** A group's `usage`, every field of it. */
export interface OutcomeUsage {
  source: string;
  calls: number;
  billed: number;
  cost_usd?: number;
}

/** The outcome of a group's `usage` (token counts are the hosted provider's detail, not shown by every surface). */
export function outcomeUsage(usage: {
  source: string;
  calls: number;
  billed: number;
  cost_usd?: number | undefined;
}): OutcomeUsage {
  const { source, calls, billed, cost_usd } = usage;
  return cost_usd === undefined ? { source, calls, billed } : { source, calls, billed, cost_usd };
}

/** One result as every surface can express it. */
export interface OutcomeResult {
  url: string;
  title: string;
  description: string;
  /** The page excerpts, in order, when the result carries them. */
  extra_snippets?: string[];
}

/** The outcome of one contract result: its URL, title, description and any excerpts. */
export function outcomeResult(
  result: Pick<WebSearchResult, 'url' | 'title' | 'description' | 'extra_snippets'>,
): OutcomeResult {
  const { url, title, description, extra_snippets } = result;
  return extra_snippets === undefined
    ? { url, title, description }
    : { url, title, description, extra_snippets: [...extra_snippets] };
}

/** Reduces a WebSearchResponse (200 or 502) to an outcome. */
export function outcomeOfResponse(response: WebSearchResponse): Outcome {
  const outcome: Outcome = {
    groups: response.results.map((group) => {
      const g: OutcomeGroup = {
        id: group.id,
        results: group.results.map(outcomeResult),
      };
      if (group.error) g.errorCode = group.error.code;
      if (group.provider !== undefined) g.provider = group.provider;
      if (group.altered_query !== undefined) g.altered_query = group.altered_query;
      if (group.more === true) g.more = true;
      if (group.usage !== undefined) g.usage = outcomeUsage(group.usage);
      return g;
    }),
  };
  if (response.code) outcome.code = response.code;
  // With several providers, the response names those that answered: part of what every surface must agree on.
  if (response.results.some((group) => group.provider !== undefined)) outcome.provider = response.provider;
  return outcome;
}

/** Reduces an ErrorResponse (any non-2xx but 502) to an outcome. */
export function outcomeOfError(error: {
  code: ErrorResponse['code'];
  issues?: readonly { path: string }[] | undefined;
}): Outcome {
  const outcome: Outcome = { code: error.code, groups: [] };
  if (error.issues && error.issues.length > 0) outcome.issuePaths = error.issues.map((i) => i.path).sort();
  return outcome;
}

/** JSON with object keys sorted, so equal outcomes serialize equally whatever their key order. */
export function canonicalOutcome(outcome: Outcome): string {
  return JSON.stringify(outcome, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}
