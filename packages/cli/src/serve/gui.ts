import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The GUI's handler: a connect-style `(req, res, next)` function. */
type NodeHandler = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/**
 * Where the built GUI is: `gui/handler.js` inside this package, copied there from apps/web by the
 * build (`scripts/copy-gui.ts`) and shipped in the packed CLI (ADR 0093). The package's root is the
 * first directory above this module holding a package.json, wherever the bundler put the module.
 */
export function locateGui(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  const entry = join(dir, 'gui', 'handler.js');
  return existsSync(entry) ? entry : undefined;
}

/**
 * Loads the GUI's handler. The GUI's wrapper takes the protocol from the socket (SvelteKit 3
 * builds each request's origin from Host and a protocol header), so nothing needs setting here; an
 * operator behind a TLS proxy sets PROTOCOL_HEADER themselves.
 */
export async function loadGui(file: string): Promise<(request: IncomingMessage, response: ServerResponse) => void> {
  const { handler } = (await import(pathToFileURL(file).href)) as { handler: NodeHandler };
  return (request, response) =>
    handler(request, response, () => {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    });
}
