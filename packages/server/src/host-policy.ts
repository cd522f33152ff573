import { isIP } from 'node:net';
import { isLoopbackHost } from './loopback.ts';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** A host name as compared: lowercase, no port, no IPv6 brackets. */
function bareName(host: string): string {
  const trimmed = host.trim().toLowerCase();
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(trimmed);
  if (bracketed) return bracketed[1] ?? '';
  // An IPv6 literal without brackets has no port to strip.
  if (isIP(trimmed) === 6) return trimmed;
  return trimmed.replace(/:\d+$/, '');
}

function isWildcard(host: string): boolean {
  const bare = bareName(host);
  return bare === '' || bare === '0.0.0.0' || bare === '::';
}

/**
 * Which `Host` and `Origin` headers a browser-reachable endpoint accepts (the MCP endpoint: ADR
 * 0029), against DNS rebinding and cross-site calls. Allowed names: the bound address (on loopback,
 * every loopback name) and the host names of `OPENMATES_ALLOWED_ORIGINS`. A server bound to every
 * interface accepts any `Host` unless origins are configured (it requires API keys there, which a
 * rebinding page does not have). An `Origin` must be listed, or name an allowed host; a request
 * without one (not a browser) is not refused for that.
 */
export function createHostPolicy(
  boundHost: string,
  allowedOrigins: readonly string[],
): (host: string | null, origin: string | null) => boolean {
  const origins = new Set(allowedOrigins.map((o) => new URL(o).origin));
  const names = new Set([...origins].map((o) => bareName(new URL(o).host)));
  const anyHost = isWildcard(boundHost) && origins.size === 0;
  if (isLoopbackHost(boundHost)) for (const name of LOOPBACK_NAMES) names.add(name);
  if (!isWildcard(boundHost)) names.add(bareName(boundHost));

  return (host, origin) => {
    if (host === null || host.trim() === '') return false;
    const hostName = bareName(host);
    if (!anyHost && !names.has(hostName)) return false;
    if (origin === null) return true;
    if (origins.has(origin)) return true;
    let originHost: string;
    try {
      originHost = bareName(new URL(origin).host);
    } catch {
      return false; // `null` (a sandboxed page) and anything unparsable
    }
    return anyHost ? originHost === hostName : names.has(originHost);
  };
}
