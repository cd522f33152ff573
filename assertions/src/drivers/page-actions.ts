import {
  type ErrorCode,
  type GroupUsage,
  LIST_SEPARATOR,
  REQUEST_FIELDS,
  type RequestField,
  type RequestFields,
  type RequestId,
} from '@openmates/contract';
import { handler as guiHandler } from '@openmates/web/handler';
import type { CaseEnvironment, DriverResult, ParityCase, Surface, SurfaceDriver } from '../case.ts';
import { type Outcome, type OutcomeGroup, outcomeResult, outcomeUsage } from '../outcome.ts';
import {
  FITTED_KEYS,
  type FittedKey,
  type PersonGroup,
  type PersonResponseView,
  type PersonResult,
  type PersonView,
} from '../person-view.ts';
import { startCaseServer } from './case-engine.ts';

/**
 * The browser primitives a GUI column supplies, in a person's terms: a control by its label, a
 * button by its name. Everything a case does in the page (fill the search form from the field table,
 * submit, read the answer back) is written once below, on these, so the Chromium and WebKit columns
 * take the same steps and differ only in how a browser is driven.
 */
export interface BrowserPage {
  /** Loads `url` and resolves once it has loaded. */
  goto(url: string): Promise<void>;
  /** Runs `fn` in the page (it must use nothing from outside itself) with a JSON argument; resolves to its JSON result. */
  evaluate<R, A = undefined>(fn: (arg: A) => R, arg?: A): Promise<R>;
  /** Resolves once `predicate` holds in the page, through any navigation in between; rejects after `timeoutMs`. */
  waitUntil(predicate: () => boolean, timeoutMs: number): Promise<void>;
  /** Replaces the text of the control labelled exactly `label` with `value`, as typing does. */
  fill(label: string, value: string): Promise<void>;
  /** Picks the option whose value is `value` in the select labelled exactly `label`. */
  select(label: string, value: string): Promise<void>;
  /** Presses Enter in the control labelled exactly `label`. */
  pressEnter(label: string): Promise<void>;
  /** Clicks the button whose accessible name is `name`. */
  clickButton(name: string): Promise<void>;
  /** Clicks the `index`th (0-based) element matching the CSS `selector`. */
  clickNth(selector: string, index: number): Promise<void>;
  /** The page's current markup, for the transcript. */
  content(): Promise<string>;
}

/** One request item as the form's fields take it: its values by field name (the case's JSON). */
type FormItem = { query: string } & Record<string, unknown>;

/** How long the answer may take to appear after the form is submitted (a failure bound, not a wait). */
const ANSWER_TIMEOUT_MS = 30_000;

/** The case's items; the GUI columns only run cases whose request a person can give (see `formCannotExpress`). */
function formItems(testCase: ParityCase): FormItem[] {
  const items = (testCase.request as { requests?: unknown } | undefined)?.requests;
  if (!Array.isArray(items)) throw new Error(`${testCase.name}: no items for the form`);
  return items as FormItem[];
}

/** Sets one field's control as a person would, by the control's type; its label is `<label> for query N`. */
async function fillControl(page: BrowserPage, n: number, field: RequestField, value: unknown): Promise<void> {
  const control = field.control;
  if (!control) throw new Error(`${field.name} has no control in the form`);
  const label = (text: string) => `${text} for query ${n}`;
  switch (control.control) {
    case 'select':
      await page.select(label(control.label), String(value));
      break;
    case 'toggle':
      await page.select(label(control.label), value === false ? 'off' : 'on');
      break;
    case 'list':
      await page.fill(label(control.label), (value as unknown[]).map(String).join(LIST_SEPARATOR));
      break;
    case 'text':
    case 'number':
      await page.fill(label(control.label), String(value));
      // An id's type is its own select beside it: a number id is typed `number`.
      if (field.link.typeParam && typeof value === 'number')
        await page.select(label(`${control.label} type`), 'number');
      break;
  }
}

/** A field's value as a link writes it: a list's entries joined, a switch `on`/`off`, anything else as text. */
function linkText(field: RequestField, value: unknown): string {
  if (value === undefined) return '';
  if (field.kind === 'list' && Array.isArray(value)) return value.map(String).join(LIST_SEPARATOR);
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value);
}

/**
 * The link that searches `items`, written from the field table's link parameters: `q`, then each
 * parameter some item sets, one value per query (positional); a number id with its type `number`.
 */
