import { once } from 'node:events';
import { expect, test } from '@playwright/test';
import { startServer } from './global-setup.ts';
import { apiKey, keyedUrl, readGroups, saveScreenshot } from './helpers.ts';

test.use({ baseURL: keyedUrl() });

test('with OPENMATES_API_KEYS the GUI asks for a key before it searches, and keeps it in an HttpOnly cookie', async ({
  page,
  context,
  request,
}, testInfo) => {
  // The API itself refuses a request without a key…
  expect((await request.post('/v1/apps/web/skills/search', { data: { requests: [{ query: 'x' }] } })).status()).toBe(
    401,
  );
  // …and so does the page, although the server's own environment has OPENMATES_API_KEY set.
  await page.goto('/?q=secret+plans');
  await expect(page.getByRole('heading', { name: 'An API key is needed' })).toBeVisible();
  await expect(page.locator('[data-group-id]')).toHaveCount(0);
  await expect(page.locator('[data-snippet]')).toHaveCount(0);
  await expect(page.getByLabel('Query 1', { exact: true })).toHaveCount(0);
  await saveScreenshot(page, testInfo, 'key-prompt');

  await page.getByLabel('API key', { exact: true }).fill('not-the-right-key-0000');
  await page.getByRole('button', { name: 'Use this key' }).click();
  await expect(page.getByText('The API did not accept that key.')).toBeVisible();
  expect(await context.cookies()).toEqual([]);

  await page.getByLabel('API key', { exact: true }).fill(apiKey());
  await page.getByRole('button', { name: 'Use this key' }).click();
  await expect(page).toHaveURL(`${keyedUrl()}/?q=secret+plans`);
  expect((await readGroups(page)).map((g) => g.results.length)).toEqual([10]);

  const [cookie, ...others] = await context.cookies();
  expect(others).toEqual([]);
  // Not asked to remember: a session cookie (no expiry), gone when the browser closes.
  expect(cookie).toMatchObject({
    value: apiKey(),
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    secure: false,
    expires: -1,
  });
  expect(await page.evaluate(() => document.cookie)).toBe('');
  await expect(page.locator('body')).not.toContainText(apiKey());
  await page.getByText('Use this search elsewhere').click();
  await expect(page.locator('[data-snippet="curl"]')).toContainText('Bearer $OPENMATES_API_KEY');

  await page.getByRole('button', { name: 'Forget key' }).click();
  await expect(page.getByRole('heading', { name: 'An API key is needed' })).toBeVisible();
  expect(await context.cookies()).toEqual([]);
});

test('"Remember this key on this device" keeps it in a persistent HttpOnly, SameSite=Strict cookie that a relaunch still uses', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: keyedUrl() });
  const page = await context.newPage();
  await page.goto('/?q=installed+app');
  const remember = page.getByLabel('Remember this key on this device');
  await expect(remember).not.toBeChecked();
  await remember.check();
  // A refused key keeps the person's choice for the next attempt.
  await page.getByLabel('API key', { exact: true }).fill('not-the-right-key-0000');
  await page.getByRole('button', { name: 'Use this key' }).click();
  await expect(page.getByText('The API did not accept that key.')).toBeVisible();
  await expect(remember).toBeChecked();
  expect(await context.cookies()).toEqual([]);

  await page.getByLabel('API key', { exact: true }).fill(apiKey());
  const before = Date.now() / 1000;
  await page.getByRole('button', { name: 'Use this key' }).click();
  await expect(page).toHaveURL(`${keyedUrl()}/?q=installed+app`);
  expect((await readGroups(page)).map((g) => g.results.length)).toEqual([10]);
  const [cookie, ...others] = await context.cookies();
  expect(others).toEqual([]);
  expect(cookie).toMatchObject({ value: apiKey(), httpOnly: true, sameSite: 'Strict', path: '/', secure: false });
  // Max-Age is 400 days from when the server answered, between the click and the results.
  const after = Date.now() / 1000;
  const maxAge = 400 * 86_400;
  expect(cookie?.expires).toBeGreaterThanOrEqual(Math.floor(before) + maxAge);
  expect(cookie?.expires).toBeLessThanOrEqual(Math.ceil(after) + maxAge);

  // A relaunch: a new context with only what the browser stored on disk searches without a prompt.
  const stored = await context.storageState();
  await context.close();
  const relaunched = await browser.newContext({ baseURL: keyedUrl(), storageState: stored });
  const again = await relaunched.newPage();
  await again.goto('/?q=after+relaunch&count=3');
  await expect(again.getByRole('heading', { name: 'An API key is needed' })).toHaveCount(0);
  expect((await readGroups(again)).map((g) => g.results.length)).toEqual([3]);

  // "Forget key" ends it on this device too.
  await again.getByRole('button', { name: 'Forget key' }).click();
  await expect(again.getByRole('heading', { name: 'An API key is needed' })).toBeVisible();
  expect(await relaunched.cookies()).toEqual([]);
  await relaunched.close();
});

