import { MAX_BATCH_ITEMS } from '@openmates/contract';
import type { WebSearchRequest } from '@openmates/sdk';

/**
 * One query of the form with its own options, as the URL carries it: every value is the raw string
 * the user (or a shared link) sent, so the page can show exactly what was asked and the API alone
 * decides what is valid. '' means "not given" (the API's default).
 */
export interface QueryRow {
  /** `q`: the query, blank included. */
  query: string;
  /** `id`: the caller's id for this query ('' = none, the API assigns one). */
  id: string;
  /** `idtype`: `number` sends the id as a JSON number; anything else (and '') as a string. */
  idType: string;
  /** `count`, `country`, `lang` (sent as `search_lang`), `safesearch`. */
  count: string;
  country: string;
  lang: string;
  safesearch: string;
  /** `tabloids`: 'off' includes tabloid sites (`filter_tabloids: false`), 'on' filters them explicitly. */
  tabloids: string;
}

/** The search form: 1–5 rows in the URL's order (more are kept for the API to refuse). */
export interface SearchForm {
  rows: QueryRow[];
}

/** What the URL asks the page to do. */
export type FormIntent =
  | { kind: 'idle' }
  | { kind: 'search'; request: WebSearchRequest }
  /** The no-JavaScript "add a query" / "remove this query" buttons: edit the fields, do not search. */
  | { kind: 'edit' };

/** URL parameter of each per-query field besides `q`. */
const ROW_PARAMS = {
  id: 'id',
  idType: 'idtype',
  count: 'count',
  country: 'country',
  lang: 'lang',
  safesearch: 'safesearch',
  tabloids: 'tabloids',
} as const satisfies Record<Exclude<keyof QueryRow, 'query'>, string>;

/** A row with nothing but a query: every option at the API's default. */
export function blankRow(query = ''): QueryRow {
  return { query, id: '', idType: '', count: '', country: '', lang: '', safesearch: '', tabloids: '' };
}

/**
 * Reads the form from a URL's query string. Each parameter is positional, aligned with `q`: its
 * n-th value belongs to the n-th query. An option given once with several queries applies to
 * every query (the links the page shared before options were per query); `id` never does.
 */
export function readSearchForm(params: URLSearchParams): SearchForm {
  const queries = params.getAll('q');
  const rows = queries.map((query) => blankRow(query));
  for (const [field, name] of Object.entries(ROW_PARAMS) as [keyof typeof ROW_PARAMS, string][]) {
    const values = params.getAll(name);
    const broadcast = values.length === 1 && field !== 'id' && field !== 'idType';
    for (const [i, row] of rows.entries()) {
      const value = broadcast ? values[0] : values[i];
      row[field] = field === 'id' ? (value ?? '') : (value ?? '').trim();
    }
  }
  const form: SearchForm = { rows };

  const remove = params.get('remove');
  if (remove !== null && /^\d+$/.test(remove) && Number(remove) < rows.length && rows.length > 1)
    rows.splice(Number(remove), 1);
  if (params.has('add') && rows.length < MAX_BATCH_ITEMS) {
    if (rows.length === 0) rows.push(blankRow());
    rows.push(blankRow());
  }
  return form;
}

/** Decides what the URL asks for: nothing yet, a search, or a field edit without JavaScript. */
export function formIntent(params: URLSearchParams, form: SearchForm): FormIntent {
  if (params.has('add') || params.has('remove')) return { kind: 'edit' };
  if (form.rows.length === 0) return { kind: 'idle' };
  return { kind: 'search', request: toSearchRequest(form) };
}

const NUMERIC = /^[+-]?\d+(\.\d+)?$/;

/**
 * Maps the form to a WebSearchRequest. Values pass through as typed (a count of "abc" stays a
 * string) so that the API rejects them with the same issue paths as on every other surface, rather
 * than the page silently guessing.
 */
export function toSearchRequest(form: SearchForm): WebSearchRequest {
  const requests = form.rows.map((row) => {
    const item: Record<string, unknown> = {};
    if (row.id !== '') item.id = row.idType === 'number' ? numericId(row.id) : row.id;
    item.query = row.query;
    if (row.count !== '') item.count = NUMERIC.test(row.count) ? Number(row.count) : row.count;
    if (row.country !== '') item.country = row.country;
    if (row.lang !== '') item.search_lang = row.lang;
    if (row.safesearch !== '') item.safesearch = row.safesearch;
    if (row.tabloids !== '') item.filter_tabloids = tabloidFilter(row.tabloids);
    return item;
  });
  return { requests } as WebSearchRequest;
}

/** A number id as typed; text that is no number at all goes as `null`, which the API refuses by path. */
function numericId(value: string): number | null {
  const trimmed = value.trim();
  return NUMERIC.test(trimmed) ? Number(trimmed) : null;
}

function tabloidFilter(value: string): unknown {
  const lower = value.toLowerCase();
  if (['off', 'false', 'no', '0'].includes(lower)) return false;
  if (['on', 'true', 'yes', '1'].includes(lower)) return true;
  return value;
}
