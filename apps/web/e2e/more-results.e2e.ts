import { expect, type Page, test } from '@playwright/test';
import { hydrated, openUrl } from './helpers.ts';

test.use({ baseURL: openUrl() });

const titles = (page: Page) => page.locator('[data-group-id] [data-title]').allTextContents();

/** Follows the group's "More results" link and checks page 2 holds results 11–20 of the fixture. */
async function followMore(page: Page): Promise<void> {
  expect(await titles(page)).toEqual(Array.from({ length: 10 }, (_, i) => `Result ${i + 1} for paging gui`));
  const more = page.getByRole('link', { name: 'More results' });
  await expect(more).toHaveCount(1);
  await more.click();
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expect(page.locator('[data-group-id] [data-title]').first()).toHaveText('Result 11 for paging gui');
  expect(await titles(page)).toEqual(Array.from({ length: 10 }, (_, i) => `Result ${i + 11} for paging gui`));
  // Same search otherwise: the query and its options are kept.
  const params = new URL(page.url()).searchParams;
  expect(params.getAll('q')).toEqual(['paging gui']);
  expect(params.getAll('tabloids')).toEqual(['off']);
  await expect(page.getByRole('link', { name: 'More results' })).toHaveCount(1);
}

test.describe('"More results" with JavaScript', () => {
  test('opens the next page of the same search', async ({ page }) => {
    await page.goto('/?q=paging+gui&tabloids=off');
    await hydrated(page);
    await followMore(page);
  });
});

test.describe('"More results" without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('is a plain link to the next page of the same search', async ({ page }) => {
    await page.goto('/?q=paging+gui&tabloids=off');
    await followMore(page);
  });

  test('says what the provider searched for instead, above the group, and offers no link where no more exist', async ({
    page,
  }) => {
    await page.goto('/?q=altered+rust+ownership');
    await expect(page.locator('[data-group-id] .altered')).toHaveText(/^Showing results for\s*“?rust ownership”?$/);
    await page.goto('/?q=scarce+gui&count=20&tabloids=off');
    await expect(page.locator('[data-group-id] [data-title]').first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'More results' })).toHaveCount(0);
  });
});