export function searchLink(items: readonly FormItem[], fields: RequestFields = REQUEST_FIELDS): string {
  const params = new URLSearchParams();
  for (const item of items) params.append('q', item.query);
  for (const field of fields) {
    if (field.name === 'query' || !items.some((item) => item[field.name] !== undefined)) continue;
    for (const item of items) params.append(field.link.param, linkText(field, item[field.name]));
    const typeParam = field.link.typeParam;
    if (typeParam && items.some((item) => typeof item[field.name] === 'number'))
      for (const item of items) params.append(typeParam, typeof item[field.name] === 'number' ? 'number' : '');
  }
  return `/?${params}`;
}

/**
 * Opens the search page and fills the form as a person would: each query and its options
 * disclosure, adding fields as needed, then Enter; resolves once the answer (results or an error)
 * is visible. A request that sets a field the form offers no control for (an id: a program's
 * matter, ADR 0120) is searched as a person does who was handed it: by opening its link.
 */
export async function search(
  page: BrowserPage,
  origin: string,
  items: readonly FormItem[],
  fields: RequestFields = REQUEST_FIELDS,
): Promise<void> {
  const linkOnly = fields.some(
    (field) => field.name !== 'query' && !field.control && items.some((item) => item[field.name] !== undefined),
  );
  await page.goto(`${origin}${linkOnly ? searchLink(items, fields) : '/'}`);
  // Hydrated: SvelteKit has started, so the form's own handlers (add a query, submit) are live.
  await page.waitUntil(() => document.querySelector('#svelte-announcer') !== null, ANSWER_TIMEOUT_MS);
  if (!linkOnly) await fillAndSubmit(page, items, fields);
  await page.waitUntil(
    () =>
      [...document.querySelectorAll('[data-page-error], [data-results]')].some(
        (el) => el.getClientRects().length > 0 && el.checkVisibility({ visibilityProperty: true }),
      ),
    ANSWER_TIMEOUT_MS,
  );
}

/** Fills each query and its options disclosure, adding fields as needed, then presses Enter. */
async function fillAndSubmit(page: BrowserPage, items: readonly FormItem[], fields: RequestFields): Promise<void> {
  for (const [i, item] of items.entries()) {
    const n = i + 1;
    if (i > 0) await page.clickButton('Add a query');
    await page.fill(`Query ${n}`, item.query);
    const options = fields.filter((field) => field.control && item[field.name] !== undefined);
    if (options.length === 0) continue;
    await page.clickNth('[data-query-row] summary', i);
    for (const field of options) await fillControl(page, n, field, item[field.name]);
  }
  await page.pressEnter(`Query ${items.length}`);
}

/** Reads the rendered answer back into the short outcome (data attributes locate the parts). */
export async function readOutcome(page: BrowserPage, items: readonly FormItem[]): Promise<Outcome> {
  const shown = await page.evaluate(() => {
    const pageError = document.querySelector('[data-page-error]');
    if (pageError)
      return {
        error: {
          code: pageError.getAttribute('data-error-code'),
          paths: pageError.getAttribute('data-issue-paths'),
        },
        responseCode: null,
        responseProvider: null,
        groups: [],
      };
    return {
      error: null,
      responseCode: document.querySelector('[data-results]')?.getAttribute('data-response-code') ?? null,
      responseProvider: document.querySelector('[data-results]')?.getAttribute('data-response-provider') ?? null,
      groups: [...document.querySelectorAll('[data-group-id]')].map((section) => ({
        id: section.getAttribute('data-group-id') ?? '',
        errorCode: section.getAttribute('data-error-code'),
        provider: section.getAttribute('data-group-provider'),
        altered: section.querySelector('[data-field="altered_query"]')?.textContent ?? null,
        more: section.querySelector('[data-more-results]') !== null,
        usage: section.querySelector('[data-usage]')?.getAttribute('data-usage') ?? null,
        results: [...section.querySelectorAll('[data-result]')].map((result) => ({
          url: result.querySelector('a[href]')?.getAttribute('href') ?? '',
          title: result.querySelector('[data-title]')?.textContent ?? '',
          description: result.querySelector('[data-description]')?.textContent ?? '',
          excerpts: [...result.querySelectorAll('[data-field="extra_snippet"]')].map((li) => li.textContent ?? ''),
        })),
      })),
    };
  });
  if (shown.error) {
    const outcome: Outcome = { code: (shown.error.code ?? 'internal_error') as ErrorCode, groups: [] };
    const issuePaths = shown.error.paths ? (JSON.parse(shown.error.paths) as string[]) : [];
    if (issuePaths.length > 0) outcome.issuePaths = [...issuePaths].sort();
    return outcome;
  }
  const outcome: Outcome = {
    groups: shown.groups.map((g, i): OutcomeGroup => {
      // The page shows ids as text: the caller's string ids stay strings; numbers and auto ids are numbers.
      const id: RequestId = typeof items[i]?.id === 'string' ? g.id : Number(g.id);
      // Built here, key by key: a WebDriver answer does not keep the page's key order.
      const results = g.results.map(({ url, title, description, excerpts }) =>
        outcomeResult({ url, title, description, ...(excerpts.length > 0 ? { extra_snippets: excerpts } : {}) }),
      );
      return {
        id,
        results,
        ...(g.errorCode ? { errorCode: g.errorCode } : {}),
        ...(g.provider ? { provider: g.provider } : {}),
        ...(g.altered !== null ? { altered_query: g.altered } : {}),
        ...(g.more ? { more: true as const } : {}),
        ...(g.usage !== null ? { usage: outcomeUsage(JSON.parse(g.usage) as GroupUsage) } : {}),
      };
    }),
  };
  if (shown.responseCode) outcome.code = shown.responseCode as ErrorCode;
  // As outcomeOfResponse: the response's provider counts only when the groups say who answered each.
  if (outcome.groups.some((g) => g.provider !== undefined) && shown.responseProvider !== null)
    outcome.provider = shown.responseProvider;
  return outcome;
}

