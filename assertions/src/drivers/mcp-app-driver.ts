import type { CallToolResult } from '@modelcontextprotocol/client';
import type { CaseEnvironment, DriverResult, ParityCase, SurfaceDriver } from '../case.ts';
import { type McpAppHost, openMcpAppHost, RESULTS_APP_URI } from './mcp-app-host.ts';
import { connectMcp, expressible, spawnMcpStdio } from './mcp-driver.ts';
import { pageLanguage, readOutcome, readView } from './page-actions.ts';
import { playwrightPage } from './web-driver.ts';

/** The app page and a tool result, as a host gets both from `openmates mcp`. */
async function fetchApp(testCase: ParityCase, environment: CaseEnvironment) {
  const { transport, stderr } = spawnMcpStdio(environment);
  const client = await connectMcp(transport, 'legacy');
  try {
    const { contents } = await client.readResource({ uri: RESULTS_APP_URI });
    const html = (contents[0] as { text?: string } | undefined)?.text;
    if (typeof html !== 'string') throw new Error('mcp-app: the resource has no text');
    const args = testCase.request as Record<string, unknown>;
    const result = (await client.callTool({ name: 'web_search', arguments: args })) as CallToolResult;
    return { html, args, result, logs: stderr };
  } finally {
    await client.close();
  }
}

/**
 * The MCP App column (ADR 0090): each case of the `web` column as a chat host shows it, the page of
 * `ui://openmates/results` from `openmates mcp` in a sandboxed frame of the test host (the
 * extension's `app-bridge`, in Chromium), handed the call's real tool result; then the cards are
 * read back as the GUI columns read the GUI (page-actions), so the app must show what the tool
 * result holds: results, group errors, or the refusal's message.
 */
export function createMcpAppDriver(): SurfaceDriver {
  let host: Promise<McpAppHost> | undefined;
  return {
    surface: 'mcp-app',
    supports: (testCase) => testCase.formCannotExpress === undefined && expressible(testCase),
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const { html, args, result, logs } = await fetchApp(testCase, environment);
      host ??= openMcpAppHost();
      const frame = await (await host).show(html, args, result, 'light');
      const page = playwrightPage(frame);
      const items = (args.requests ?? []) as Parameters<typeof readOutcome>[1];
      return {
        outcome: await readOutcome(page, items),
        view: await readView(page),
        pageLanguage: await pageLanguage(page),
        document: result.structuredContent,
        transcript: `${await frame.content()}\n${logs()}`,
      };
    },
    async close() {
      if (host) await (await host).close();
    },
  };
}
