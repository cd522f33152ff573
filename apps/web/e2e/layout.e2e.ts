// The layout as a phone or a person with large text meets it: sizes follow the browser's text size,
// every control is big enough to tap, and nothing needs a pointer hovering over it.
import { expect, type Page, test } from '@playwright/test';
import { keyedUrl, openUrl, searchPath } from './helpers.ts';

test.describe.configure({ mode: 'parallel' });

/** Pages with every kind of content: results, an empty and a failed group, issues with options open, the key prompt. */
const pages: Record<string, { url: () => string; prepare?: (page: Page) => Promise<void> }> = {
  'the empty form': { url: () => `${openUrl()}/` },
  'results with the snippets open': {
    url: () => `${openUrl()}${searchPath(['large text', 'empty x', 'error500 x'], { count: '4' })}`,
    prepare: (page) => page.getByText('Use this search elsewhere').click(),
  },
  'an invalid request (its options open)': {
    url: () => `${openUrl()}${searchPath(['ok', ' ', 'third'], { count: '50', include: 'a..b, c' })}`,
  },
  'the key prompt': { url: () => `${keyedUrl()}/?q=x` },
};

/**
 * The boxes of every piece of visible text (one per line fragment) and every form field on the
 * page, with what they hold; text inside a field's own box (a button's label) is part of that box.
 */
function visibleBoxes(): { what: string; left: number; top: number; right: number; bottom: number }[] {
  const boxes: { what: string; left: number; top: number; right: number; bottom: number }[] = [];
  const hidden = (element: Element) =>
    !element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) ||
    element.closest('.visually-hidden') !== null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || (node.textContent ?? '').trim() === '' || hidden(parent)) continue;
    if (parent.closest('option, datalist, select, script, style')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width === 0 || r.height === 0) continue;
      boxes.push({
        what: (node.textContent ?? '').trim().slice(0, 40),
        left: r.left,
        top: r.top,
        right: r.right,
        bottom: r.bottom,
      });
    }
  }
  for (const field of document.querySelectorAll('input:not([type="hidden"]), select, textarea')) {
    if (hidden(field)) continue;
    const r = field.getBoundingClientRect();
    boxes.push({
      what: `<${field.localName} ${field.id}>`,
      left: r.left,
      top: r.top,
      right: r.right,
      bottom: r.bottom,
    });
  }
  return boxes;
}

/** Pairs of boxes that overlap by more than a pixel both ways (subpixel glyph edges of neighbours touch). */
function overlaps(boxes: ReturnType<typeof visibleBoxes>): string[] {
  const found: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (!a || !b) continue;
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) found.push(`"${a.what}" overlaps "${b.what}"`);
    }
  return found;
}

for (const width of [390, 1280]) {
  for (const [name, { url, prepare }] of Object.entries(pages)) {
    test(`at twice the default text size, ${name} at ${width} px has no horizontal scroll and no overlapping text`, async ({
      page,
      context,
    }) => {
      await page.setViewportSize({ width, height: 844 });
      // The browser's own text-size setting (as a person sets it), not a zoom: only rem-based sizes follow it.
      await (await context.newCDPSession(page)).send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } });
      await page.goto(url());
      await prepare?.(page);
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('32px');
      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(widths.scroll, 'horizontal scroll').toBeLessThanOrEqual(widths.client);
      const boxes = await page.evaluate(visibleBoxes);
      expect(boxes.length).toBeGreaterThan(10);
      expect(overlaps(boxes)).toEqual([]);
    });
  }
}

/**
 * Every control a person can reach on the page that is smaller than 44 × 44 CSS px, with its size. A
 * checkbox counts with its label (tapping the label toggles it); the form's hidden default button
 * (`tabindex=-1`, `aria-hidden`) is no control a person can reach.
 */
function smallControls(): string[] {
  const controls = document.querySelectorAll<HTMLElement>(
    'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex]:not([tabindex="-1"])',
  );
  const small: string[] = [];
  for (const control of controls) {
    if (control.getAttribute('aria-hidden') === 'true' && control.tabIndex < 0) continue;
    // The skip link is off screen until focused: measured all the same, it must be big enough when it shows.
    if (!control.checkVisibility({ visibilityProperty: true })) continue;
    const target =
      control instanceof HTMLInputElement && control.type === 'checkbox' ? control.closest('label') : control;
    const r = (target ?? control).getBoundingClientRect();
    if (r.width < 44 || r.height < 44) {
      const text = (control.textContent ?? '').trim().slice(0, 30) || control.getAttribute('name') || control.id;
      small.push(`<${control.localName}> "${text}": ${Math.round(r.width)} × ${Math.round(r.height)}`);
    }
  }
  return small;
}

for (const width of [390, 1280]) {
  for (const [name, { url, prepare }] of Object.entries(pages)) {
    test(`every control on ${name} at ${width} px is at least 44 × 44 CSS px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(url());
      await prepare?.(page);
      // Open every disclosure, so the controls inside are measured too.
      const closed = page.locator('details:not([open]) > summary');
      while ((await closed.count()) > 0) await closed.first().click();
      const counted = await page.locator('a[href], button, input, select, summary').count();
      expect(counted).toBeGreaterThan(3);
      expect(await page.evaluate(smallControls)).toEqual([]);
    });
  }
}

test('nothing is hover-only: no :hover rule and no title tooltip anywhere in the GUI', async ({ page }) => {
  for (const { url, prepare } of Object.values(pages)) {
    await page.goto(url());
    await prepare?.(page);
    const found = await page.evaluate(() => {
      const hover: string[] = [];
      const walk = (rules: CSSRuleList) => {
        for (const rule of rules) {
          if (rule instanceof CSSStyleRule && rule.selectorText.includes(':hover')) hover.push(rule.selectorText);
          if ('cssRules' in rule && rule.cssRules) walk(rule.cssRules as CSSRuleList);
        }
      };
      for (const sheet of document.styleSheets) walk(sheet.cssRules);
      const titled = [...document.querySelectorAll('body [title]')].map((e) => e.outerHTML.slice(0, 80));
      return { sheets: document.styleSheets.length, hover, titled };
    });
    expect(found.sheets).toBeGreaterThan(0);
    expect({ hover: found.hover, titled: found.titled }).toEqual({ hover: [], titled: [] });
  }
});
