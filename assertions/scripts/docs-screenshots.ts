// `pnpm docs:screenshots`: the screenshots in docs/screenshots/, taken in WebKit (WebKitGTK's
// MiniBrowser, the engine of Safari) at a phone's 390 × 844 and a laptop's 1280 × 800 CSS px, light
// and dark, on the offline index (the local provider's demo corpus, built into a temporary index).
// Not part of the test command, so no test run writes into the tree. Needs Debian's WebKitGTK driver
// and Xvfb (scripts/setup.d/webkit.sh) and the built GUI; the root script sees to both.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { handler as guiHandler } from '@openmates/web/handler';
import type { WebDriver } from 'selenium-webdriver';
import { startCaseServer } from '../src/drivers/case-engine.ts';
import { seleniumPage, startWebKit } from '../src/drivers/webkit.ts';

const OUT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
const SCHEMES = ['light', 'dark'] as const;
/** Two queries side by side, three results each: what a first search on the offline index shows. */
const SEARCH = '/?q=css+grid&q=dialog+element&count=3';

/**
 * MiniBrowser's toolbar gives its window a minimum width of about 450 px, wider than a phone. A GTK
 * user style sheet (in a private config directory, nothing of the user's) shrinks the toolbar to a
 * strip, so the window can be exactly as wide as the page should be; the page is not affected.
 */
const GTK_CSS = 'window * { font-size: 1px; padding: 0; margin: 0; min-width: 0; min-height: 0; border-width: 0; }\n';

/** Sizes the window so that the page's viewport is `width` × `height` CSS px, and waits until it is. */
async function viewport(driver: WebDriver, width: number, height: number): Promise<void> {
  const page = seleniumPage(driver);
  const [outer, inner] = await page.evaluate(() => [window.outerHeight, window.innerHeight]);
  await driver
    .manage()
    .window()
    .setRect({ x: 0, y: 0, width, height: height + (outer - inner) });
  await driver.wait(
    async () => {
      const [w, h] = await page.evaluate(() => [window.innerWidth, window.innerHeight]);
      return w === width && h === height;
    },
    10_000,
    `the viewport never became ${width} × ${height}`,
    20,
  );
}

/** The PNG's own width and height, from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const work = mkdtempSync(join(tmpdir(), 'openmates-screenshots-'));
mkdirSync(join(work, 'gtk-3.0'));
writeFileSync(join(work, 'gtk-3.0', 'gtk.css'), GTK_CSS);
const server = await startCaseServer(
  {
    OPENMATES_PROVIDER: 'local',
    OPENMATES_INDEX: join(work, 'index.db'),
    OPENMATES_LOG_LEVEL: 'silent',
  },
  guiHandler,
);
const host = await startWebKit({ XDG_CONFIG_HOME: work });
try {
  mkdirSync(OUT_DIR, { recursive: true });
  for (const scheme of SCHEMES) {
    // One MiniBrowser per scheme: GTK's dark variant is chosen when the window starts.
    const driver = await host.session({ dark: scheme === 'dark' });
    const page = seleniumPage(driver);
    for (const { width, height } of SIZES) {
      await viewport(driver, width, height);
      await page.goto(`${server.url}${SEARCH}`);
      await page.waitUntil(
        () =>
          document.querySelectorAll('[data-results] [data-group-id] [data-result]').length > 0 &&
          document.querySelector('[data-loading]') === null,
        30_000,
      );
      const dark = await page.evaluate(() => window.matchMedia('(prefers-color-scheme: dark)').matches);
      if (dark !== (scheme === 'dark'))
        throw new Error(`the ${scheme} window reports prefers-color-scheme: ${dark ? 'dark' : 'light'}`);
      const png = Buffer.from(await driver.takeScreenshot(), 'base64');
      const size = pngSize(png);
      if (size.width !== width || size.height !== height)
        throw new Error(`a ${width} × ${height} screenshot came out ${size.width} × ${size.height}`);
      const file = join(OUT_DIR, `search-${width}-${scheme}.png`);
      writeFileSync(file, png);
      console.log(`wrote ${file.slice(OUT_DIR.length - 'docs/screenshots/'.length)} (${width} × ${height}, ${scheme})`);
    }
    // WebKitWebDriver holds one session at a time.
    await driver.quit();
  }
} finally {
  await host.close();
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
