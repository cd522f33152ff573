import { displayUrl, type WebSearchResponse } from '@openmates/contract';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braveEnvironment } from './brave-environment.ts';
import type { ParityCase, SurfaceDriver } from './case.ts';
import { CASES } from './cases/index.ts';
import { createCoreDriver } from './drivers/core-driver.ts';
import type { GuiColumnOptions } from './drivers/page-actions.ts';
import { createWebDriver } from './drivers/web-driver.ts';
import { createWebkitDriver } from './drivers/webkit-driver.ts';
import { checkPersonView } from './runner.ts';

// The GUI drivers read what a person sees: a page that drops a field, or hides one, must not pass.
let brave: BraveFixture;
const testCase = CASES.find((c) => c.name === 'ordinary-results-exact') as ParityCase;
const environment = () => braveEnvironment(brave);
const ALTERATIONS: Record<string, GuiColumnOptions['alter']> = {
  dropping: (page) =>
    page.evaluate(() => {
      document.querySelector('[data-result] [data-field="display_url"]')?.remove();
    }),
  relinking: (page) =>
    page.evaluate(() => {
      document.querySelector('[data-result] a[href]')?.setAttribute('href', 'https://elsewhere.example/');
    }),
  hiding: (page) =>
    page.evaluate(() => {
      document.querySelector('[data-result] [data-field="age"]')?.classList.add('visually-hidden');
      const url = document.querySelector<HTMLElement>('[data-result] [data-field="display_url"]');
      if (url) url.style.display = 'none';
    }),
};

// Both GUI columns read through the same page actions; each browser is checked on its own, in one
// window per browser, with the alteration of the moment applied before the page is read.
let alteration: keyof typeof ALTERATIONS | undefined;
const alter: GuiColumnOptions['alter'] = async (page) => {
  await (alteration ? ALTERATIONS[alteration]?.(page) : undefined);
};
const COLUMNS = { web: createWebDriver({ alter }), webkit: createWebkitDriver({ alter }) };
const run = (driver: SurfaceDriver, with_?: keyof typeof ALTERATIONS) => {
  alteration = with_;
  return driver.run(testCase, environment());
};

beforeAll(async () => {
  brave = await startBraveFixture();
});
afterAll(async () => {
  await Promise.all(Object.values(COLUMNS).map((d) => d.close?.()));
  await brave?.close();
});

describe.each(Object.keys(COLUMNS) as (keyof typeof COLUMNS)[])('the %s driver reads the visible page', (browser) => {
  const driver = COLUMNS[browser];
  it('a page that shows every field equals the core document’s person view', async () => {
    const reference = (await createCoreDriver().run(testCase, environment())).document;
    const shown = await run(driver);
    expect(shown.pageLanguage).toBe('en');
    expect(checkPersonView(testCase, shown.view, reference, shown.pageLanguage)).toBeUndefined();
    const url = (reference as WebSearchResponse).results[0]?.results[0]?.url ?? '';
    const missing = await run(driver, 'dropping');
    const removed = checkPersonView(testCase, missing.view, reference, missing.pageLanguage) ?? '';
    expect(removed).toContain(`$.groups[0].results[0].display_url: "" ≠ ${JSON.stringify(displayUrl(url))}`);
    // The link's target is read too: a title that leads elsewhere is a difference.
    const moved = await run(driver, 'relinking');
    expect(checkPersonView(testCase, moved.view, reference, moved.pageLanguage) ?? '').toContain(
      `$.groups[0].results[0].url: "https://elsewhere.example/" ≠ ${JSON.stringify(url)}`,
    );
  });

  it('a field that carries text but is not rendered fails the read', async () => {
    await expect(run(driver, 'hiding')).rejects.toThrow('fields with text that a person cannot see: display_url, age');
  });
});
