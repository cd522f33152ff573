import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { handler as guiHandler } from '@openmates/web/handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braveEnvironment } from './brave-environment.ts';
import { startCaseServer } from './drivers/case-engine.ts';
import type { BrowserPage } from './drivers/page-actions.ts';
import { seleniumPage, startWebKit, type WebKitHost } from './drivers/webkit.ts';

// The GUI's "More results" link in WebKit, with the page's scripts on and off: a plain link to the
// same search one page on (Chromium's side is the GUI's own browser tests).
const LOADED_MS = 30_000;
const titlesOf = (from: number) => Array.from({ length: 10 }, (_, i) => `Result ${from + i} for paging gui`);
const titles = (page: BrowserPage) =>
  page.evaluate(() => [...document.querySelectorAll('[data-group-id] [data-title]')].map((t) => t.textContent));
const hydrated = (page: BrowserPage) => page.evaluate(() => document.querySelector('#svelte-announcer') !== null);

let brave: BraveFixture;
let host: WebKitHost;

beforeAll(async () => {
  brave = await startBraveFixture();
  host = await startWebKit();
});
afterAll(async () => {
  await host?.close();
  await brave?.close();
});

describe.each([
  ['on', true],
  ['off', false],
] as const)('WebKit, JavaScript %s: "More results"', (_, javascript) => {
  it('opens the next page of the same search, and the link is there only while more exist', async () => {
    const driver = await host.session({ javascript });
    const page = seleniumPage(driver);
    const server = await startCaseServer(braveEnvironment(brave).env, guiHandler);
    try {
      await page.goto(`${server.url}/?q=paging+gui&tabloids=off`);
      if (javascript) await page.waitUntil(() => document.querySelector('#svelte-announcer') !== null, LOADED_MS);
      expect(await titles(page)).toEqual(titlesOf(1));
      expect(await page.evaluate(() => document.querySelector('a[data-more-results]')?.textContent)).toBe(
        'More results',
      );
      await page.clickNth('a[data-more-results]', 0);
      await page.waitUntil(
        () => document.querySelector('[data-group-id] [data-title]')?.textContent === 'Result 11 for paging gui',
        LOADED_MS,
      );
      expect(await titles(page)).toEqual(titlesOf(11));
      const params = await page.evaluate(() => {
        const search = new URL(location.href).searchParams;
        return { q: search.getAll('q'), page: search.get('page'), tabloids: search.getAll('tabloids') };
      });
      expect(params).toEqual({ q: ['paging gui'], page: '2', tabloids: ['off'] });
      // Scripts ran exactly when they were meant to: the link worked as a link, not by a handler.
      expect(await hydrated(page)).toBe(javascript);
      await page.goto(`${server.url}/?q=scarce+gui&count=20&tabloids=off`);
      await page.waitUntil(() => document.querySelector('[data-group-id] [data-title]') !== null, LOADED_MS);
      expect(await page.evaluate(() => document.querySelectorAll('a[data-more-results]').length)).toBe(0);
    } finally {
      await server.close();
      await driver.quit();
    }
  });
});
