import {
  type ErrorCode,
  LIST_SEPARATOR,
  REQUEST_FIELDS,
  type RequestField,
  type RequestFields,
  type RequestId,
} from '@openmates/contract';
import { CHROMIUM_LAUNCH } from '@openmates/fixtures';
import { handler as guiHandler } from '@openmates/web/handler';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { CaseEnvironment, DriverResult, ParityCase, SurfaceDriver } from '../case.ts';
import type { Outcome, OutcomeGroup } from '../outcome.ts';
import {
  PERSON_BUDGET_KEYS,
  type PersonBudget,
  type PersonGroup,
  type PersonResponseView,
  type PersonResult,
  type PersonView,
} from '../person-view.ts';
import { startCaseServer } from './case-engine.ts';

/** One request item as the form's fields take it: its values by field name (the case's JSON). */
type FormItem = { query: string } & Record<string, unknown>;

/** The case's items; the web column only runs cases whose request a person can give (see `formCannotExpress`). */
function formItems(testCase: ParityCase): FormItem[] {
  const items = (testCase.request as { requests?: unknown } | undefined)?.requests;
  if (!Array.isArray(items)) throw new Error(`${testCase.name}: no items for the form`);
  return items as FormItem[];
}

/** Sets one field's control as a person would, by the control's type; its label is `<label> for query N`. */
async function fillControl(page: Page, n: number, field: RequestField, value: unknown): Promise<void> {
  const control = field.control;
  if (!control) throw new Error(`${field.name} has no control in the form`);
  const input = (label: string) => page.getByLabel(`${label} for query ${n}`, { exact: true });
  switch (control.control) {
    case 'select':
      await input(control.label).selectOption(String(value));
      break;
    case 'toggle':
      await input(control.label).selectOption(value === false ? 'off' : 'on');
      break;
    case 'list':
      await input(control.label).fill((value as unknown[]).map(String).join(LIST_SEPARATOR));
      break;
    case 'text':
    case 'number':
      await input(control.label).fill(String(value));
      // An id's type is its own select beside it: a number id is typed `number`.
      if (field.link.typeParam && typeof value === 'number')
        await input(`${control.label} type`).selectOption('number');
      break;
  }
}

/** Fills the form as a person would: each query and its options disclosure, adding fields as needed, then Enter. */
async function fillForm(
  page: Page,
  origin: string,
  items: FormItem[],
  fields: RequestFields = REQUEST_FIELDS,
): Promise<void> {
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => document.querySelector('#svelte-announcer') !== null);
  for (const [i, item] of items.entries()) {
    const n = i + 1;
    if (i > 0) await page.getByRole('button', { name: 'Add a query' }).click();
    await page.getByLabel(`Query ${n}`, { exact: true }).fill(item.query);
    const options = fields.filter((field) => field.control && item[field.name] !== undefined);
    if (options.length === 0) continue;
    await page.locator('[data-query-row] summary').nth(i).click();
    for (const field of options) await fillControl(page, n, field, item[field.name]);
  }
  await page.getByLabel(`Query ${items.length}`, { exact: true }).press('Enter');
}

/** Reads the rendered answer back into the short outcome (data attributes locate the parts). */
async function readOutcome(page: Page, items: FormItem[]): Promise<Outcome> {
  const pageError = page.locator('[data-page-error]');
  if ((await pageError.count()) > 0) {
    const code = ((await pageError.getAttribute('data-error-code')) ?? 'internal_error') as ErrorCode;
    const paths = await pageError.getAttribute('data-issue-paths');
    const outcome: Outcome = { code, groups: [] };
    const issuePaths = paths ? (JSON.parse(paths) as string[]) : [];
    if (issuePaths.length > 0) outcome.issuePaths = [...issuePaths].sort();
    return outcome;
  }
  const responseCode = await page.locator('[data-results]').getAttribute('data-response-code');
  const groups = await page.locator('[data-group-id]').evaluateAll((sections) =>
    sections.map((section) => ({
      id: section.getAttribute('data-group-id') ?? '',
      errorCode: section.getAttribute('data-error-code'),
      provider: section.getAttribute('data-group-provider'),
      results: [...section.querySelectorAll('[data-result]')].map((result) => ({
        url: result.querySelector('a[href]')?.getAttribute('href') ?? '',
        title: result.querySelector('[data-title]')?.textContent ?? '',
        description: result.querySelector('[data-description]')?.textContent ?? '',
      })),
    })),
  );
  const outcome: Outcome = {
    groups: groups.map((g, i): OutcomeGroup => {
      // The page shows ids as text: the caller's string ids stay strings; numbers and auto ids are numbers.
      const id: RequestId = typeof items[i]?.id === 'string' ? g.id : Number(g.id);
      return {
        id,
        results: g.results,
        ...(g.errorCode ? { errorCode: g.errorCode } : {}),
        ...(g.provider ? { provider: g.provider } : {}),
      };
    }),
  };
  if (responseCode) outcome.code = responseCode as ErrorCode;
  // As outcomeOfResponse: the response's provider counts only when the groups say who answered each.
  if (outcome.groups.some((g) => g.provider !== undefined)) {
    const provider = await page.locator('[data-results]').getAttribute('data-response-provider');
    if (provider !== null) outcome.provider = provider;
  }
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
async function readView(page: Page): Promise<PersonView> {
  const { fields, hidden, isError, links } = await page.evaluate(() => {
    const area = document.querySelector('#results');
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

  const groupCount = await page.locator('[data-group-id]').count();
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
      return {
        id: one('id', inGroup) ?? '',
        ...(answeredBy !== undefined ? { provider: answeredBy } : {}),
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
  if (one('calls_used', top) !== undefined) {
    const budget = Object.fromEntries(
      PERSON_BUDGET_KEYS.map((key) => [key, Number(one(key, top) ?? '0')]),
    ) as unknown as PersonBudget;
    view.budget = budget;
  }
  return view;
}

/** The web GUI in real Chromium, mounted on the API as `openmates serve` mounts it; one browser page for every case. */
export function createWebDriver(
  options: {
    /** Test-only: changes the rendered page before it is read (proves the reading is not vacuous). Default none. */
    alter?: (page: Page) => Promise<void>;
  } = {},
): SurfaceDriver {
  let browser: Promise<Browser> | undefined;
  let context: Promise<BrowserContext> | undefined;
  let page: Promise<Page> | undefined;
  return {
    surface: 'web',
    supports: (testCase) => testCase.formCannotExpress === undefined,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const items = formItems(testCase);
      browser ??= chromium.launch({ executablePath: CHROMIUM_LAUNCH.executablePath, args: [...CHROMIUM_LAUNCH.args] });
      context ??= browser.then((b) => b.newContext());
      page ??= context.then((c) => c.newPage());
      const tab = await page;
      const server = await startCaseServer(environment.env, guiHandler);
      try {
        await fillForm(tab, server.url, items);
        await tab.locator('[data-page-error], [data-results]').first().waitFor({ state: 'visible', timeout: 30_000 });
        await options.alter?.(tab);
        const outcome = await readOutcome(tab, items);
        const view = await readView(tab);
        const transcript = `${await tab.content()}\n${server.logs.join('')}`;
        return { outcome, transcript, view };
      } finally {
        await server.close();
      }
    },
    async close() {
      if (browser) await (await browser).close();
    },
  };
}
