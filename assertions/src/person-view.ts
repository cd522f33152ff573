import { cleanText, displayUrl, type ErrorResponse, type WebSearchResponse } from '@openmates/contract';

/**
 * What a person must be able to read from an answer, as text: the fields a GUI or a terminal shows.
 * The web and CLI (human output) drivers read their surface back into this shape, and the parity
 * suite checks it equals the person view of the engine's document for the same case. Left out on
 * purpose: `request_id` (per request), `meta_url` (the display URL shows the host; the favicon is
 * never loaded nor printed), `family_friendly` when true (said only when it is not), and any
 * structure a person does not read (id types: `1` and `"1"` both read "1"; an id reads as text
 * shown, in a terminal as on a page: whitespace collapsed and trimmed, invisible characters gone,
 * so `" "` reads as nothing and `"a  b"` as `a b`).
 */
export type PersonView = PersonResponseView | PersonErrorView;

/**
 * How a page shows an answer (the GUI and the MCP App, which share their display rules): it leaves
 * unsaid what a person did not ask about (ADR 0120). A group's id is shown only when the request
 * item set one (an id the API numbered reads as ''); a result's language only when it is not the
 * page's (by its primary subtag: `en-GB` on an English page goes unsaid); of the budget only what
 * was removed to fit the response size, never what the search spent.
 */
export interface PageRules {
  /** The request the page searched (`{ requests: [...] }`). */
  request: unknown;
  /** The page's language (its `lang`). */
  language: string;
}

export interface PersonResponseView {
  kind: 'response';
  provider: string;
  /** The response's `error` and `code`, when a group failed. */
  error?: { message: string; code?: string };
  suggestions: string[];
  /** Every count of the budget; what a page leaves unsaid (nothing was cut) reads as 0. Not on a page. */
  budget?: PersonBudget;
  /** On a page: the budget's fitting counts that are not zero, when any is. */
  fitted?: Partial<Record<FittedKey, number>>;
  groups: PersonGroup[];
}

export interface PersonBudget {
  calls_used: number;
  max_sources: number;
  sources_admitted: number;
  sources_cut: number;
  notes_fitted_out: number;
  suggestions_fitted_out: number;
  /** Absent from the answer when none were removed: reads as 0. */
  extra_snippets_fitted_out: number;
  results_fitted_out: number;
}

export interface PersonGroup {
  /** `String(id)` as it is shown (see above). */
  id: string;
  /** Who answered the group, when the server lists several providers. */
  provider?: string;
  error?: { code: string; message: string };
  sources_cut?: number;
  results_fitted_out?: number;
  /** What the provider searched for instead of the query (shown as "Showing results for …"). */
  altered_query?: string;
  /** Present when the surface offers the next page ("More results", "more available"). */
  more?: true;
  results: PersonResult[];
}

export interface PersonResult {
  title: string;
  /** Where the title leads: the link's target (the GUI), or the URL printed in plain text (the CLI). */
  url: string;
  /** The URL as it reads under the title: host, then path segments (`example.org › a › b`). */
  display_url: string;
  description: string;
  age?: string;
  language?: string;
  /** `not family friendly`, only when `family_friendly` is false. */
  family_friendly?: 'not family friendly';
  note?: string;
  /** The page excerpts, in order, when the result carries them (a GUI shows them once its disclosure is opened). */
  extra_snippets?: string[];
}

export interface PersonErrorView {
  kind: 'error';
  code: string;
  message: string;
  /** In the order the answer gives them. */
  issues: { path: string; message: string }[];
}

const BUDGET_KEYS = [
  'calls_used',
  'max_sources',
  'sources_admitted',
  'sources_cut',
  'notes_fitted_out',
  'suggestions_fitted_out',
  'extra_snippets_fitted_out',
  'results_fitted_out',
] as const satisfies readonly (keyof PersonBudget)[];

/** The budget's counts of what was removed to fit the response size, the ones a page says. */
export const FITTED_KEYS = [
  'notes_fitted_out',
  'suggestions_fitted_out',
  'extra_snippets_fitted_out',
  'results_fitted_out',
] as const satisfies readonly (keyof PersonBudget)[];
export type FittedKey = (typeof FITTED_KEYS)[number];

/**
 * The person view of a WebSearchResponse or an ErrorResponse (anything else is a driver bug), as a
 * terminal shows it, or as a page does when `page` says how.
 */
export function personView(document: unknown, page?: PageRules): PersonView {
  if (document !== null && typeof document === 'object' && 'results' in document) {
    const view = responseView(document as WebSearchResponse);
    return page ? onPage(view, document as WebSearchResponse, page) : view;
  }
  if (document !== null && typeof document === 'object' && 'code' in document && 'error' in document) {
    const error = document as ErrorResponse;
    return {
      kind: 'error',
      code: error.code,
      message: error.error,
      issues: (error.issues ?? []).map(({ path, message }) => ({ path, message })),
    };
  }
  throw new Error(`not a WebSearchResponse or ErrorResponse: ${JSON.stringify(document)?.slice(0, 200)}`);
}

