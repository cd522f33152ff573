import { expect, test } from '@playwright/test';
import { hydrated, openOptions, openUrl, readGroups, recordCspViolations, searchPath } from './helpers.ts';

test.use({ baseURL: openUrl() });

test('shows a result as a search engine does, the provider, the query the provider searched for and what the search cost, not the budget', async ({
  page,
}) => {
  const violations = await recordCspViolations(page);
  // The fixture's `altered` scenario corrects the query to its words after the first.
  await page.goto(searchPath(['altered rust ownership'], { count: '2' }));
  const first = page.locator('[data-result]').first();
  const [url] = (await readGroups(page))[0]?.results.map((r) => r.url) ?? [];
  expect(url).toMatch(/^https:\/\//);
  const { host, pathname } = new URL(url ?? '');
  await expect(first.getByRole('link')).toHaveAttribute('href', url ?? '');
  // The display URL: the host, then the path's segments.
  await expect(first.locator('cite')).toHaveText([host, ...pathname.split('/').filter(Boolean)].join(' › '));
  // One muted line: the language goes unsaid when it is the page's (English), family friendliness when it is friendly.
  await expect(first.locator('.meta')).toHaveText('January 5, 2025');
  await expect(first).not.toContainText('family friendly', { ignoreCase: true });
  // No favicon: neither its host as text nor a remote image.
  await expect(first).not.toContainText('imgs.search.brave.com');
  await expect(page.locator('img')).toHaveCount(0);
  // The API numbered the query: no id is said. What the search cost is said in words, not the budget.
  await expect(page.locator('[data-group-id]')).not.toContainText(/\bId\b/);
  const about = page.locator('[data-about]');
  await expect(about).toHaveText(/^Answered by Brave Search\s+This search: 1 provider call\b/);
  await expect(page.locator('main')).not.toContainText(/Spent|search calls?|sources admitted/);

  // What Brave searched for instead is said above the group, and no longer offered as a related search.
  await expect(page.locator('[data-group-id] [data-field="altered_query"]')).toHaveText('rust ownership');
  await expect(page.getByRole('navigation', { name: 'Related searches' })).toHaveCount(0);
  expect((await readGroups(page))[0]?.results[0]?.title).toBe('Result 1 for rust ownership');
  await hydrated(page);
  expect(await violations()).toEqual([]);
});

for (const javaScriptEnabled of [true, false]) {
  test(`per-query options through the form, and ids only from a link, kept by the next search (${javaScriptEnabled ? 'with' : 'without'} JavaScript)`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled, baseURL: openUrl() });
    const page = await context.newPage();
    await page.goto('/?q=alpha&q=beta&id=a&id=7&idtype=&idtype=number');
    if (javaScriptEnabled) await hydrated(page);
    // No Id among a person's options.
    await openOptions(page, 1);
    await expect(page.getByLabel('Id for query 1', { exact: true })).toHaveCount(0);
    await expect(page.getByLabel('Id type for query 1', { exact: true })).toHaveCount(0);
    await page.getByLabel('Results for query 1', { exact: true }).fill('2');
    await openOptions(page, 2);
    await page.getByLabel('Results for query 2', { exact: true }).fill('3');
    await page.getByLabel('Language for query 2', { exact: true }).fill('de');
    await page.getByLabel('Tabloid sites for query 2', { exact: true }).selectOption('off');
    await page.getByRole('button', { name: 'Search', exact: true }).click();

    await expect(page).toHaveURL(/count=2&count=3/);
    const params = new URL(page.url()).searchParams;
    expect(params.getAll('q')).toEqual(['alpha', 'beta']);
    expect(params.getAll('id')).toEqual(['a', '7']);
    expect(params.getAll('idtype')).toEqual(['', 'number']);
    expect(params.getAll('count')).toEqual(['2', '3']);
    expect(params.getAll('lang')).toEqual(['', 'de']);
    expect(params.getAll('tabloids')).toEqual(['', 'off']);
    // Nothing no query sets.
    expect([...new Set(params.keys())].sort()).toEqual(['count', 'id', 'idtype', 'lang', 'q', 'tabloids']);
    await expect(page.locator('[data-group-id]')).toHaveCount(2);
    const groups = await readGroups(page);
    expect(groups.map((g) => [g.id, g.results.length])).toEqual([
      ['a', 2],
      ['7', 3],
    ]);
    // The ids the link set are shown with their groups.
    await expect(page.locator('[data-group-id] [data-field="id"]')).toHaveText(['a', '7']);
    // The request went out with a string id and a number id, as the snippets show it.
    const sdk = (await page.locator('[data-snippet="sdk"]').textContent()) ?? '';
    expect(sdk).toContain('"id": "a"');
    expect(sdk).toContain('"id": 7');
    expect(sdk).toContain('"search_lang": "de"');
    // The closed disclosures say what is set.
    await expect(page.locator('[data-query-row] summary').nth(1)).toContainText(
      'id 7 (number), 3 results, language de, tabloids included',
    );
    await context.close();
  });
}

test('a link shared before options were per query still searches with one set of options for all', async ({ page }) => {
  await page.goto('/?q=one&q=two&count=2&country=de&id=first');
  const groups = await readGroups(page);
  expect(groups.map((g) => [g.id, g.results.length])).toEqual([
    ['first', 2],
    ['1', 2],
  ]);
  await expect(page.locator('[data-query-row] summary').nth(1)).toContainText('2 results, country de');
});
