import { CHROMIUM_LAUNCH } from '@openmates/fixtures';
import { type Browser, chromium } from 'playwright-core';

let shared: { browser: Promise<Browser>; users: number } | undefined;

/**
 * The one Debian Chromium of this test process, launched on first use and closed when its last user
 * lets it go: the browser columns (the web GUI, the MCP App) each open their own context in it, so a
 * run pays for one browser start.
 */
export async function openSharedChromium(): Promise<{ browser: Browser; release(): Promise<void> }> {
  shared ??= {
    browser: chromium.launch({ executablePath: CHROMIUM_LAUNCH.executablePath, args: [...CHROMIUM_LAUNCH.args] }),
    users: 0,
  };
  const entry = shared;
  entry.users += 1;
  const browser = await entry.browser;
  return {
    browser,
    async release() {
      entry.users -= 1;
      if (entry.users > 0) return;
      if (shared === entry) shared = undefined;
      await browser.close();
    },
  };
}
