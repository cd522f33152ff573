import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type AppServer, startAppServer } from './app-server.ts';
import { apiKey, hydrated, keyedUrl, openOptions, readGroups, saveScreenshot } from './helpers.ts';

// This file's own server, so the tests can drive the Brave fixture's `hold` gate: a query whose
// first word is `hold` is answered only when the test calls `release()`.
let app: AppServer;
test.beforeAll(async () => {
  app = await startAppServer();
});
test.afterAll(async () => {
  await app?.close();
});
test.beforeEach(() => app.fixture.reset());
// Whatever a test left held is answered, so the next one starts clean (release is not sticky).
test.afterEach(() => app.fixture.release());

/** Serious and critical axe violations on the page as it is now, as `id: target` lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/** Fills the form with these queries on a hydrated page and submits it with Enter (JavaScript navigation). */
async function search(page: Page, queries: string[]): Promise<void> {
  for (const [i, query] of queries.entries()) {
    const field = page.getByLabel(`Query ${i + 1}`, { exact: true });
    if ((await field.count()) === 0) await page.getByRole('button', { name: 'Add a query' }).click();
    await field.fill(query);
  }
  await page.getByLabel(`Query ${queries.length}`, { exact: true }).press('Enter');
}

const announcements = (page: Page) => page.locator('[data-announcements] > *');

test('a finished group is shown and announced while a slower query is still held, then the final answer replaces them', async ({
  page,
}, testInfo) => {
  await page.goto(`${app.url}/`);
  await hydrated(page);
  await search(page, ['hold slow query', 'fast query']);
  await app.fixture.waitForHeld(1);

  // The fast query's group is on the page (provisional) while the slow one is still held upstream.
  const fast = page.locator('[data-group-id="2"]');
  await expect(fast).toHaveAttribute('data-provisional', 'true');
  const fastCount = await fast.locator('[data-result]').count();
  expect(fastCount).toBeGreaterThan(0);
  const pending = page.locator('#results [aria-busy="true"]');
  await expect(pending).toHaveCount(1);
  await expect(pending).toContainText('hold slow query');
  await expect(pending).toContainText('Searching…');
  await expect(page.locator('[data-group-id="1"]')).toHaveCount(0);
  await expect(page.locator('[data-results]')).toHaveCount(0);
  await expect(announcements(page)).toHaveText([`‘fast query’: ${fastCount} results`]);
  await expect(page.getByRole('log')).toHaveAttribute('aria-live', 'polite');
  await expect(page.locator('[data-status]')).toHaveText('Searching 2 queries…');
  await expect(page.getByRole('search')).toHaveAttribute('aria-busy', 'true');
  // The URL is the search's permalink already, as without streaming.
  expect(new URL(page.url()).searchParams.getAll('q')).toEqual(['hold slow query', 'fast query']);
  expect(await seriousViolations(page)).toEqual([]);
  expect(app.fixture.heldAborted).toBe(0);
  await saveScreenshot(page, testInfo, 'streaming-one-group-pending');

  app.fixture.release();
  await expect(page.locator('[data-results] [data-group-id]')).toHaveCount(2);
  await expect(page.locator('[data-provisional]')).toHaveCount(0);
  await expect(page.locator('#results [aria-busy="true"]')).toHaveCount(0);
  const groups = await readGroups(page);
  expect(groups.map((g) => g.id)).toEqual(['1', '2']);
  expect(groups[0]?.errorCode).toBeUndefined();
  const slowCount = groups[0]?.results.length ?? 0;
  expect(groups[0]?.results[0]?.title).toContain('hold slow query');
  await expect(page.locator('[data-status]')).toHaveText(`${slowCount + fastCount} results for 2 queries.`);
  // Each group announced exactly once, in the order they finished.
  await expect(announcements(page)).toHaveText([
    `‘fast query’: ${fastCount} results`,
    `‘hold slow query’: ${slowCount} results`,
  ]);
  await expect(page.getByRole('search')).toHaveAttribute('aria-busy', 'false');
  expect(await seriousViolations(page)).toEqual([]);
});

test('the streamed answer equals the page a reload serves (the done document replaces the provisional groups)', async ({
  page,
}) => {
  await page.goto(`${app.url}/`);
  await hydrated(page);
  await search(page, ['empty nothing here', 'error500 broken', 'plain words']);
  await expect(page.locator('[data-results] [data-group-id]')).toHaveCount(3);
  const streamed = { groups: await readGroups(page), status: await page.locator('[data-status]').textContent() };
  await expect(announcements(page)).toHaveCount(3);
  await expect(announcements(page)).toContainText([
    '‘empty nothing here’: no results',
    '‘error500 broken’: failed (provider_error)',
  ]);
  await expect(page.locator('[data-results]')).toHaveAttribute('data-response-code', 'provider_error');

  await page.reload();
  await expect(page.locator('[data-results] [data-group-id]')).toHaveCount(3);
  expect({ groups: await readGroups(page), status: await page.locator('[data-status]').textContent() }).toEqual(
    streamed,
  );
});