/** One `[data-field]` element as the page shows it: its rendered text, and which part of the answer it is in. */
interface ShownField {
  name: string;
  text: string;
  /** -1 outside any group. */
  group: number;
  /** -1 outside any result. */
  result: number;
  issue: number;
}

/**
 * Reads the person view from the page's visible text. Data attributes only locate the elements;
 * every value is the element's rendered text (`innerText`), and a field that carries text but is not
 * rendered visibly (hidden, transparent, or clipped to a pixel) fails the read.
 */
export async function readView(page: BrowserPage): Promise<PersonView> {
  const { fields, hidden, isError, links, groupCount } = await page.evaluate(() => {
    const area = document.querySelector('#results');
    // A person opens each result's excerpts to read them.
    for (const disclosure of area?.querySelectorAll<HTMLDetailsElement>('details[data-excerpts]') ?? [])
      disclosure.open = true;
    const groupsOf = [...document.querySelectorAll('[data-group-id]')];
    const issuesOf = [...document.querySelectorAll('[data-issue]')];
    const shown: ShownField[] = [];
    const invisible: string[] = [];
    for (const el of area?.querySelectorAll<HTMLElement>('[data-field]') ?? []) {
      const name = el.dataset.field ?? '';
      // Rendered, and bigger than the 1px box that hides text from sighted readers (visually-hidden).
      const box = el.getBoundingClientRect();
      if (
        !el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) ||
        box.width <= 1 ||
        box.height <= 1
      ) {
        if ((el.textContent ?? '') !== '') invisible.push(name);
        continue;
      }
      const group = el.closest('[data-group-id]');
      const result = el.closest('[data-result]');
      const issue = el.closest('[data-issue]');
      shown.push({
        name,
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point: what a person sees.
        text: el.innerText,
        group: group ? groupsOf.indexOf(group) : -1,
        result: result && group ? [...group.querySelectorAll('[data-result]')].indexOf(result) : -1,
        issue: issue ? issuesOf.indexOf(issue) : -1,
      });
    }
    // Where each result's title leads: the link a person follows (the display URL under it reads the host and path).
    const targets = groupsOf.map((group) =>
      [...group.querySelectorAll('[data-result]')].map(
        (result) => result.querySelector('[data-title]')?.closest('a[href]')?.getAttribute('href') ?? '',
      ),
    );
    return {
      fields: shown,
      hidden: invisible,
      isError: document.querySelector('[data-page-error]') !== null,
      links: targets,
      groupCount: groupsOf.length,
    };
  });
  if (hidden.length > 0) throw new Error(`fields with text that a person cannot see: ${hidden.join(', ')}`);
  const at = (name: string, where: (f: ShownField) => boolean) => fields.filter((f) => f.name === name && where(f));
  const one = (name: string, where: (f: ShownField) => boolean) => at(name, where)[0]?.text;
  const top = (f: ShownField) => f.group < 0 && f.issue < 0;

  if (isError) {
    const issueCount = Math.max(-1, ...fields.map((f) => f.issue)) + 1;
    return {
      kind: 'error',
      code: one('code', top) ?? '',
      message: one('message', top) ?? '',
      issues: Array.from({ length: issueCount }, (_, i) => {
        const path = one('path', (f) => f.issue === i) ?? '';
        return { path: path === '(request)' ? '' : path, message: one('message', (f) => f.issue === i) ?? '' };
      }),
    };
  }

  const view: PersonResponseView = {
    kind: 'response',
    provider: one('provider', top) ?? '',
    suggestions: at('suggestion', top).map((f) => f.text),
    groups: Array.from({ length: groupCount }, (_, g): PersonGroup => {
      const inGroup = (f: ShownField) => f.group === g && f.result < 0;
      const resultCount = Math.max(-1, ...fields.filter((f) => f.group === g).map((f) => f.result)) + 1;
      const code = one('code', inGroup);
      const message = one('message', inGroup);
      const sourcesCut = one('sources_cut', inGroup);
      const fittedOut = one('results_fitted_out', inGroup);
      const answeredBy = one('provider', inGroup);
      const altered = one('altered_query', inGroup);
      // The "More results" link: a person is offered the next page when it is shown.
      const more = one('more', inGroup) !== undefined;
      return {
        id: one('id', inGroup) ?? '',
        ...(answeredBy !== undefined ? { provider: answeredBy } : {}),
        ...(altered !== undefined ? { altered_query: altered } : {}),
        ...(more ? { more: true as const } : {}),
        ...(code !== undefined || message !== undefined ? { error: { code: code ?? '', message: message ?? '' } } : {}),
        ...(sourcesCut !== undefined ? { sources_cut: Number(sourcesCut) } : {}),
        ...(fittedOut !== undefined ? { results_fitted_out: Number(fittedOut) } : {}),
        results: Array.from({ length: resultCount }, (_, r) => {
          const field = (name: string) => one(name, (f) => f.group === g && f.result === r);
          const result: PersonResult = {
            title: field('title') ?? '',
            url: links[g]?.[r] ?? '',
            display_url: field('display_url') ?? '',
            description: field('description') ?? '',
          };
          for (const name of ['age', 'language', 'note'] as const) {
            const value = field(name);
            if (value !== undefined) result[name] = value;
          }
          const excerpts = at('extra_snippet', (f) => f.group === g && f.result === r).map((f) => f.text);
          if (excerpts.length > 0) result.extra_snippets = excerpts;
          // Said only when it is not family friendly; any other text there reads as a difference.
          const familyFriendly = field('family_friendly');
          if (familyFriendly !== undefined) result.family_friendly = familyFriendly as 'not family friendly';
          return result;
        }),
      };
    }),
  };
  const error = one('error', top);
  if (error !== undefined) {
    const code = one('code', top);
    view.error = { message: error, ...(code !== undefined ? { code } : {}) };
  }
  const fitted: Partial<Record<FittedKey, number>> = {};
  for (const key of FITTED_KEYS) {
    const count = one(key, top);
    if (count !== undefined) fitted[key] = Number(count);
  }
  if (Object.keys(fitted).length > 0) view.fitted = fitted;
  return view;
}

