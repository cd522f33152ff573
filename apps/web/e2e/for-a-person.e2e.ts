import { expect, type Page, test } from '@playwright/test';
import { hydrated, openOptions, openUrl, readGroups, searchPath } from './helpers.ts';

// What a person reads of the page, not what a developer does (ADR 0120).
test.use({ baseURL: openUrl() });

/** The page's visible text: what is rendered (a closed disclosure's content is not). */
const visibleText = (page: Page) =>
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point: what a person sees.
  page.evaluate(() => document.body.innerText);

const HOME = '/';
const RESULTS = searchPath(['person view', 'empty x'], { count: '3' });

for (const width of [1280, 390]) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`no developer's terms on the home and result pages (${scheme}, ${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: 844 });
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of [HOME, RESULTS]) {
        await page.goto(path);
        await hydrated(page);
        const text = await visibleText(page);
        // No fingerprint (or any 64-hex block), no budget line, no id the person did not set.
        expect(text, path).not.toMatch(/[0-9a-f]{64}/i);
        expect(text, path).not.toMatch(/Spent \d+ search call|distinct sources admitted/);
        expect(text, path).not.toMatch(/\bId\b/);
        await expect(page.locator('[data-field="id"]')).toHaveCount(0);
      }
      await expect(page.locator('[data-group-id]')).toHaveCount(2);
    });
  }
}

test('the first query box has the focus on the home page, with and without JavaScript', async ({ browser }) => {
  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ javaScriptEnabled, baseURL: openUrl() });
    const page = await context.newPage();
    await page.goto('/');
    if (javaScriptEnabled) await hydrated(page);
    await expect(page.getByLabel('Query 1', { exact: true })).toBeFocused();
    await context.close();
  }
});

test('a refused search shows its message once', async ({ page }) => {
  await page.goto(searchPath(['ok query'], { count: '99' }));
  const message = (await page.locator('[data-page-error] > [data-field="message"]').textContent()) ?? '';
  expect(message).not.toBe('');
  const text = await visibleText(page);
  expect(text.split(message).length - 1).toBe(1);
  await expect(page.locator('[data-status]')).toHaveText('');
});

test('at 390 px the query box and the results start within the first screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(searchPath(['first screen']));
  const top = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
  expect(await top('#q-0')).toBeLessThan(844);
  expect(await top('[data-group-id] [data-result]')).toBeLessThan(844);
});

test('a shared link after a search has no empty parameter and opens the same search', async ({ page, browser }) => {
  await page.goto('/');
  await hydrated(page);
  await page.getByLabel('Query 1', { exact: true }).fill('shared link');
  await openOptions(page, 1);
  await page.getByLabel('Results for query 1').fill('4');
  await page.getByLabel('Safe search for query 1').selectOption('strict');
  await page.getByRole('button', { name: 'Add a query' }).click();
  await page.getByLabel('Query 2', { exact: true }).fill('second query');
  await openOptions(page, 2);
  await page.getByLabel('Results for query 2').fill('2');
  await page.getByLabel('Safe search for query 2').selectOption('off');
  await page.getByLabel('Query 2', { exact: true }).press('Enter');
  await expect(page.locator('[data-results] [data-group-id]')).toHaveCount(2);

  const link = new URL(page.url());
  expect(link.search).toBe('?q=shared+link&q=second+query&count=4&count=2&safesearch=strict&safesearch=off');
  expect([...link.searchParams.values()].filter((value) => value === '')).toEqual([]);

  // Opened afresh (another person, another tab), the link is the same search: same form, same groups.
  const other = await browser.newPage({ baseURL: openUrl() });
  await other.goto(`${link.pathname}${link.search}`);
  expect(await readGroups(other)).toEqual(await readGroups(page));
  for (const n of [1, 2]) {
    for (const label of [`Query ${n}`, `Results for query ${n}`, `Safe search for query ${n}`])
      await expect(other.getByLabel(label, { exact: true })).toHaveValue(
        await page.getByLabel(label, { exact: true }).inputValue(),
      );
  }
  await other.close();
});
