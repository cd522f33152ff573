/**
 * The test host's page script, bundled for Chromium by `mcp-app-host.ts`: a host as a chat client is
 * one, on the extension's own host side (`AppBridge` over `PostMessageTransport`). It puts the app
 * page in a sandboxed frame (scripts only: an opaque origin, no popups, no top navigation), answers
 * its handshake with the host context (the theme), hands it the call's input and result, records
 * each link the page asks the host to open, and sizes the frame as the page asks.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

export interface Handover {
  html: string;
  toolInput: Record<string, unknown>;
  toolResult: CallToolResult;
  theme: 'light' | 'dark';
}

const opened: string[] = [];

async function show(handover: Handover): Promise<void> {
  document.querySelector('iframe')?.remove();
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = 'Web search results';
  (document.querySelector('section') ?? document.body).append(frame);
  const view = frame.contentWindow;
  if (!view) throw new Error('the frame has no window');
  const bridge = new AppBridge(
    null,
    { name: 'openmates-test-host', version: '0' },
    { openLinks: {} },
    { hostContext: { theme: handover.theme, displayMode: 'inline' } },
  );
  bridge.onopenlink = async ({ url }) => {
    opened.push(url);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${Math.ceil(height)}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new PostMessageTransport(view, view));
  frame.srcdoc = handover.html;
  await initialized;
  await bridge.sendToolInput({ arguments: handover.toolInput });
  await bridge.sendToolResult(handover.toolResult);
}

Object.assign(window, { mcpAppHost: { show, opened } });
