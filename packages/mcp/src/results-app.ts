import {
  type McpUiAppResourceConfig,
  type McpUiAppToolConfig,
  RESOURCE_MIME_TYPE,
  registerAppResource,
  registerAppTool,
} from '@modelcontextprotocol/ext-apps/server';
import type { Icon, ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import { APP_ICONS } from './generated/icons.generated.ts';

/**
 * The MCP App of `web_search` (ADR 0088): a host that speaks the MCP Apps extension renders this
 * resource beside the tool result, as the GUI renders results; any other host ignores the tool's
 * `_meta.ui`. The page is one self-contained document (`generated/results-app.generated.ts`, made by
 * `scripts/generate.ts`): its script, styles and the extension's app bundle are inline, and it loads
 * nothing.
 */
export const RESULTS_APP_URI = 'ui://openmates/results';

/** The app's icons (the GUI's own, inlined as `data:` URIs, ADR 0089), for the tool and the server. */
export const ICONS: Icon[] = APP_ICONS.map((icon) => ({ ...icon, sizes: [...icon.sizes] }));

/**
 * The extension's helpers decide what the tool and the resource declare (`_meta.ui.resourceUri`
 * and the flat key older hosts read; the resource's MIME type). They register on the high-level
 * server, which this package does not use (it would validate arguments before the contract does):
 * they are handed a recorder of what they would register instead.
 */
function declared<T>(register: (recorder: never) => unknown): T {
  let config: T | undefined;
  const recorder = {
    registerTool: (_name: string, toolConfig: T) => {
      config = toolConfig;
      return {};
    },
    registerResource: (_name: string, _uri: string, resourceConfig: T) => {
      config = resourceConfig;
      return {};
    },
  };
  register(recorder as never);
  if (config === undefined) throw new Error('the extension registered nothing');
  return config;
}

/** The tool's `_meta`, as the extension writes it for a tool with an app. */
export const TOOL_META: Record<string, unknown> = declared<McpUiAppToolConfig>((server) =>
  registerAppTool(server, 'web_search', { _meta: { ui: { resourceUri: RESULTS_APP_URI } } }, () => ({ content: [] })),
)._meta;

/** What the page may reach, said to the host too: nothing beyond itself, and no border drawn around it. */
const UI_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: false } };

const RESOURCE_CONFIG = declared<McpUiAppResourceConfig & { mimeType: string }>((server) =>
  registerAppResource(
    server,
    'Web search results',
    RESULTS_APP_URI,
    { description: 'The results of a web_search call as cards, in the host’s theme.', _meta: UI_META },
    () => ({ contents: [] }),
  ),
);

/** The app page as `resources/list` lists it. */
export const RESULTS_APP_RESOURCE: Resource = {
  uri: RESULTS_APP_URI,
  name: 'web-search-results',
  title: 'Web search results',
  description: RESOURCE_CONFIG.description ?? '',
  mimeType: RESOURCE_CONFIG.mimeType,
  icons: ICONS,
  _meta: UI_META,
};

/**
 * The answer to `resources/read` of the app page. The page (about 250 KB) is loaded on the first
 * read, not at start: most sessions never read it, and a stdio server's start is on the clock.
 */
export async function readResultsApp(): Promise<ReadResourceResult> {
  const { RESULTS_APP_HTML } = await import('./generated/results-app.generated.ts');
  return {
    contents: [{ uri: RESULTS_APP_URI, mimeType: RESOURCE_MIME_TYPE, text: RESULTS_APP_HTML, _meta: UI_META }],
  };
}
