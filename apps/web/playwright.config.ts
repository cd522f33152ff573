import { CHROMIUM_LAUNCH } from '@openmates/fixtures';
import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests of the GUI in Debian's Chromium (`scripts/setup.d/chromium.sh` installs it);
 * Playwright's own browser downloads are never used. `e2e/global-setup.ts` starts the API with the
 * GUI mounted, on a Brave fixture, as `openmates serve` would.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.e2e.ts',
  globalSetup: './e2e/global-setup.ts',
  outputDir: 'test-results/artifacts',
  forbidOnly: true,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? 'test-results/playwright.json' }],
  ],
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 900 },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_LAUNCH.executablePath, args: [...CHROMIUM_LAUNCH.args] },
  },
});
