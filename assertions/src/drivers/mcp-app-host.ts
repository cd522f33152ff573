import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Frame, Page } from 'playwright-core';
import { build } from 'rolldown';
import { openSharedChromium } from './chromium.ts';
import type { Handover } from './mcp-app-host/host-page.ts';

/** The MCP App's resource. */
export const RESULTS_APP_URI = 'ui://openmates/results';

let hostPage: Promise<string> | undefined;

/** The test host page: its script (the extension's host bridge) bundled once per process, inline. */
function hostHtml(): Promise<string> {
  hostPage ??= build({
    input: fileURLToPath(new URL('./mcp-app-host/host-page.ts', import.meta.url)),
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    output: { format: 'iife' },
  }).then(({ output: [chunk] }) => {
    if (chunk?.type !== 'chunk') throw new Error('rolldown produced no host script');
    const script = chunk.code.replaceAll('</script', '<\\/script');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP App test host</title><style>body{margin:0}iframe{display:block;width:100%;height:600px;border:0}</style></head><body><header><h1>Test host</h1></header><section aria-label="Tool result"></section><script>${script}</script></body></html>`;
  });
  return hostPage;
}

/** A chat host in Chromium that shows one MCP App at a time, on the extension's host bridge. */
export interface McpAppHost {
  page: Page;
  /** Shows `html` with the call's input and result in `theme`; resolves to the app's frame once it has drawn the result. */
  show(
    html: string,
    toolInput: Record<string, unknown>,
    toolResult: CallToolResult,
    theme: Handover['theme'],
  ): Promise<Frame>;
  /** The links the app asked the host to open, in order. */
  opened(): Promise<string[]>;
  close(): Promise<void>;
}

/** How long the app may take to draw a result it was handed (a failure bound, not a wait). */
const DRAW_TIMEOUT_MS = 30_000;

/** Opens the test host in the process's shared Chromium. */
export async function openMcpAppHost(): Promise<McpAppHost> {
  const { browser, release } = await openSharedChromium();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setContent(await hostHtml());
  return {
    page,
    async show(html, toolInput, toolResult, theme) {
      await page.emulateMedia({ colorScheme: theme });
      const handover: Handover = { html, toolInput, toolResult, theme };
      await page.evaluate(
        (h) => (window as unknown as { mcpAppHost: { show(h: unknown): Promise<void> } }).mcpAppHost.show(h),
        handover as unknown as Record<string, unknown>,
      );
      const frame = await (await page.waitForSelector('iframe')).contentFrame();
      if (!frame) throw new Error('the app frame has no document');
      await frame.waitForFunction(
        () => document.querySelector('#results')?.getAttribute('aria-busy') === 'false',
        undefined,
        {
          timeout: DRAW_TIMEOUT_MS,
        },
      );
      return frame;
    },
    opened: () =>
      page.evaluate(() => [...(window as unknown as { mcpAppHost: { opened: string[] } }).mcpAppHost.opened]),
    async close() {
      await context.close();
      await release();
    },
  };
}
