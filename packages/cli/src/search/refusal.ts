import {
  BATCH_PATH,
  cleanText,
  type ErrorResponse,
  type Issue,
  issueTarget,
  MAX_BATCH_ITEMS,
  MIN_BATCH_ITEMS,
  REQUEST_FIELDS,
  type RequestFields,
} from '@openmates/contract';
import { errorLine } from './outcome.ts';
import { type SearchFlagValues, searchFlagTable } from './search-flags.ts';

/** What a person typed: the query arguments and the flags. Absent for `--input`, whose JSON paths are what was typed. */
export interface TypedSearch {
  readonly queries: readonly string[];
  readonly flags: SearchFlagValues;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with every whole-word `name` (a wire field name) written as `said`. */
function renamed(text: string, name: string, said: string): string {
  return text.replace(new RegExp(`(?<![\\w-])${escaped(name)}(?![\\w-])`, 'g'), said);
}

/** A value as typed, quoted when it would not read as one word. */
const quoted = (value: string) => (/^[^\s"]+$/.test(value) ? value : JSON.stringify(value));

/**
 * One issue said in the words a person typed: the flag (from the flag table: the field's flag is
 * the flag whose `field` it is) with the value given when the message does not already quote it, a
 * query argument by its position, the number of queries for the batch's size.
 */
function typedIssue(issue: Issue, typed: TypedSearch, fields: RequestFields): string {
  if (issue.path === BATCH_PATH)
    return `give ${MIN_BATCH_ITEMS} to ${MAX_BATCH_ITEMS} queries, one per argument (got ${typed.queries.length})`;
  const target = issueTarget(issue.path, fields);
  if (!target) return issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
  const { field } = target;
  const flag = Object.entries(searchFlagTable(fields)).find(([, spec]) => spec.field?.name === field.name)?.[0];
  if (flag === undefined) {
    // A field without a flag is set by the arguments: the query.
    const said = typed.queries.length === 1 ? 'the query' : `query ${target.item + 1}`;
    return issue.message.startsWith(`${field.name} `)
      ? `${said}${issue.message.slice(field.name.length)}`
      : `${said}: ${issue.message}`;
  }
  const text = renamed(issue.message, field.name, `--${flag}`);
  const message = text === issue.message ? `--${flag}: ${text}` : text;
  const given = typed.flags[flag];
  const value = Array.isArray(given)
    ? target.entry === undefined
      ? String(given.length)
      : given[target.entry]
    : typeof given === 'string'
      ? given
      : undefined;
  const says =
    value !== undefined && value !== '' && new RegExp(`(?<![\\w.-])${escaped(value)}(?![\\w.-])`).test(message);
  return value === undefined || says ? message : `${message} (got ${quoted(value)})`;
}

/** One issue of a request read from `--input`: its JSON path, and how many items the batch held. */
function inputIssue(issue: Issue, request: unknown): string {
  const items = (request as { requests?: unknown } | null | undefined)?.requests;
  const got = issue.path === BATCH_PATH && Array.isArray(items) ? ` (got ${items.length})` : '';
  return issue.path === '' ? `${issue.message}${got}` : `${issue.path}: ${issue.message}${got}`;
}

/**
 * The one stderr line of a refused request (ADR 0122): every issue once, in the words the person
 * typed (`--count must be an integer from 1 to 20 (got 99)`), or the message when there is none,
 * then what to do next. Text from a server is cleaned of control characters first.
 */
export function refusalLine(
  body: ErrorResponse,
  typed: TypedSearch | undefined,
  request: unknown,
  fields: RequestFields = REQUEST_FIELDS,
): string {
  const issues = (body.issues ?? []).map((issue) => ({
    path: cleanText(issue.path),
    message: cleanText(issue.message),
  }));
  if (issues.length === 0) return errorLine(cleanText(body.error), body.code);
  const said = issues.map((issue) => (typed ? typedIssue(issue, typed, fields) : inputIssue(issue, request)));
  return errorLine([...new Set(said)].join('; '), body.code);
}
