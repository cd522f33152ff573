/**
 * Every message an `invalid_request` issue can carry, in the contract's own wording: the schemas,
 * the normalizer, the server's body reader and the providers' own limits all build their messages
 * here, so a caller never reads a validation library's default ("Too big: expected int to be
 * <=9007199254740991"). `ISSUE_MESSAGE_TEMPLATES` is the list tests hold every issue against.
 */

/** The templates; `{name}` marks a value filled in by `issueMessage`. */
export const ISSUE_MESSAGES = {
  bodyShape: 'the body must be a JSON object with a "requests" array',
  bodyNotJson: 'the body is not valid JSON',
  batchedCalls: 'batched calls are not accepted; send one call per request',
  unknownField: 'unknown field "{field}" (allowed: {allowed})',
  required: '{field} is required',
  requestsSize: 'requests must be an array of {min} to {max} items',
  item: 'each item of requests must be an object with a "query" string',
  idType: 'id must be a string of {min} to {max} characters or an integer from 0 to {maxInteger}',
  idEmpty: 'id must not be empty',
  idTooLong: 'id must be at most {max} characters',
  idTaken: 'id "{id}" is already used by requests[{index}] (ids are compared as strings)',
  queryType: 'query must be a string',
  queryBlank: 'query must not be blank',
  queryTooLong: 'query must be at most {max} characters after cleaning (it has {length})',
  count: 'count must be an integer from {min} to {max}',
  page: 'page must be an integer from {min} to {max}',
  topic: 'topic must be one of {choices}',
  string: '{field} must be a string',
  searchLang: 'search_lang must be an ISO 639-1 language code such as "en"',
  boolean: '{field} must be true or false',
  freshness:
    'freshness must be day, week, month, year, or a date range YYYY-MM-DD..YYYY-MM-DD of real dates, start before end, either end (not both) left open',
  freshnessDate: 'freshness date {date} does not exist (a date is YYYY-MM-DD)',
  freshnessOrder: 'freshness range {from}..{to} ends before it starts',
  domain: '{field} entries must be host names such as "example.org": no scheme, port, path, wildcard or IP address',
  domainCount: '{field} must be an array of {min} to {max} host names',
  domainConflict: 'exclude_domains entry "{excluded}" covers the included domain "{included}"',
  providerQueryWords: '{provider} accepts at most {max} words per query (this one has {words})',
  providerLanguage: '{provider} does not support search_lang "{value}" (supported: {supported})',
  providerOption: '{option} is not supported by the {provider} provider: {reason}',
} as const;

export type IssueMessageKind = keyof typeof ISSUE_MESSAGES;

/** The templates as a list: the oracle that no issue message is anyone else's wording. */
export const ISSUE_MESSAGE_TEMPLATES: readonly string[] = Object.values(ISSUE_MESSAGES);

/** The message of `kind` with its `{name}` slots filled from `values`. */
export function issueMessage(kind: IssueMessageKind, values: Record<string, string | number> = {}): string {
  return ISSUE_MESSAGES[kind].replace(/\{(\w+)\}/g, (slot, name: string) =>
    name in values ? String(values[name]) : slot,
  );
}

/** True when `message` is one of the templates with its slots filled (each slot non-empty). */
export function isIssueMessage(message: string): boolean {
  return ISSUE_MESSAGE_TEMPLATES.some((template) => {
    const pattern = template
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+');
    return new RegExp(`^${pattern}$`, 's').test(message);
  });
}

/**
 * A zod error map for a field: `{field} is required` when the value is missing, else `expected`.
 * Checks with their own message (a bound) keep it.
 */
export function fieldError(field: string, expected: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? issueMessage('required', { field }) : expected);
}