function responseView(response: WebSearchResponse): PersonResponseView {
  const view: PersonResponseView = {
    kind: 'response',
    provider: response.provider,
    suggestions: [...(response.suggestions_follow_up_requests ?? [])],
    groups: response.results.map((group) => {
      const g: PersonGroup = {
        id: cleanText(String(group.id)),
        results: group.results.map((result) => {
          const r: PersonResult = {
            title: result.title,
            url: result.url,
            display_url: displayUrl(result.url),
            description: result.description,
          };
          if (result.age !== undefined) r.age = result.age;
          if (result.language !== undefined) r.language = result.language;
          if (result.family_friendly === false) r.family_friendly = 'not family friendly';
          if (result.note !== undefined) r.note = result.note;
          if (result.extra_snippets !== undefined) r.extra_snippets = [...result.extra_snippets];
          return r;
        }),
      };
      if (group.provider !== undefined) g.provider = group.provider;
      if (group.error) g.error = { code: group.error.code, message: group.error.message };
      if (group.sources_cut) g.sources_cut = group.sources_cut;
      if (group.results_fitted_out) g.results_fitted_out = group.results_fitted_out;
      if (group.altered_query !== undefined) g.altered_query = group.altered_query;
      if (group.more === true) g.more = true;
      return g;
    }),
  };
  if (response.error !== undefined)
    view.error = { message: response.error, ...(response.code !== undefined ? { code: response.code } : {}) };
  if (response.budget) {
    const budget = response.budget;
    view.budget = Object.fromEntries(BUDGET_KEYS.map((key) => [key, budget[key] ?? 0])) as unknown as PersonBudget;
  }
  return view;
}

/**
 * A refusal said in one line (the CLI's stderr, ADR 0122): its text as printed. It shows a refusal
 * when it holds every issue as `path: message` (the message alone for the body itself), or the
 * error's message when there are no issues; the code is the exit code's to say.
 */
export interface PersonLineView {
  kind: 'line';
  text: string;
}

/** Where a one-line refusal leaves out what the core document's refusal holds, or undefined when it shows it all. */
export function lineDifference(view: PersonLineView, document: unknown): string | undefined {
  const reference = personView(document);
  if (reference.kind !== 'error') return `$.kind: a refusal line ≠ ${JSON.stringify(reference.kind)}`;
  const parts =
    reference.issues.length > 0
      ? reference.issues.map(({ path, message }) => (path === '' ? message : `${path}: ${message}`))
      : [reference.message];
  const text = cleanText(view.text);
  const missing = parts.map(cleanText).find((part) => !text.includes(part));
  return missing === undefined
    ? undefined
    : `$.text: ${JSON.stringify(view.text)} does not say ${JSON.stringify(missing)}`;
}

const primaryLanguage = (tag: string) => tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';

/** The item ids the request set, by index (undefined where the API numbered the query). */
function requestIds(request: unknown): unknown[] {
  const items = (request as { requests?: unknown } | undefined)?.requests;
  return Array.isArray(items) ? items.map((item) => (item as { id?: unknown } | null)?.id) : [];
}

/** A terminal's view as a page shows it (see {@link PageRules}). */
function onPage(view: PersonResponseView, response: WebSearchResponse, page: PageRules): PersonResponseView {
  const ids = requestIds(page.request);
  const { budget: _spent, ...rest } = view;
  const shown: PersonResponseView = {
    ...rest,
    groups: view.groups.map((group, g) => ({
      ...group,
      id: ids[g] === undefined ? '' : group.id,
      results: group.results.map(({ language, ...result }) =>
        language !== undefined && primaryLanguage(language) !== primaryLanguage(page.language)
          ? { ...result, language }
          : result,
      ),
    })),
  };
  const budget = response.budget;
  const fitted = Object.fromEntries(
    FITTED_KEYS.map((key) => [key, budget?.[key] ?? 0] as const).filter(([, count]) => count > 0),
  );
  if (Object.keys(fitted).length > 0) shown.fitted = fitted;
  return shown;
}

/** The names of the budget's counts, in the order of the contract. */
export const PERSON_BUDGET_KEYS: readonly (keyof PersonBudget)[] = BUDGET_KEYS;

/**
 * The first place two person views differ, as `path: a ≠ b`, or undefined when they are equal.
 * Keys are compared whatever their order.
 */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) {
      const d = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (d) return d;
    }
    return undefined;
  }
  return `${path}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`;
}
