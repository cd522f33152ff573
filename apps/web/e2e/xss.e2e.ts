import { expect, type Page, test } from '@playwright/test';
import { forbidDialogs, hydrated, openUrl, readGroups, recordCspViolations, saveScreenshot } from './helpers.ts';

test.use({ baseURL: openUrl() });

/** The fixture's hostile corpus (`hostile`), its bad URLs (`badurls`), and a query that is itself markup. */
const QUERIES = ['hostile <img src=x onerror=alert(1)><script>alert(2)</script>', 'badurls "><svg onload=alert(3)>'];

/** The only elements a results area may hold: what the page's own markup uses. */
const ALLOWED_TAGS = new Set(['SECTION', 'H2', 'H3', 'SPAN', 'P', 'STRONG', 'OL', 'LI', 'DIV', 'A', 'CITE']);

async function expectInert(page: Page, dialogs: string[], request: import('@playwright/test').APIRequestContext) {
  await expect(page.locator('[data-group-id]')).toHaveCount(2);

  // Every string is shown exactly as the API returned it: as text, not parsed as markup.
  const api = await request.post('/v1/apps/web/skills/search', {
    data: { requests: QUERIES.map((query) => ({ query })) },
  });
  const expected = (await api.json()).results.map(
    (g: { id: number; results: { url: string; title: string; description: string }[] }) => ({
      id: String(g.id),
      errorCode: undefined,
      results: g.results.map(({ url, title, description }) => ({ url, title, description })),
    }),
  );
  expect(expected[0].results.length).toBeGreaterThan(3);
  expect(await readGroups(page)).toEqual(expected);

  const report = await page.evaluate(
    (allowed) => {
      const area = document.querySelector('[data-results]');
      const elements = [...(area?.querySelectorAll('*') ?? [])];
      return {
        foreignTags: [...new Set(elements.map((el) => el.tagName).filter((tag) => !allowed.includes(tag)))],
        handlerAttributes: [...document.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes].filter((a) => a.name.toLowerCase().startsWith('on')).map((a) => `${el.tagName} ${a.name}`),
        ),
        hrefs: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? ''),
        images: document.querySelectorAll('img, svg, iframe, object, embed, video, audio, picture').length,
        headings: [...document.querySelectorAll('[data-group-id] h2')].map((h) => h.textContent ?? ''),
      };
    },
    [...ALLOWED_TAGS],
  );
  expect(report.foreignTags).toEqual([]);
  expect(report.handlerAttributes).toEqual([]);
  expect(report.images).toBe(0);
  for (const href of report.hrefs) expect(href).toMatch(/^(https?:\/\/|\/(?!\/)|#)/);
  expect(report.headings[0]).toContain(QUERIES[0]);
  expect(report.headings[1]).toContain(QUERIES[1]);
  expect(dialogs).toEqual([]);
}

test('the hostile corpus, rendered by the server without JavaScript, fires nothing and injects nothing', async ({
  browser,
  request,
}, testInfo) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: openUrl() });
  const page = await context.newPage();
  const dialogs = forbidDialogs(page);
  const params = new URLSearchParams(QUERIES.map((q) => ['q', q]));
  await page.goto(`/?${params}`);
  await expectInert(page, dialogs, request);
  await saveScreenshot(page, testInfo, 'xss-corpus-no-javascript');
  await context.close();
});

test('the hostile corpus, rendered in the browser after a form search, fires nothing and injects nothing', async ({
  page,
  request,
}, testInfo) => {
  const dialogs = forbidDialogs(page);
  const violations = await recordCspViolations(page);
  await page.goto('/');
  await hydrated(page);
  await page.getByLabel('Query 1', { exact: true }).fill(QUERIES[0] ?? '');
  await page.getByRole('button', { name: 'Add a query' }).click();
  await page.getByLabel('Query 2', { exact: true }).fill(QUERIES[1] ?? '');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expectInert(page, dialogs, request);
  // Client-side rendering: the document was not reloaded, so Svelte, not the server, drew this.
  await expect(page.locator('#svelte-announcer')).toHaveCount(1);
  expect(await violations()).toEqual([]);
  await page.getByText('Use this search elsewhere').click();
  await expect(page.locator('[data-snippet="cli"]')).toContainText("'hostile <img src=x onerror=alert(1)>");
  await saveScreenshot(page, testInfo, 'xss-corpus-javascript');
});
