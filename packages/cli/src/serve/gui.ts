import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The GUI's handler: a connect-style `(req, res, next)` function. */
type NodeHandler = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/**
 * Where the built GUI is: the `@openmates/web/handler` export of the optional `@openmates/web`
 * dependency, when it is installed and built (its `build/` exists). Never the app's source.
 */
export function locateGui(): string | undefined {
  let entry: string;
  try {
    entry = fileURLToPath(import.meta.resolve('@openmates/web/handler'));
  } catch {
    return undefined; // the optional dependency is not installed
  }
  return existsSync(new URL('build/handler.js', pathToFileURL(entry))) ? entry : undefined;
}

/**
 * Loads the GUI's handler. The wrapper of `@openmates/web` takes the protocol from the socket
 * (SvelteKit 3 builds each request's origin from Host and a protocol header), so nothing needs
 * setting here; an operator behind a TLS proxy sets PROTOCOL_HEADER themselves.
 */
export async function loadGui(file: string): Promise<(request: IncomingMessage, response: ServerResponse) => void> {
  const { handler } = (await import(pathToFileURL(file).href)) as { handler: NodeHandler };
  return (request, response) =>
    handler(request, response, () => {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    });
}
