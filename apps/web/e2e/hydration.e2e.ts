import { expect, test } from '@playwright/test';
import { apiKey, holdScripts, hydrated, keyedUrl, openOptions, openUrl, readGroups } from './helpers.ts';

// The server-rendered page is usable before its script starts; starting it must not undo what the
// person typed or ticked in the meantime.

test('what is typed into the search form before the page hydrates is kept, and searched', async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto(`${openUrl()}/`, { waitUntil: 'commit' });
  await page.getByLabel('Query 1', { exact: true }).fill('typed early');
  await openOptions(page, 1);
  await page.getByLabel('Results for query 1').fill('2');
  await expect(page.locator('#svelte-announcer')).toHaveCount(0);

  release();
  await hydrated(page);
  await expect(page.getByLabel('Query 1', { exact: true })).toHaveValue('typed early');
  // The options the person opened stay open, with what they set.
  await expect(page.getByLabel('Results for query 1')).toBeVisible();
  await expect(page.getByLabel('Results for query 1')).toHaveValue('2');

  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/[?&]q=typed\+early/);
  await expect(page.locator('[data-loading]')).toHaveCount(0);
  await expect(page.locator('[data-group-id]')).toHaveCount(1);
  expect((await readGroups(page)).map((g) => g.results.length)).toEqual([2]);
});

test('"Remember this key on this device", ticked before the page hydrates, stays ticked and is applied', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: keyedUrl() });
  const page = await context.newPage();
  const release = await holdScripts(page);
  await page.goto('/?q=early+tick', { waitUntil: 'commit' });
  const remember = page.getByLabel('Remember this key on this device');
  await remember.check();
  await page.getByLabel('API key', { exact: true }).fill(apiKey());
  await expect(page.locator('#svelte-announcer')).toHaveCount(0);

  release();
  await hydrated(page);
  await expect(remember).toBeChecked();
  await expect(page.getByLabel('API key', { exact: true })).toHaveValue(apiKey());

  await page.getByRole('button', { name: 'Use this key' }).click();
  await expect(page).toHaveURL(`${keyedUrl()}/?q=early+tick`);
  const [cookie, ...others] = await context.cookies();
  expect(others).toEqual([]);
  // Remembered: a cookie with an expiry (a session cookie reports -1).
  expect(cookie?.expires).toBeGreaterThan(Date.now() / 1000);
  await context.close();
});