/** The language the page says it is written in (its `lang`), which the person view's page rules take. */
export function pageLanguage(page: BrowserPage): Promise<string> {
  return page.evaluate(() => document.documentElement.lang);
}

/** A browser that a GUI column drives: its one page, opened on the column's first case, and how to end it. */
export interface BrowserSession {
  page: BrowserPage;
  close(): Promise<void>;
}

/** Options of a GUI column. */
export interface GuiColumnOptions {
  /** Test-only: changes the rendered page before it is read (proves the reading is not vacuous). Default none. */
  alter?: (page: BrowserPage) => Promise<void>;
}

/**
 * A GUI column: the web GUI mounted on the API as `openmates serve` mounts it, one fresh server per
 * case, driven in one browser page for every case of the column. `open` starts the browser; the
 * case itself is the shared page actions above.
 */
export function createGuiColumn(
  surface: Surface,
  open: () => Promise<BrowserSession>,
  options: GuiColumnOptions = {},
): SurfaceDriver {
  let session: Promise<BrowserSession> | undefined;
  return {
    surface,
    supports: (testCase) => testCase.formCannotExpress === undefined,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const items = formItems(testCase);
      session ??= open();
      const { page } = await session;
      const server = await startCaseServer(environment.env, guiHandler);
      try {
        await search(page, server.url, items);
        await options.alter?.(page);
        const outcome = await readOutcome(page, items);
        const view = await readView(page);
        const transcript = `${await page.content()}\n${server.logs.join('')}`;
        return { outcome, transcript, view, pageLanguage: await pageLanguage(page) };
      } finally {
        await server.close();
      }
    },
    async close() {
      if (session) await (await session).close();
    },
  };
}
