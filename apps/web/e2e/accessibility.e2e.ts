import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { keyedUrl, openUrl, searchPath } from './helpers.ts';

/** Serious and critical axe violations on the page as it is now, as `id: target` lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

const pages = {
  'the empty form': '/',
  'results, an empty group and a failed group': searchPath(['accessible search', 'empty x', 'error500 x'], {
    count: '3',
  }),
  'an invalid request': searchPath(['ok', ' '], { count: '50' }),
};

for (const scheme of ['light', 'dark'] as const) {
  for (const [name, path] of Object.entries(pages)) {
    test(`axe: no serious or critical violations on ${name} (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${openUrl()}${path}`);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
}

test('axe: no serious or critical violations on the key prompt', async ({ page }) => {
  await page.goto(`${keyedUrl()}/?q=x`);
  expect(await seriousViolations(page)).toEqual([]);
});

test('axe: no serious or critical violations at 360 px with the snippets open', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`${openUrl()}${searchPath(['narrow screen'], { count: '2' })}`);
  await page.getByText('Use this search elsewhere').click();
  expect(await seriousViolations(page)).toEqual([]);
});

test('results are announced: a polite status region summarizes each search', async ({ page }) => {
  await page.goto(`${openUrl()}${searchPath(['announce me', 'empty x'], { count: '2' })}`);
  const status = page.getByRole('status').filter({ hasText: 'results' });
  await expect(status).toHaveAttribute('aria-live', 'polite');
  await expect(status).toHaveText('2 results for 2 queries, 1 with no results.');
});
