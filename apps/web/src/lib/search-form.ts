import {
  MAX_BATCH_ITEMS,
  PAGE_FIELD,
  pageOfItem,
  REQUEST_FIELDS,
  type RequestField,
  type RequestFields,
  valueFromText,
} from '@openmates/contract';
import type { WebSearchRequest } from '@openmates/sdk';

/**
 * One query of the form with its own options, as the URL carries it: the raw text of each field of
 * the table by field name (`query`, `count`, `search_lang`, …), and of an id's type parameter by that
 * parameter's name (`idtype`). The page shows exactly what was asked and the API alone decides what
 * is valid. '' (or a missing key) means "not given": the API's default.
 */
export type QueryRow = Record<string, string>;

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

/** The field each row is: its link parameter is the one every other parameter aligns with. */
export const QUERY_FIELD = 'query';
/** The field that names a query: shown with its results only when the person set it. */
export const ID_FIELD = 'id';

/** One link parameter of a row: where its value goes in the row, and whose field it belongs to. */
export interface RowParam {
  /** The row's key: the field's name, or the type parameter's name. */
  key: string;
  /** The URL parameter (and the form control's `name`). */
  param: string;
  field: RequestField;
  /** True when one value given with several queries applies to every query. */
  broadcast: boolean;
}

/** The link parameters of a row besides `q`, in table order, an id's type parameter after the id. */
export function rowParams(fields: RequestFields = REQUEST_FIELDS): RowParam[] {
  const params: RowParam[] = [];
  for (const field of fields) {
    if (field.name === QUERY_FIELD) continue;
    // An id names one query, so it never applies to several, and neither does its type.
    const broadcast = field.kind !== 'id' && field.link.broadcast;
    params.push({ key: field.name, param: field.link.param, field, broadcast });
    if (field.link.typeParam) params.push({ key: field.link.typeParam, param: field.link.typeParam, field, broadcast });
  }
  return params;
}

function queryField(fields: RequestFields): RequestField {
  const field = fields.find((f) => f.name === QUERY_FIELD);
  if (!field) throw new Error(`the field table has no ${QUERY_FIELD} field`);
  return field;
}

/** A row with nothing but a query: every option at the API's default. */
export function blankRow(query = '', fields: RequestFields = REQUEST_FIELDS): QueryRow {
  const row: QueryRow = { [QUERY_FIELD]: query };
  for (const { key } of rowParams(fields)) row[key] = '';
  return row;
}

/**
 * Reads the form from a URL's query string. Each parameter is positional, aligned with `q`: its
 * n-th value belongs to the n-th query. An option given once with several queries applies to
 * every query (the links the page shared before options were per query); an id never does.
 */
export function readSearchForm(params: URLSearchParams, fields: RequestFields = REQUEST_FIELDS): SearchForm {
  const queries = params.getAll(queryField(fields).link.param);
  const rows = queries.map((query) => blankRow(query, fields));
  for (const { key, param, field, broadcast } of rowParams(fields)) {
    const values = params.getAll(param);
    const once = broadcast && values.length === 1;
    for (const [i, row] of rows.entries()) {
      const value = (once ? values[0] : values[i]) ?? '';
      // An id is the caller's exact text; an option's surrounding spaces are an accident of typing.
      row[key] = key === field.name && field.kind === 'id' ? value : value.trim();
    }
  }
  const form: SearchForm = { rows };

  const remove = params.get('remove');
  if (remove !== null && /^\d+$/.test(remove) && Number(remove) < rows.length && rows.length > 1)
    rows.splice(Number(remove), 1);
  if (params.has('add') && rows.length < MAX_BATCH_ITEMS) {
    if (rows.length === 0) rows.push(blankRow('', fields));
    rows.push(blankRow('', fields));
  }
  return form;
}

/** Decides what the URL asks for: nothing yet, a search, or a field edit without JavaScript. */
export function formIntent(
  params: URLSearchParams,
  form: SearchForm,
  fields: RequestFields = REQUEST_FIELDS,
): FormIntent {
  if (params.has('add') || params.has('remove')) return { kind: 'edit' };
  if (form.rows.length === 0) return { kind: 'idle' };
  return { kind: 'search', request: toSearchRequest(form, fields) };
}

