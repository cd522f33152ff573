// The GUI as a node `(req, res, next)` handler, for `openmates serve` to mount beside the API
// (`listen(handler, { fallback })`). It wraps the adapter-node build in ./build.
//
// SvelteKit 3's adapter-node has no ORIGIN variable: it builds each request's origin from the Host
// header and the header named by PROTOCOL_HEADER, assuming https when that is unset. Served over
// plain http, that origin would be wrong and SvelteKit's CSRF check would refuse the key form. So,
// unless the operator named a protocol header (behind a TLS proxy), the protocol comes from the
// socket itself, in a header this wrapper always overwrites.
const OWN_HEADER = 'x-openmates-socket-protocol';
const operatorHeader = process.env.PROTOCOL_HEADER;
if (!operatorHeader) process.env.PROTOCOL_HEADER = OWN_HEADER;

const { handler: kitHandler } = await import('./build/handler.js');

/** Serves the GUI (static assets and pages); `next` is called for nothing it does not own. */
export function handler(req, res, next) {
  if (!operatorHeader) req.headers[OWN_HEADER] = req.socket.encrypted ? 'https' : 'http';
  return kitHandler(req, res, next ?? (() => {}));
}
