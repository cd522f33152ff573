import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { keyedUrl, openUrl, searchPath } from './helpers.ts';

// Twenty pages to check, each on its own: let both workers take them.
test.describe.configure({ mode: 'parallel' });

/**
 * Every axe violation on the page as it is now (any impact), and every colour-contrast check axe
 * could not decide (`incomplete`: a background it cannot see through), as `id: target` lines.
 */
async function axeFindings(page: Page): Promise<{ violations: string[]; undecidedContrast: string[] }> {
  const { violations, incomplete } = await new AxeBuilder({ page }).analyze();
  const lines = (results: typeof violations) =>
    results.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  return {
    violations: lines(violations),
    undecidedContrast: lines(incomplete.filter((r) => r.id === 'color-contrast')),
  };
}

/** Each page of the GUI a person meets, as reached from a fresh tab. */
const pages: Record<string, { url: () => string; prepare?: (page: Page) => Promise<void> }> = {
  'the empty form': { url: () => `${openUrl()}/` },
  'results, an empty group and a failed group': {
    url: () => `${openUrl()}${searchPath(['accessible search', 'empty x', 'error500 x'], { count: '3' })}`,
  },
  'an invalid request (its options open)': { url: () => `${openUrl()}${searchPath(['ok', ' '], { count: '50' })}` },
  'the key prompt': { url: () => `${keyedUrl()}/?q=x` },
  'an altered query with more results': {
    url: () => `${openUrl()}${searchPath(['altered accessible search'], { count: '3' })}`,
  },
  'results with the snippets open': {
    url: () => `${openUrl()}${searchPath(['narrow screen'], { count: '2' })}`,
    prepare: (page) => page.getByText('Use this search elsewhere').click(),
  },
};

for (const width of [390, 1280]) {
  for (const scheme of ['light', 'dark'] as const) {
    for (const [name, { url, prepare }] of Object.entries(pages)) {
      test(`axe: no violation and no undecided contrast on ${name} (${scheme}, ${width} px)`, async ({ page }) => {
        await page.setViewportSize({ width, height: 844 });
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(url());
        await prepare?.(page);
        expect(await axeFindings(page)).toEqual({ violations: [], undecidedContrast: [] });
      });
    }
  }
}

test('results are announced: a polite status region summarizes each search', async ({ page }) => {
  await page.goto(`${openUrl()}${searchPath(['announce me', 'empty x'], { count: '2' })}`);
  const status = page.getByRole('status').filter({ hasText: 'results' });
  await expect(status).toHaveAttribute('aria-live', 'polite');
  await expect(status).toHaveText('2 results for 2 queries, 1 with no results.');
});
