// The GUI as an installable app (Safari's Add to Dock and Add to Home Screen, Chromium's Install):
// the manifest, the icons and the Apple metas as `openmates serve` serves them, Chromium's own
// installability check, and an installed app's standalone window.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_LAUNCH } from '@openmates/fixtures';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { readPngHeader } from '../scripts/png.ts';
import { openUrl, recordCspViolations } from './helpers.ts';

test.use({ baseURL: openUrl() });

interface Manifest {
  name: string;
  short_name: string;
  id: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

/** A Chromium with a profile of its own on disk: an incognito context always reports `in-incognito`. */
async function withPersistentProfile<T>(run: (context: BrowserContext, page: Page) => Promise<T>): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'openmates-app-profile-'));
  const { chromium } = await import('@playwright/test');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_LAUNCH.executablePath,
    args: [...CHROMIUM_LAUNCH.args],
    viewport: { width: 1280, height: 800 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    return await run(context, page);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

test("Chromium's installability check reports no error for the GUI (a fresh persistent profile)", async () => {
  await withPersistentProfile(async (context, page) => {
    const cdp = await context.newCDPSession(page);
    // The check really looks: the API reference page, which links no manifest, fails it.
    await page.goto(`${openUrl()}/docs`);
    const docs = await cdp.send('Page.getInstallabilityErrors');
    expect(docs.installabilityErrors.map((e) => e.errorId)).toContain('no-manifest');

    await page.goto(`${openUrl()}/`);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.url).toBe(`${openUrl()}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
  });
});

test('the manifest is served as application/manifest+json and says what an installed app needs', async ({
  request,
  page,
}) => {
  const response = await request.get('/manifest.webmanifest');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/manifest+json');
  // Not content-hashed: revalidated (by ETag) on every use, so a changed name or icon is picked up.
  expect(response.headers()['cache-control']).toBe('no-cache');
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
  const etag = response.headers().etag ?? '';
  expect((await request.get('/manifest.webmanifest', { headers: { 'if-none-match': etag } })).status()).toBe(304);

  const manifest = (await response.json()) as Manifest;
  expect(manifest).toMatchObject({
    name: 'OpenMates search',
    short_name: 'OpenMates',
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
  });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);

  await page.goto('/');
  const linked = await page.locator('link[rel="manifest"]').evaluate((link: HTMLLinkElement) => link.href);
  expect(linked).toBe(`${openUrl()}/manifest.webmanifest`);
});

test('each icon the manifest lists is a PNG of its stated size, served as image/png; one is maskable', async ({
  request,
}) => {
  const manifest = (await (await request.get('/manifest.webmanifest')).json()) as Manifest;
  const seen: string[] = [];
  for (const icon of manifest.icons) {
    const response = await request.get(icon.src);
    expect(response.status(), icon.src).toBe(200);
    expect(response.headers()['content-type'], icon.src).toBe('image/png');
    expect(response.headers()['cache-control'], icon.src).toBe('public, max-age=86400');
    expect(icon.type).toBe('image/png');
    const { width, height } = readPngHeader(await response.body());
    expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
    seen.push(`${icon.sizes} ${icon.purpose ?? 'any'}`);
  }
  expect(seen.sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
});

test('the apple-touch-icon is a 180 px PNG, and the page carries the Apple and theme-colour metas', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const touchIcon = await page.locator('link[rel="apple-touch-icon"]').evaluate((link: HTMLLinkElement) => link.href);
  const response = await request.get(touchIcon);
  expect(response.headers()['content-type']).toBe('image/png');
  expect(readPngHeader(await response.body())).toMatchObject({ width: 180, height: 180 });

  const meta = (name: string) => page.locator(`meta[name="${name}"]`);
  await expect(meta('apple-mobile-web-app-title')).toHaveAttribute('content', 'OpenMates');
  await expect(meta('apple-mobile-web-app-status-bar-style')).toHaveAttribute('content', 'default');
  await expect(meta('viewport')).toHaveAttribute('content', /(^|, )viewport-fit=cover(,|$)/);
  const themes = await meta('theme-color').evaluateAll((metas) =>
    metas.map((m) => [m.getAttribute('media'), m.getAttribute('content')]),
  );
  expect(themes.map(([media]) => media)).toEqual(['(prefers-color-scheme: light)', '(prefers-color-scheme: dark)']);

  // The splash screen and title bar of a launch (the manifest's colours) are the light theme's.
  const manifest = (await (await request.get('/manifest.webmanifest')).json()) as Manifest;
  expect([manifest.theme_color, manifest.background_color]).toEqual([themes[0]?.[1], themes[0]?.[1]]);
  // Each theme colour is the page's own background in that scheme, so the browser's bar and the page meet.
  for (const [scheme, theme] of [
    ['light', themes[0]?.[1]],
    ['dark', themes[1]?.[1]],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(background, scheme).toBe(rgb(theme ?? ''));
  }
});

test("the page's CSP allows the manifest ('manifest-src' 'self') and the manifest loads without a violation", async ({
  page,
  context,
  request,
}) => {
  const csp = (await request.get('/')).headers()['content-security-policy'] ?? '';
  const directives = new Map(
    csp.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')] as const;
    }),
  );
  expect(directives.get('manifest-src')).toBe("'self'");
  expect(directives.get('default-src')).toBe("'none'");
  // Icons load as images from this origin only; nothing else is opened up for the app.
  expect(directives.get('img-src')).toBe("'self'");
  expect(directives.has('worker-src')).toBe(false);
  const violations = await recordCspViolations(page);
  await page.goto('/');
  // Chromium fetches the manifest under the page's CSP when asked for it (as its install menu does).
  const manifest = await (await context.newCDPSession(page)).send('Page.getAppManifest');
  expect(manifest.errors).toEqual([]);
  expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({ short_name: 'OpenMates' });
  expect(await violations()).toEqual([]);
});

test('the page is padded by the safe-area insets, so content clears a notch and the home indicator', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets: { top: 47, left: 10, bottom: 34, right: 12 } });
  const padding = await page.evaluate(() => {
    const style = getComputedStyle(document.body);
    return [style.paddingTop, style.paddingRight, style.paddingBottom, style.paddingLeft];
  });
  expect(padding).toEqual(['47px', '12px', '34px', '10px']);
});

test('installed and opened in its own window (display-mode: standalone), the header stays in view with "New search"', async () => {
  await withPersistentProfile(async (context, page) => {
    await page.goto(`${openUrl()}/?q=standalone&count=10`);
    // In a browser tab: the ordinary header, no extra link (the address bar does that job).
    expect(await page.evaluate(() => matchMedia('(display-mode: standalone)').matches)).toBe(false);
    await expect(page.locator('[data-new-search]')).toBeHidden();
    expect(await page.locator('[data-site-header]').evaluate((h) => getComputedStyle(h).position)).toBe('static');

    const cdp = await context.newCDPSession(page);
    const manifestId = `${openUrl()}/`;
    await cdp.send('PWA.install', { manifestId, installUrlOrBundleUrl: `${openUrl()}/` });
    // What "Open in window" sets in the install dialog.
    await cdp.send('PWA.changeAppUserSettings', { manifestId, displayMode: 'standalone' });
    const [app] = await Promise.all([context.waitForEvent('page'), cdp.send('PWA.launch', { manifestId })]);
    await app.waitForLoadState();
    expect(new URL(app.url()).pathname).toBe('/');
    expect(await app.evaluate(() => matchMedia('(display-mode: standalone)').matches)).toBe(true);

    await app.goto(`${openUrl()}/?q=standalone&count=10`);
    const header = app.locator('[data-site-header]');
    expect(await header.evaluate((h) => getComputedStyle(h).position)).toBe('sticky');
    await expect(app.locator('[data-new-search]')).toBeVisible();
    // Scrolled to the end of the results, the header is still at the top of the window.
    await app.locator('footer').scrollIntoViewIfNeeded();
    expect(await app.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect((await header.boundingBox())?.y).toBe(0);
    await app.locator('[data-new-search]').click();
    await expect(app).toHaveURL(`${openUrl()}/`);
  });
});

/** `#rrggbb` as getComputedStyle writes it. */
function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}
