import { MAX_BATCH_ITEMS } from '@openmates/contract';
import type { WebSearchRequest } from '@openmates/sdk';

/**
 * The search form as the URL carries it: every value is the raw string the user (or a shared
 * link) sent, so the page can show exactly what was asked and the API alone decides what is valid.
 */
export interface SearchForm {
  /** `q`, repeated: one query per field, in order, blank ones included. */
  queries: string[];
  /** `id`, repeated and aligned with `queries` ('' = no id). Not shown as fields; kept for shared links. */
  ids: string[];
  /** `count`, `country`, `lang`, `safesearch`, `tabloids`; '' when absent. */
  count: string;
  country: string;
  lang: string;
  safesearch: string;
  /** 'off' includes tabloid sites (`filter_tabloids: false`); '' keeps the default filter. */
  tabloids: string;
}

/** What the URL asks the page to do. */
export type FormIntent =
  | { kind: 'idle' }
  | { kind: 'search'; request: WebSearchRequest }
  /** The no-JavaScript "add a query" / "remove this query" buttons: edit the fields, do not search. */
  | { kind: 'edit' };

const OPTION_NAMES = ['count', 'country', 'lang', 'safesearch', 'tabloids'] as const;

/** Reads the form from a URL's query string. */
export function readSearchForm(params: URLSearchParams): SearchForm {
  const queries = params.getAll('q');
  const ids = params.getAll('id');
  const form: SearchForm = {
    queries,
    ids: queries.map((_, i) => ids[i] ?? ''),
    count: '',
    country: '',
    lang: '',
    safesearch: '',
    tabloids: '',
  };
  for (const name of OPTION_NAMES) form[name] = (params.get(name) ?? '').trim();

  const remove = params.get('remove');
  if (remove !== null && /^\d+$/.test(remove) && Number(remove) < form.queries.length && form.queries.length > 1) {
    form.queries.splice(Number(remove), 1);
    form.ids.splice(Number(remove), 1);
  }
  if (params.has('add') && form.queries.length < MAX_BATCH_ITEMS) {
    if (form.queries.length === 0) form.queries.push('');
    form.queries.push('');
    form.ids.push('');
  }
  return form;
}

/** Decides what the URL asks for: nothing yet, a search, or a field edit without JavaScript. */
export function formIntent(params: URLSearchParams, form: SearchForm): FormIntent {
  if (params.has('add') || params.has('remove')) return { kind: 'edit' };
  if (form.queries.length === 0) return { kind: 'idle' };
  return { kind: 'search', request: toSearchRequest(form) };
}

/**
 * Maps the form to a WebSearchRequest. Values pass through as typed (a count of "abc" stays a
 * string) so that the API rejects them with the same issue paths as on every other surface, rather
 * than the page silently guessing.
 */
export function toSearchRequest(form: SearchForm): WebSearchRequest {
  const options: Record<string, unknown> = {};
  if (form.count !== '') options.count = /^[+-]?\d+(\.\d+)?$/.test(form.count) ? Number(form.count) : form.count;
  if (form.country !== '') options.country = form.country;
  if (form.lang !== '') options.search_lang = form.lang;
  if (form.safesearch !== '') options.safesearch = form.safesearch;
  if (form.tabloids !== '') options.filter_tabloids = tabloidFilter(form.tabloids);
  const requests = form.queries.map((query, i) => {
    const id = form.ids[i] ?? '';
    return { ...(id === '' ? {} : { id }), query, ...options };
  });
  return { requests } as WebSearchRequest;
}

function tabloidFilter(value: string): unknown {
  const lower = value.toLowerCase();
  if (['off', 'false', 'no', '0'].includes(lower)) return false;
  if (['on', 'true', 'yes', '1'].includes(lower)) return true;
  return value;
}
