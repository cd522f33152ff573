import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, TestInfo } from '@playwright/test';

/** The open server (no API keys) and the keyed one, started by global-setup.ts. */
export const openUrl = () => required('E2E_URL');
export const keyedUrl = () => required('E2E_KEYED_URL');
export const apiKey = () => required('E2E_API_KEY');

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through playwright.config.ts`);
  return value;
}

/** A search URL from queries and options, as the form would build it. */
export function searchPath(queries: string[], options: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const q of queries) params.append('q', q);
  for (const [name, value] of Object.entries(options)) params.set(name, value);
  return `/?${params}`;
}

const webRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const screenshotDir = join(webRoot, 'test-results', 'screenshots');

/** Saves a screenshot as a test artifact (test-results/screenshots/NAME.png) and attaches it. */
export async function saveScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
  return path;
}

/** Fails the test on any dialog (alert, confirm, prompt) the page opens. */
export function forbidDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  return dialogs;
}

/** Records Content-Security-Policy violations the page reports (JavaScript pages only). */
export async function recordCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  return () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations ?? []);
}

/** The result groups on the page, as the parity driver reads them. */
export async function readGroups(page: Page) {
  return page.locator('[data-group-id]').evaluateAll((sections) =>
    sections.map((section) => ({
      id: section.getAttribute('data-group-id'),
      errorCode: section.getAttribute('data-error-code') ?? undefined,
      results: [...section.querySelectorAll('[data-result]')].map((result) => ({
        url: result.querySelector('a[href]')?.getAttribute('href') ?? null,
        title: result.querySelector('[data-title]')?.textContent ?? null,
        description: result.querySelector('[data-description]')?.textContent ?? null,
      })),
    })),
  );
}

/** Waits until the page has hydrated (SvelteKit has started), so JavaScript handlers are live. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('#svelte-announcer') !== null);
}

/** Opens the options disclosure of query `n` (1-based), as a person clicks it. */
export async function openOptions(page: Page, n: number): Promise<void> {
  const summary = page.locator('[data-query-row] summary').nth(n - 1);
  if ((await summary.locator('xpath=..').getAttribute('open')) === null) await summary.click();
}

/**
 * Holds the GUI's own scripts (SvelteKit's `/_app/immutable/` chunks) until the returned function
 * is called, so a test can act on the server-rendered page before it hydrates, as a person on a slow
 * connection does. Open the page with `waitUntil: 'commit'`: its load event waits for them.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/_app\/immutable\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
