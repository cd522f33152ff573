import { expect, test } from '@playwright/test';
import {
  forbidDialogs,
  hydrated,
  openOptions,
  openUrl,
  readGroups,
  recordCspViolations,
  saveScreenshot,
  searchPath,
} from './helpers.ts';

test.use({ baseURL: openUrl() });

test.describe('with JavaScript', () => {
  test('searches two queries from the form without a full reload, with per-group loading states', async ({
    page,
  }, testInfo) => {
    const violations = await recordCspViolations(page);
    await page.goto('/');
    await hydrated(page);
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });

    await page.getByLabel('Query 1', { exact: true }).fill('rust ownership');
    await page.getByRole('button', { name: 'Add a query' }).click();
    await expect(page.getByLabel('Query 2', { exact: true })).toBeFocused();
    await page.getByLabel('Query 2', { exact: true }).fill('svelte runes');
    for (const n of [1, 2]) {
      await openOptions(page, n);
      await page.getByLabel(`Results for query ${n}`).fill('3');
    }

    // Hold the page's data request until the loading groups have been seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/__data\.json/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.locator('[data-loading]')).toHaveCount(2);
    await expect(page.locator('[data-status]')).toHaveText('Searching 2 queries…');
    release();

    await expect(page.locator('[data-group-id]')).toHaveCount(2);
    await expect(page.locator('[data-loading]')).toHaveCount(0);
    expect(new URL(page.url()).searchParams.getAll('q')).toEqual(['rust ownership', 'svelte runes']);
    expect(new URL(page.url()).searchParams.getAll('count')).toEqual(['3', '3']);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

    const groups = await readGroups(page);
    expect(groups.map((g) => g.id)).toEqual(['1', '2']);
    expect(groups[0]?.results).toEqual(
      [1, 2, 3].map((n) => ({
        url: `https://example.org/rust-ownership/${n}`,
        title: `Result ${n} for rust ownership`,
        description: `A deterministic fixture page about rust ownership (result ${n}).`,
      })),
    );
    await expect(page.locator('[data-status]')).toHaveText('6 results for 2 queries.');
    // The fixture's results are in English, the page's language: the muted line does not say it.
    await expect(page.locator('[data-group-id="1"] [data-result] .meta').first()).toHaveText(/^January \d+, 2025$/);
    await expect(page.locator('[data-group-id="1"] [data-result] cite').first()).toHaveText(
      'example.org › rust-ownership › 1',
    );
    expect(await violations()).toEqual([]);
    await saveScreenshot(page, testInfo, 'search-with-javascript');
  });

  test('a batch of five queries shows five groups side by side, in request order', async ({ page }, testInfo) => {
    const queries = ['alpha one', 'beta two', 'gamma three', 'delta four', 'epsilon five'];
    await page.goto(searchPath(queries, { count: '2' }));
    const groups = await readGroups(page);
    expect(groups.map((g) => g.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(groups.map((g) => g.results.length)).toEqual([2, 2, 2, 2, 2]);
    for (const [i, query] of queries.entries()) {
      await expect(page.locator('[data-group-id]').nth(i).getByRole('heading', { level: 2 })).toContainText(query);
    }
    const tops = await page
      .locator('[data-group-id]')
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
    expect(tops[1]).toBe(tops[0]);
    await expect(page.getByRole('button', { name: 'Add a query' })).toHaveCount(0);
    await saveScreenshot(page, testInfo, 'batch-of-five');
  });

  test('shows an explicit "no results" state and per-group errors next to successful groups', async ({
    page,
  }, testInfo) => {
    await page.goto(searchPath(['empty x', 'error500 x', 'hello world'], { count: '2' }));
    const groups = await readGroups(page);
    expect(groups).toEqual([
      { id: '1', errorCode: undefined, results: [] },
      { id: '2', errorCode: 'provider_error', results: [] },
      expect.objectContaining({ id: '3', errorCode: undefined }),
    ]);
    expect(groups[2]?.results).toHaveLength(2);
    await expect(page.locator('[data-group-id="1"]')).toContainText('No results');
    await expect(page.locator('[data-group-id="2"]')).toContainText('This search failed');
    // The provider's raw body (with its key, hostnames and stack) never reaches the page.
    await expect(page.locator('body')).not.toContainText('canary');
    await expect(page.locator('[data-response-code]').first()).toHaveAttribute('data-response-code', 'provider_error');
    await saveScreenshot(page, testInfo, 'empty-and-error-groups');
  });

  test('a batch where every group failed (502) still renders each group with its error', async ({ page }) => {
    await page.goto(searchPath(['error500 x', 'unavailable y']));
    const groups = await readGroups(page);
    expect(groups.map((g) => [g.id, g.errorCode, g.results.length])).toEqual([
      ['1', 'provider_error', 0],
      ['2', 'provider_unavailable', 0],
    ]);
  });

  test('an invalid request shows the API issues, with the same paths, next to the fields', async ({
    page,
  }, testInfo) => {
    await page.goto(searchPath(['ok query', '   '], { count: '99', lang: 'xx' }));
    const error = page.locator('[data-issue-paths]');
    await expect(error).toHaveAttribute('data-error-code', 'invalid_request');
    const paths: string[] = JSON.parse((await error.getAttribute('data-issue-paths')) ?? '[]');
    expect(paths).toEqual(
      expect.arrayContaining(['requests[1].query', 'requests[0].count', 'requests[0].search_lang']),
    );
    await expect(page.locator('[data-group-id]')).toHaveCount(0);
    await expect(page.getByLabel('Query 2', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Results for query 1')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Language for query 2')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Query 1', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
    await saveScreenshot(page, testInfo, 'invalid-request');
  });

  test('more than five queries is refused by the API with the batch rule', async ({ page }) => {
    await page.goto(searchPath(['a', 'b', 'c', 'd', 'e', 'f']));
    const paths: string[] = JSON.parse(
      (await page.locator('[data-issue-paths]').getAttribute('data-issue-paths')) ?? '',
    );
    expect(paths).toEqual(['requests']);
  });

  test('copies the search as curl, CLI, TypeScript and Python code, and the curl command reproduces it', async ({
    page,
    context,
    request,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(searchPath(['node streams', "it's quoted"], { count: '2', country: 'de', tabloids: 'off' }));
    await hydrated(page);
    await page.getByText('Use this search elsewhere').click();
    const curl = (await page.locator('[data-snippet="curl"]').textContent()) ?? '';
    const cli = (await page.locator('[data-snippet="cli"]').textContent()) ?? '';
    const sdk = (await page.locator('[data-snippet="sdk"]').textContent()) ?? '';
    const python = (await page.locator('[data-snippet="python"]').textContent()) ?? '';
    expect(cli).toBe(
      `openmates search --api-url ${openUrl()} --count 2 --country de --no-filter-tabloids 'node streams' 'it'\\''s quoted'`,
    );
    expect(sdk).toContain(`new OpenMates({ baseURL: "${openUrl()}" })`);
    expect(sdk).toContain('"filter_tabloids": false');
    expect(python).toContain(`OpenMates(base_url="${openUrl()}")`);
    expect(python).toContain('"filter_tabloids": False');

    await page.getByRole('button', { name: 'Copy' }).first().click();
    await expect(page.getByText('Copied the curl command.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(curl);

    // The curl command, run by a real shell, sends the same request the page did.
    const { execFileSync } = await import('node:child_process');
    const viaCurl = JSON.parse(execFileSync('bash', ['-c', curl], { encoding: 'utf8' }));
    const direct = await request.post('/v1/apps/web/skills/search', {
      data: {
        requests: ['node streams', "it's quoted"].map((query) => ({
          query,
          count: 2,
          country: 'de',
          filter_tabloids: false,
        })),
      },
    });
    expect(viaCurl.results).toEqual((await direct.json()).results);
    expect(viaCurl.results.map((g: { results: { url: string }[] }) => g.results.map((r) => r.url))).toEqual(
      (await readGroups(page)).map((g) => g.results.map((r) => r.url)),
    );
  });

  test('the footer names the provider; its closed About says the version and the contract fingerprint', async ({
    page,
    request,
  }) => {
    const info = await (await request.get('/v1/apps/web/skills/search')).json();
    await page.goto('/');
    await expect(page.locator('[data-provider]')).toHaveText(info.provider.name);
    expect(info.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    await expect(page.locator('[data-fingerprint]')).toBeHidden();
    await page.getByText('About', { exact: true }).click();
    await expect(page.locator('[data-fingerprint]')).toHaveText(info.fingerprint);
    await expect(page.locator('[data-version]')).toHaveText(info.version);
  });

  test('security headers: strict CSP, no referrer, no framing', async ({ request }) => {
    const response = await request.get(searchPath(['hello']));
    const headers = response.headers();
    const csp = headers['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'self'( 'sha256-[^']+')*;/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cache-control']).toBe('no-store');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('searches through the server load alone, and shares the search as a URL', async ({ page }, testInfo) => {
    await page.goto('/');
    await page.getByLabel('Query 1', { exact: true }).fill('hello world');
    await openOptions(page, 1);
    await page.getByLabel('Results for query 1').fill('4');
    await page.getByLabel('Safe search for query 1').selectOption('strict');
    await page.getByLabel('Query 1', { exact: true }).press('Enter');
    // The server answers the form's submission (every control, empty ones too) with the search's own link.
    await expect(page).toHaveURL(/\/\?q=hello\+world&count=4&safesearch=strict$/);
    const groups = await readGroups(page);
    expect(groups).toHaveLength(1);
    expect(groups[0]?.results.map((r) => r.title)).toEqual([1, 2, 3, 4].map((n) => `Result ${n} for hello world`));
    expect(new URL(page.url()).searchParams.get('safesearch')).toBe('strict');

    // The same URL, reloaded, gives the same page.
    await page.reload();
    expect(await readGroups(page)).toEqual(groups);
    await expect(page.getByLabel('Safe search for query 1')).toHaveValue('strict');
    await saveScreenshot(page, testInfo, 'search-without-javascript');
  });

  test('adds and removes query fields with plain form submissions, keeping what was typed', async ({ page }) => {
    await page.goto('/');
    await page.getByLabel('Query 1', { exact: true }).fill('first');
    await page.getByRole('button', { name: 'Add a query' }).click();
    await expect(page.getByLabel('Query 2', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Query 1', { exact: true })).toHaveValue('first');
    await expect(page.locator('[data-group-id]')).toHaveCount(0);
    await page.getByLabel('Query 2', { exact: true }).fill('second');
    await page.getByRole('button', { name: 'Remove query 1' }).click();
    await expect(page.getByLabel('Query 1', { exact: true })).toHaveValue('second');
    await expect(page.getByLabel('Query 2', { exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    expect((await readGroups(page)).map((g) => g.results[0]?.title)).toEqual(['Result 1 for second']);
  });
});

test('usable at 360 px wide: no horizontal scrolling', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(searchPath(['a rather long query about responsive layouts', 'error500 x'], { count: '3' }));
  await expect(page.locator('[data-group-id]')).toHaveCount(2);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await saveScreenshot(page, testInfo, 'narrow-360px');
});

test('keyboard only: search, then reach the first result, with a visible focus ring', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  // The first query field has the focus on load; the skip link is one Shift+Tab before it.
  await expect(page.getByLabel('Query 1', { exact: true })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('link', { name: 'Skip to results' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Query 1', { exact: true })).toBeFocused();
  await page.keyboard.type('keyboard search');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-group-id]')).toHaveCount(1);
  await expect(page.getByLabel('Query 1', { exact: true })).toBeFocused();

  // Tab on until focus is on the first result link.
  const firstLink = page.locator('[data-result] a').first();
  for (let i = 0; i < 40 && !(await firstLink.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(firstLink).toBeFocused();
  const outline = await firstLink.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
});

test('light and dark themes follow the system setting', async ({ page }, testInfo) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(searchPath(['theme check'], { count: '2' }));
  const light = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(light).toBe('rgb(255, 255, 255)');
  expect(dark).not.toBe(light);
  await saveScreenshot(page, testInfo, 'dark-theme');
});

test('outbound links never send a referrer or an opener', async ({ page }) => {
  forbidDialogs(page);
  await page.goto(searchPath(['links check'], { count: '5' }));
  const rels = await page.locator('[data-result] a').evaluateAll((links) => links.map((a) => a.getAttribute('rel')));
  expect(rels).toHaveLength(5);
  for (const rel of rels) expect(rel).toBe('noopener noreferrer');
});
