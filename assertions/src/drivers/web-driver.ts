import type { Frame, Page } from 'playwright-core';
import type { SurfaceDriver } from '../case.ts';
import { openSharedChromium } from './chromium.ts';
import { type BrowserPage, type BrowserSession, createGuiColumn, type GuiColumnOptions } from './page-actions.ts';

/** A Playwright page (or a frame in one) as the shared page actions drive it: a control by its label, a button by its role and name. */
export function playwrightPage(page: Page | Frame): BrowserPage {
  const labelled = (label: string) => page.getByLabel(label, { exact: true });
  return {
    async goto(url) {
      await page.goto(url);
    },
    // Playwright's own argument type (`Unboxed`) is wider than the layer's JSON argument.
    evaluate: (fn, arg) => page.evaluate(fn as (arg: unknown) => Awaited<ReturnType<typeof fn>>, arg),
    async waitUntil(predicate, timeoutMs) {
      await page.waitForFunction(predicate, undefined, { timeout: timeoutMs });
    },
    fill: (label, value) => labelled(label).fill(value),
    async select(label, value) {
      await labelled(label).selectOption({ value });
    },
    pressEnter: (label) => labelled(label).press('Enter'),
    clickButton: (name) => page.getByRole('button', { name }).click(),
    clickNth: (selector, index) => page.locator(selector).nth(index).click(),
    content: () => page.content(),
  };
}

/** Debian's Chromium through Playwright (the process's shared browser), one page for every case of the column. */
async function openChromium(): Promise<BrowserSession> {
  const { browser, release } = await openSharedChromium();
  const context = await browser.newContext();
  const page = await context.newPage();
  return {
    page: playwrightPage(page),
    async close() {
      await context.close();
      await release();
    },
  };
}

/** The web GUI in real Chromium, mounted on the API as `openmates serve` mounts it; one browser page for every case. */
export function createWebDriver(options: GuiColumnOptions = {}): SurfaceDriver {
  return createGuiColumn('web', openChromium, options);
}
