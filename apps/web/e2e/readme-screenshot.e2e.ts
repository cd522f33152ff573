import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { openUrl, searchPath } from './helpers.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const docsScreenshot = join(repoRoot, 'docs', 'screenshot.png');

test('the README screenshot: three queries side by side', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(
    `${openUrl()}${searchPath(['rust ownership', 'svelte runes', 'sqlite full text search'], { count: '3' })}`,
  );
  await expect(page.locator('[data-group-id]')).toHaveCount(3);
  const artifact = testInfo.outputPath('readme.png');
  await page.screenshot({ path: artifact });
  await testInfo.attach('readme', { path: artifact, contentType: 'image/png' });
  // The committed copy changes only on request, so a test run leaves the tree clean.
  if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(docsScreenshot)) {
    mkdirSync(dirname(docsScreenshot), { recursive: true });
    copyFileSync(artifact, docsScreenshot);
  }
  expect(existsSync(docsScreenshot)).toBe(true);
});
