import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The SvelteKit adapter-node handler: a connect-style `(req, res, next)` function. */
type NodeHandler = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/**
 * Where the built GUI is: `@openmates/web/build/handler.js` when that package is installed,
 * else `apps/web/build/handler.js` of this repository. Never the app's source.
 */
export function locateGui(): string | undefined {
  try {
    const resolved = fileURLToPath(import.meta.resolve('@openmates/web/build/handler.js'));
    if (existsSync(resolved)) return resolved;
  } catch {
    // Not installed as a package: look in the repository.
  }
  // From packages/cli/dist/<chunk>.js or packages/cli/src/serve/gui.ts up to the repository root.
  for (const up of ['../../../apps/web/build/handler.js', '../../../../apps/web/build/handler.js']) {
    const candidate = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Loads the GUI's handler. SvelteKit reads `ORIGIN` when the module loads (it checks form POSTs
 * against it), so it is set first, unless the user already set it (e.g. behind a proxy).
 */
export async function loadGui(
  file: string,
  origin: string,
): Promise<(request: IncomingMessage, response: ServerResponse) => void> {
  process.env.ORIGIN ||= origin;
  const module = (await import(pathToFileURL(file).href)) as { handler: NodeHandler };
  const { handler } = module;
  return (request, response) =>
    handler(request, response, () => {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    });
}
