import type { CallToolResult, Client, Transport } from '@modelcontextprotocol/client';
import type { WebSearchResponse } from '@openmates/contract';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import axe from 'axe-core';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { braveEnvironment } from './brave-environment.ts';
import type { ParityCase } from './case.ts';
import { CASES } from './cases/index.ts';
import { type McpAppHost, openMcpAppHost, RESULTS_APP_URI } from './drivers/mcp-app-host.ts';
import { connectMcp, type McpEra, spawnMcpStdio, startMcpHttp } from './drivers/mcp-driver.ts';
import { readOutcome, readView } from './drivers/page-actions.ts';
import { createWebDriver, playwrightPage } from './drivers/web-driver.ts';
import { outcomeOfResponse } from './outcome.ts';

// The MCP App as chat hosts show it (ADR 0088, 0090): the page of `ui://openmates/results`, as
// `openmates mcp` (stdio) and `openmates serve`'s `/mcp` serve it, in the test host on the
// extension's own host bridge in Chromium, handed a real tool result.
let brave: BraveFixture;
let host: McpAppHost;
const environment = () => braveEnvironment(brave);

type Transported = { transport: Transport; logs: () => string; close(): Promise<void> };
const TRANSPORTS: Record<'stdio' | 'http', () => Promise<Transported>> = {
  stdio: async () => {
    const { transport, stderr } = spawnMcpStdio(environment());
    return { transport, logs: stderr, close: async () => {} };
  },
  http: () => startMcpHttp(environment()),
};

/** Runs `use` with a client of the transport in the era, then closes both. */
async function withClient<T>(kind: keyof typeof TRANSPORTS, era: McpEra, use: (client: Client) => Promise<T>) {
  const served = await TRANSPORTS[kind]();
  const client = await connectMcp(served.transport, era);
  try {
    return await use(client);
  } finally {
    await client.close();
    await served.close();
  }
}

/** The app page, and a search's tool result, from one transport. */
async function appAndResult(kind: keyof typeof TRANSPORTS, args: Record<string, unknown>) {
  return withClient(kind, 'legacy', async (client) => {
    const { contents } = await client.readResource({ uri: RESULTS_APP_URI });
    const html = (contents[0] as { text: string }).text;
    const result = (await client.callTool({ name: 'web_search', arguments: args })) as CallToolResult;
    return { html, result };
  });
}

/** Shows the search's result, from `kind`, in the test host. */
async function shown(kind: keyof typeof TRANSPORTS, args: Record<string, unknown>, theme: 'light' | 'dark' = 'light') {
  const { html, result } = await appAndResult(kind, args);
  const frame = await host.show(html, args, result, theme);
  return { frame, result };
}

beforeAll(async () => {
  brave = await startBraveFixture();
  host = await openMcpAppHost();
});
afterAll(async () => {
  await host?.close();
  await brave?.close();
});

describe.each(['stdio', 'http'] as const)('the tool and its app over %s', (kind) => {
  it.each(['legacy', 'modern'] as const)(
    'lists the title, hints and app in the %s era, the icons on the server, and serves the same page',
    async (era) => {
      const { tools, icons, html } = await withClient(kind, era, async (client) => ({
        tools: (await client.listTools()).tools,
        icons: client.getServerVersion()?.icons,
        html: ((await client.readResource({ uri: RESULTS_APP_URI })).contents[0] as { text: string }).text,
      }));
      const [tool] = tools;
      expect(tool?.title).toBe('Web search');
      expect(tool?.annotations).toMatchObject({
        title: 'Web search',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      });
      // The icons are the server's, inline; the tool, which a model's every turn carries, has none (ADR 0119).
      expect(tool?.icons).toBeUndefined();
      expect(icons?.map((i) => [i.mimeType, i.sizes, i.src.slice(0, 26)])).toEqual([
        ['image/svg+xml', ['any'], 'data:image/svg+xml;base64,'],
        ['image/png', ['192x192'], 'data:image/png;base64,iVBO'],
      ]);
      expect(tool?._meta).toEqual({ ui: { resourceUri: RESULTS_APP_URI }, 'ui/resourceUri': RESULTS_APP_URI });
      const reference = await withClient(
        'stdio',
        'legacy',
        async (client) => ((await client.readResource({ uri: RESULTS_APP_URI })).contents[0] as { text: string }).text,
      );
      expect(html).toBe(reference);
    },
  );

  it('shows the same cards a person reads in the GUI for the same search', async () => {
    const testCase = CASES.find((c) => c.name === 'ordinary-results-exact') as ParityCase;
    const gui = createWebDriver();
    try {
      const guiView = (await gui.run(testCase, environment())).view;
      const { frame } = await shown(kind, testCase.request as Record<string, unknown>);
      expect(await readView(playwrightPage(frame))).toEqual(guiView);
    } finally {
      await gui.close?.();
    }
  });
});

/** The fixture's hostile corpus (`hostile`), its bad URLs (`badurls`), and queries that are markup themselves. */
const HOSTILE = ['hostile <img src=x onerror=alert(1)><script>alert(2)</script>', 'badurls "><svg onload=alert(3)>'];
/** The only elements the results area may hold: what the page's own script makes. */
const ALLOWED_TAGS = ['SECTION', 'H2', 'H3', 'SPAN', 'P', 'STRONG', 'OL', 'LI', 'DIV', 'A', 'CITE', 'NAV', 'UL'];