test('the key prompt works without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: keyedUrl() });
  const page = await context.newPage();
  await page.goto('/?q=no+script&count=2');
  await page.getByLabel('API key', { exact: true }).fill(apiKey());
  await page.getByLabel('API key', { exact: true }).press('Enter');
  await expect(page).toHaveURL(`${keyedUrl()}/?q=no+script&count=2`);
  expect((await readGroups(page)).map((g) => g.results.length)).toEqual([2]);
  await context.close();
});

test('the key form refuses other origins and never redirects off the page', async ({ request }) => {
  const form = { key: apiKey(), next: '//evil.example/phish' };
  const crossSite = await request.post('/?/key', {
    form,
    headers: { origin: 'http://evil.example', accept: 'text/html' },
    maxRedirects: 0,
  });
  expect(crossSite.status()).toBe(403);
  // `Origin: null` (what a no-referrer page sends) passes only when the browser vouches it is same-origin.
  const nullOrigin = { origin: 'null', accept: 'text/html' };
  const opaque = await request.post('/?/key', { form, headers: { ...nullOrigin, 'sec-fetch-site': 'cross-site' } });
  expect(opaque.status()).toBe(403);
  const noFetchMetadata = await request.post('/?/key', { form, headers: nullOrigin, maxRedirects: 0 });
  expect(noFetchMetadata.status()).toBe(403);
  const sameSite = await request.post('/?/key', {
    form,
    headers: { origin: keyedUrl(), accept: 'text/html' },
    maxRedirects: 0,
  });
  expect(sameSite.status()).toBe(303);
  expect(sameSite.headers().location).toBe('/');
});

test('behind a TLS proxy (PROTOCOL_HEADER, as docs/apple.md sets it up) the key cookie is Secure, remembered or not', async ({
  playwright,
}) => {
  const { child, info } = await startServer(['--keys'], { PROTOCOL_HEADER: 'x-forwarded-proto' });
  try {
    const host = new URL(info.url).host;
    // What the proxy sends on: the Host the phone asked for, and the protocol it used.
    const proxied = await playwright.request.newContext({
      baseURL: info.url,
      extraHTTPHeaders: { 'x-forwarded-proto': 'https', origin: `https://${host}`, accept: 'text/html' },
    });
    for (const remember of [false, true]) {
      const answer = await proxied.post('/?/key', {
        form: { key: apiKey(), next: '/', ...(remember ? { remember: 'on' } : {}) },
        maxRedirects: 0,
      });
      expect(answer.status()).toBe(303);
      const cookie = answer.headers()['set-cookie'] ?? '';
      expect(cookie).toMatch(/^openmates_api_key=/);
      for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Secure', 'Path=/'])
        expect(cookie.split(/;\s*/), attribute).toContain(attribute);
      expect(cookie.includes('Max-Age=34560000'), `remember=${remember}`).toBe(remember);
    }
    await proxied.dispose();
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});