/**
 * Maps the form to a WebSearchRequest, field by field in table order. Values convert only where the
 * text is unambiguous (`valueFromText`) and otherwise pass as typed (a count of "abc" stays a
 * string), so the API rejects them with the same issue paths as on every other surface rather than
 * the page silently guessing. The query is always sent, blank included.
 */
export function toSearchRequest(form: SearchForm, fields: RequestFields = REQUEST_FIELDS): WebSearchRequest {
  const requests = form.rows.map((row) => {
    const item: Record<string, unknown> = {};
    for (const field of fields) {
      const text = row[field.name] ?? '';
      if (field.name === QUERY_FIELD) item[field.name] = text;
      else if (text === '') continue;
      else if (field.kind === 'id' && field.link.typeParam && row[field.link.typeParam] === 'number')
        item[field.name] = numericId(field, text);
      else item[field.name] = valueFromText(field, text);
    }
    return item;
  });
  return { requests } as WebSearchRequest;
}

/**
 * An id typed as a number, read as the contract reads an integer's text; text that is no number at
 * all goes as `null`, which the API refuses by path.
 */
function numericId(field: RequestField, text: string): number | null {
  const value = valueFromText({ ...field, kind: 'integer' }, text);
  return typeof value === 'number' ? value : null;
}

/**
 * What the closed options disclosure says about a row, so nothing set is hidden from view: each
 * set field's `summary` in table order (an id typed as a number says so; a field without one says
 * its label and value), or `defaults`.
 */
export function optionSummary(row: QueryRow, fields: RequestFields = REQUEST_FIELDS): string {
  const parts: string[] = [];
  for (const field of fields) {
    const text = row[field.name] ?? '';
    if (field.name === QUERY_FIELD || text === '') continue;
    const typed = field.link.typeParam !== undefined && row[field.link.typeParam] === 'number';
    const said = field.summary?.(text) ?? `${field.control?.label ?? field.name}: ${text}`;
    parts.push(`${said}${typed ? ' (number)' : ''}`);
  }
  return parts.length > 0 ? parts.join(', ') : 'defaults';
}

/**
 * The link of a form: `q` and each row parameter, positional, every row's value written (a
 * parameter no row sets is left out), so it reads back as the same form.
 */
export function formLink(form: SearchForm, fields: RequestFields = REQUEST_FIELDS): string {
  const out = new URLSearchParams();
  const query = queryField(fields);
  for (const row of form.rows) out.append(query.link.param, row[QUERY_FIELD] ?? '');
  for (const { key, param } of rowParams(fields)) {
    const values = form.rows.map((row) => row[key] ?? '');
    if (values.some((value) => value !== '')) for (const value of values) out.append(param, value);
  }
  return `/?${out}`;
}

/**
 * The link to share for a submitted form or any search link: the form it reads as, written as
 * {@link formLink} writes it, so a parameter no query sets (every field of a form left at its
 * default submits one, empty) is left out, and the link reads back as the same search.
 */
export function shareableLink(params: URLSearchParams, fields: RequestFields = REQUEST_FIELDS): string {
  return formLink(readSearchForm(params, fields), fields);
}

/**
 * The link to the next page of one query of the form (`index`): the same search, that query's page
 * one higher (its first page when it names none), every other query as it was. A plain link, so it
 * works without JavaScript.
 */
export function nextPageLink(form: SearchForm, index: number, fields: RequestFields = REQUEST_FIELDS): string {
  const field = fields.find((f) => f.name === PAGE_FIELD);
  const row = form.rows[index];
  if (!field || !row) return formLink(form, fields);
  const text = row[PAGE_FIELD] ?? '';
  const page = pageOfItem(text === '' ? {} : { [PAGE_FIELD]: valueFromText(field, text) });
  const rows = form.rows.map((other, i) => (i === index ? { ...other, [PAGE_FIELD]: String(page + 1) } : other));
  return formLink({ rows }, fields);
}
