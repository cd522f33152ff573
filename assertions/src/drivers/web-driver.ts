import { COUNTRIES, type ErrorCode, ISO_639_1, type RequestId, SAFESEARCH_LEVELS } from '@openmates/contract';
import { CHROMIUM_LAUNCH } from '@openmates/fixtures';
import { handler as guiHandler } from '@openmates/web/handler';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { CaseEnvironment, DriverResult, ParityCase, SurfaceDriver } from '../case.ts';
import type { Outcome, OutcomeGroup } from '../outcome.ts';
import { startCaseServer } from './case-engine.ts';

const OPTION_FIELDS = ['count', 'country', 'search_lang', 'safesearch', 'filter_tabloids'] as const;

interface GuiItem {
  id?: string;
  query: string;
  count?: number;
  country?: string;
  search_lang?: string;
  safesearch?: string;
  filter_tabloids?: boolean;
}

/**
 * The items of a case as a GUI user can give them: 1–5 queries, string ids (a shared link's `id`
 * parameters), and one set of options for every query, each of the type the form sends.
 */
function guiItems(testCase: ParityCase): GuiItem[] | undefined {
  const request = testCase.request as { requests?: unknown } | undefined;
  if (testCase.http || !request || typeof request !== 'object' || Object.keys(request).join() !== 'requests')
    return undefined;
  const items = request.requests;
  if (!Array.isArray(items) || items.length < 1 || items.length > 5) return undefined;
  const allowed = new Set(['id', 'query', ...OPTION_FIELDS]);
  for (const item of items as Record<string, unknown>[]) {
    if (!item || typeof item !== 'object' || !Object.keys(item).every((k) => allowed.has(k))) return undefined;
    if (typeof item.query !== 'string' || (item.id !== undefined && typeof item.id !== 'string')) return undefined;
    if (item.count !== undefined && !Number.isInteger(item.count)) return undefined;
    for (const k of ['country', 'search_lang', 'safesearch'] as const)
      if (item[k] !== undefined && typeof item[k] !== 'string') return undefined;
    if (item.filter_tabloids !== undefined && typeof item.filter_tabloids !== 'boolean') return undefined;
  }
  const options = (item: Record<string, unknown>) => JSON.stringify(OPTION_FIELDS.map((k) => item[k]));
  const first = options(items[0] as Record<string, unknown>);
  if (!(items as Record<string, unknown>[]).every((item) => options(item) === first)) return undefined;
  return items as GuiItem[];
}

/** True when the form's own controls can express the items (no ids, values its controls offer). */
function fillable(items: GuiItem[]): boolean {
  const [first] = items;
  if (!first || items.some((i) => i.id !== undefined || i.query.trim() === '')) return false;
  if (first.count !== undefined && (first.count < 1 || first.count > 20)) return false;
  if (first.country !== undefined && !(COUNTRIES as readonly string[]).includes(first.country)) return false;
  if (first.search_lang !== undefined && !(ISO_639_1 as readonly string[]).includes(first.search_lang)) return false;
  if (first.safesearch !== undefined && !(SAFESEARCH_LEVELS as readonly string[]).includes(first.safesearch))
    return false;
  return first.filter_tabloids !== true;
}

/** The URL the search form submits for these items (what a shared link carries). */
function searchUrl(origin: string, items: GuiItem[]): string {
  const params = new URLSearchParams();
  for (const item of items) params.append('q', item.query);
  if (items.some((i) => i.id !== undefined)) for (const item of items) params.append('id', item.id ?? '');
  const [first] = items;
  if (first?.count !== undefined) params.set('count', String(first.count));
  if (first?.country !== undefined) params.set('country', first.country);
  if (first?.search_lang !== undefined) params.set('lang', first.search_lang);
  if (first?.safesearch !== undefined) params.set('safesearch', first.safesearch);
  if (first?.filter_tabloids !== undefined) params.set('tabloids', first.filter_tabloids ? 'on' : 'off');
  return `${origin}/?${params}`;
}

/** Fills the form as a person would: the query fields (adding fields as needed), the options, Enter. */
async function fillForm(page: Page, origin: string, items: GuiItem[]): Promise<void> {
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => document.querySelector('#svelte-announcer') !== null);
  for (const [i, item] of items.entries()) {
    if (i > 0) await page.getByRole('button', { name: 'Add a query' }).click();
    await page.getByLabel(`Query ${i + 1}`, { exact: true }).fill(item.query);
  }
  const [first] = items;
  if (first?.count !== undefined) await page.getByLabel('Results per query').fill(String(first.count));
  if (first?.country !== undefined) await page.getByLabel('Country').selectOption(first.country);
  if (first?.search_lang !== undefined) await page.getByLabel('Language').selectOption(first.search_lang);
  if (first?.safesearch !== undefined) await page.getByLabel('Safe search').selectOption(first.safesearch);
  if (first?.filter_tabloids === false) await page.getByLabel('Include tabloid sites').check();
  await page.getByLabel(`Query ${items.length}`, { exact: true }).press('Enter');
}

/** Reads the rendered answer back into an outcome: the page-level error, or the groups. */
async function readOutcome(page: Page, items: GuiItem[]): Promise<Outcome> {
  const done = page.locator('.page-error, [data-results]');
  await done.first().waitFor({ state: 'visible', timeout: 30_000 });
  const pageError = page.locator('.page-error');
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
      results: [...section.querySelectorAll('[data-result]')].map((result) => ({
        url: result.querySelector('a[href]')?.getAttribute('href') ?? '',
        title: result.querySelector('[data-title]')?.textContent ?? '',
        description: result.querySelector('[data-description]')?.textContent ?? '',
      })),
    })),
  );
  const outcome: Outcome = {
    groups: groups.map((g, i): OutcomeGroup => {
      // The page shows ids as text: the caller's string ids, or the auto-assigned integers.
      const id: RequestId = items[i]?.id !== undefined ? g.id : Number(g.id);
      return { id, results: g.results, ...(g.errorCode ? { errorCode: g.errorCode } : {}) };
    }),
  };
  if (responseCode) outcome.code = responseCode as ErrorCode;
  return outcome;
}

/** The web GUI in real Chromium, mounted on the API as `openmates serve` mounts it. */
export function createWebDriver(): SurfaceDriver {
  let browser: Promise<Browser> | undefined;
  return {
    surface: 'web',
    supports: (testCase) => guiItems(testCase) !== undefined,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const items = guiItems(testCase) ?? [];
      browser ??= chromium.launch({ executablePath: CHROMIUM_LAUNCH.executablePath, args: [...CHROMIUM_LAUNCH.args] });
      const server = await startCaseServer(environment.env, guiHandler);
      const context = await (await browser).newContext();
      try {
        const page = await context.newPage();
        if (fillable(items)) await fillForm(page, server.url, items);
        else await page.goto(searchUrl(server.url, items));
        const outcome = await readOutcome(page, items);
        const transcript = `${await page.content()}\n${server.logs.join('')}`;
        return { outcome, transcript };
      } finally {
        await context.close();
        await server.close();
      }
    },
    async close() {
      if (browser) await (await browser).close();
    },
  };
}