test('a refused search shows the API issues next to the fields, as the server path does', async ({ page }) => {
  await page.goto(`${app.url}/`);
  await hydrated(page);
  await page.getByLabel('Query 1', { exact: true }).fill('too many results');
  await openOptions(page, 1);
  await page.getByLabel('Results for query 1').fill('99');
  await page.getByLabel('Query 1', { exact: true }).press('Enter');
  const error = page.locator('[data-page-error]');
  await expect(error).toHaveAttribute('data-error-code', 'invalid_request');
  const streamedPaths = await error.getAttribute('data-issue-paths');
  expect(JSON.parse(streamedPaths ?? '[]')).toEqual(['requests[0].count']);
  await expect(page.getByLabel('Results for query 1')).toHaveAttribute('aria-invalid', 'true');
  const streamedText = await error.textContent();

  await page.reload();
  await expect(page.locator('[data-page-error]')).toHaveAttribute('data-issue-paths', streamedPaths ?? '');
  expect((await page.locator('[data-page-error]').textContent())?.replace(/Request id: \S+/, '')).toBe(
    streamedText?.replace(/Request id: \S+/, ''),
  );
});

test('a new search aborts the one still streaming, down to the provider call', async ({ page }) => {
  await page.goto(`${app.url}/`);
  await hydrated(page);
  await search(page, ['hold abandoned query']);
  await app.fixture.waitForHeld(1);
  await expect(page.locator('#results [aria-busy="true"]')).toHaveCount(1);

  await search(page, ['replacement query']);
  await app.fixture.waitForAborted(1);
  await expect(page.locator('[data-results] [data-group-id]')).toHaveCount(1);
  expect((await readGroups(page))[0]?.results[0]?.title).toContain('replacement query');
  await expect(announcements(page)).toHaveCount(1);
  await expect(announcements(page)).toContainText(['‘replacement query’']);
});

test('leaving the page aborts the search still streaming, down to the provider call', async ({ page }) => {
  await page.goto(`${app.url}/`);
  await hydrated(page);
  await search(page, ['hold left behind']);
  await app.fixture.waitForHeld(1);
  await page.goto('about:blank');
  await app.fixture.waitForAborted(1);
  expect(app.fixture.heldAborted).toBe(1);
});

test('the stream endpoint: refusals are the API ordinary JSON, an accepted search an event stream', async ({
  request,
}) => {
  const endpoint = `${app.url}/search/stream`;
  const accept = { accept: 'text/event-stream' };
  const refused = await request.post(endpoint, { data: { requests: [] }, headers: accept });
  expect(refused.status()).toBe(400);
  expect(refused.headers()['content-type']).toContain('application/json');
  expect(await refused.json()).toMatchObject({ code: 'invalid_request', issues: [{ path: 'requests' }] });
  const notJson = await request.post(endpoint, {
    data: 'requests',
    headers: { ...accept, 'content-type': 'text/csv' },
  });
  expect(notJson.status()).toBe(415);
  expect(await notJson.json()).toMatchObject({ code: 'unsupported_media_type' });

  const accepted = await request.post(endpoint, {
    data: {
      requests: [
        { query: 'one', count: 2 },
        { query: 'two', count: 2 },
      ],
    },
    headers: accept,
  });
  expect(accepted.status()).toBe(200);
  expect(accepted.headers()['content-type']).toContain('text/event-stream');
  expect(accepted.headers()['cache-control']).toBe('no-store');
  const events = [...(await accepted.text()).matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
  expect(events).toEqual(['group', 'group', 'done']);

  // Another site cannot post a search here with the browser's cookie: a form-encodable body from a
  // foreign origin is refused before it reaches the API (JSON from one needs a CORS preflight,
  // which this origin never grants, and the key cookie is SameSite=Strict).
  const crossSite = await request.post(endpoint, {
    data: JSON.stringify({ requests: [{ query: 'csrf' }] }),
    headers: { ...accept, 'content-type': 'text/plain', origin: 'http://evil.example' },
  });
  expect(crossSite.status()).toBe(403);
  expect(app.fixture.requests.filter((r) => r.query.q === 'csrf')).toEqual([]);
});

test('the stream endpoint adds the key from the HttpOnly cookie, and only that key', async ({ request }) => {
  const endpoint = `${keyedUrl()}/search/stream`;
  const data = { requests: [{ query: 'keyed stream', count: 1 }] };
  const accept = { accept: 'text/event-stream' };
  const anonymous = await request.post(endpoint, { data, headers: accept });
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.json()).toMatchObject({ code: 'unauthorized' });
  // A bearer header from the browser is not passed on: the key comes from the cookie alone.
  const bearer = await request.post(endpoint, { data, headers: { ...accept, authorization: `Bearer ${apiKey()}` } });
  expect(bearer.status()).toBe(401);
  const withCookie = await request.post(endpoint, {
    data,
    headers: { ...accept, cookie: `openmates_api_key=${apiKey()}` },
  });
  expect(withCookie.status()).toBe(200);
  expect(await withCookie.text()).toMatch(/^event: done$/m);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form is answered whole by the server, never through the stream endpoint', async ({ page }) => {
    const streamRequests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/search/stream') streamRequests.push(r.url());
    });
    await page.goto(`${app.url}/`);
    await page.getByLabel('Query 1', { exact: true }).fill('hold no script');
    const submitted = page.getByLabel('Query 1', { exact: true }).press('Enter');
    await app.fixture.waitForHeld(1);
    app.fixture.release();
    await submitted;
    await expect(page.locator('[data-results] [data-group-id]')).toHaveCount(1);
    await expect(page.locator('[data-provisional], [data-loading]')).toHaveCount(0);
    await expect(announcements(page)).toHaveCount(0);
    expect(new URL(page.url()).searchParams.getAll('q')).toEqual(['hold no script']);
    expect(streamRequests).toEqual([]);
  });
});