describe('the app page with the XSS corpus', () => {
  it('shows every string as the tool result holds it, as text, and fires, loads and injects nothing', async () => {
    const console: string[] = [];
    host.page.on('console', (message) => console.push(message.text()));
    const args = { requests: HOSTILE.map((query) => ({ query })) };
    const { frame, result } = await shown('http', args);
    const response = result.structuredContent as unknown as WebSearchResponse;
    expect(response.results[0]?.results.length).toBeGreaterThan(3);
    // Every string of the result, read back from the cards: text, exactly as the tool result holds it.
    const items = args.requests as Parameters<typeof readOutcome>[1];
    expect(await readOutcome(playwrightPage(frame), items)).toEqual(outcomeOfResponse(response));
    const report = await frame.evaluate((allowed) => {
      const elements = [...(document.querySelector('#results')?.querySelectorAll('*') ?? [])];
      return {
        foreignTags: [...new Set(elements.map((el) => el.tagName).filter((tag) => !allowed.includes(tag)))],
        handlerAttributes: [...document.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes].filter((a) => a.name.toLowerCase().startsWith('on')).map((a) => `${el.tagName} ${a.name}`),
        ),
        hrefs: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? ''),
        loaders: document.querySelectorAll('img, svg, iframe, object, embed, video, audio, picture, link, script[src]')
          .length,
        headings: [...document.querySelectorAll('[data-group-id] h2')].map((h) => h.textContent ?? ''),
      };
    }, ALLOWED_TAGS);
    expect(report.foreignTags).toEqual([]);
    expect(report.handlerAttributes).toEqual([]);
    expect(report.loaders).toBe(0);
    expect(report.hrefs.length).toBeGreaterThan(0);
    for (const href of report.hrefs) expect(href).toMatch(/^https?:\/\//);
    // The queries are markup too, shown as the text they are.
    expect(report.headings[0]).toContain(HOSTILE[0]);
    expect(report.headings[1]).toContain(HOSTILE[1]);
    // No script ran that the page's CSP refused, and nothing tried to load.
    expect(console.filter((line) => /Content Security Policy|Refused to/i.test(line))).toEqual([]);
  });

  it('opens a result through the host, and the frame stays where it is', async () => {
    const { frame, result } = await shown('stdio', { requests: [{ query: 'open a link', count: 2 }] });
    const url = (result.structuredContent as unknown as WebSearchResponse).results[0]?.results[0]?.url;
    await frame.locator('[data-result] a[href]').first().click();
    await expect.poll(() => host.opened()).toContain(url);
    expect(await frame.evaluate(() => document.querySelector('[data-result]') !== null)).toBe(true);
  });
});

describe('a result with extra snippets', () => {
  it('shows them in a disclosure under the result, as text, when the result carries them', async () => {
    const args = { requests: [{ query: 'extra snippets', count: 2 }] };
    const { html, result } = await appAndResult('stdio', args);
    // The field is optional: a real result, given the list a provider may add to it.
    const snippets = ['<b>not bold</b> &amp; more', 'A second excerpt.'];
    const response = structuredClone(result.structuredContent) as unknown as WebSearchResponse;
    Object.assign(response.results[0]?.results[0] ?? {}, { extra_snippets: snippets });
    const frame = await host.show(html, args, { ...result, structuredContent: response as never }, 'light');
    const shown = await frame.evaluate(() =>
      [...document.querySelectorAll('[data-result]')].map((item) => ({
        summary: item.querySelector('details > summary')?.textContent ?? null,
        snippets: [...item.querySelectorAll('[data-field="extra_snippet"]')].map((li) => li.textContent),
        markup: item.querySelectorAll('details b').length,
      })),
    );
    expect(shown).toEqual([
      { summary: '2 excerpts from the page', snippets, markup: 0 },
      { summary: null, snippets: [], markup: 0 },
    ]);
  });
});

/**
 * Every axe violation in the app's frame, and every contrast check axe could not decide, as
 * `id: target` lines. axe runs inside the frame itself (injected as the GUI's tests inject it), so
 * it reads the page the host shows, in the frame's own document.
 */
async function axeFindings(frame: Frame): Promise<string[]> {
  await frame.evaluate(axe.source);
  const { violations, incomplete, passes } = await frame.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document),
  );
  // Not vacuous: the cards' text was checked for contrast.
  expect(passes.find((r) => r.id === 'color-contrast')?.nodes.length).toBeGreaterThan(5);
  return [...violations, ...incomplete.filter((r) => r.id === 'color-contrast')].flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`),
  );
}

/** The page's resolved colours: that the theme handed over is the one drawn. */
const background = (frame: Frame) =>
  frame.evaluate(() => [
    document.documentElement.dataset.theme,
    getComputedStyle(document.documentElement).backgroundColor,
  ]);

describe.each(['light', 'dark'] as const)('the app page in the %s theme', (theme) => {
  it('has no axe violation with results, an empty group and a failed group', async () => {
    const args = { requests: ['accessible search', 'empty x', 'error500 x'].map((query) => ({ query, count: 3 })) };
    const { frame } = await shown('stdio', args, theme);
    expect(await background(frame)).toEqual([theme, theme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(24, 24, 27)']);
    expect(await frame.locator('[data-group-id]').count()).toBe(3);
    expect(await axeFindings(frame)).toEqual([]);
  });

  it('has no axe violation on a refused search', async () => {
    const { frame } = await shown('http', { requests: [{ query: 'ok' }, { query: ' ', count: 50 }] }, theme);
    expect(await frame.locator('[data-issue]').count()).toBe(2);
    expect(await axeFindings(frame)).toEqual([]);
  });
});
