// The GUI as a node `(req, res, next)` handler, for `openmates serve` to mount beside the API
// (`createServer(settings, { gui })`, which hands it every path the API does not own, through the
// API's request path). It wraps the adapter-node build in ./build.
//
// SvelteKit 3's adapter-node has no ORIGIN variable: it builds each request's origin from the Host
// header and the header named by PROTOCOL_HEADER, assuming https when that is unset. Served over
// plain http, that origin would be wrong and SvelteKit's CSRF check would refuse the key form. So,
// unless the operator named a protocol header (behind a TLS proxy), the protocol comes from the
// socket itself, in a header this wrapper always overwrites.
import { readdirSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const OWN_HEADER = 'x-openmates-socket-protocol';
const operatorHeader = process.env.PROTOCOL_HEADER;
if (!operatorHeader) process.env.PROTOCOL_HEADER = OWN_HEADER;

const { handler: kitHandler } = await import('./build/handler.js');

// adapter-node marks only the hashed files under /_app/immutable/ as cacheable. The files of
// static/ (icons, the web app manifest) keep their names across releases, so they are cached for a
// day and then revalidated by their ETag; the manifest is revalidated on every use, so an installed
// app picks up a changed name or icon at its next launch.
const CACHE_CONTROL = { manifest: 'no-cache', other: 'public, max-age=86400' };
const clientDir = fileURLToPath(new URL('./build/client/', import.meta.url));
const staticFiles = new Set(
  readdirSync(clientDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${relative(clientDir, `${entry.parentPath}${sep}${entry.name}`).split(sep).join('/')}`)
    .filter((path) => !path.startsWith('/_app/')),
);

/** Serves the GUI (static assets and pages); `next` is called for nothing it does not own. */
export function handler(req, res, next) {
  if (!operatorHeader) req.headers[OWN_HEADER] = req.socket.encrypted ? 'https' : 'http';
  const pathname = (req.url ?? '/').split('?')[0];
  if (staticFiles.has(pathname)) {
    res.setHeader('cache-control', pathname.endsWith('.webmanifest') ? CACHE_CONTROL.manifest : CACHE_CONTROL.other);
    res.setHeader('x-content-type-options', 'nosniff');
  }
  return kitHandler(req, res, next ?? (() => {}));
}
