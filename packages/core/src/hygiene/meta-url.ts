import type { MetaUrl } from '@openmates/contract';
import { admitUrl } from './url-admission.ts';

/**
 * The `meta_url` of an admitted result URL: scheme without its colon, netloc (host and a
 * non-default port), hostname and path. `favicon` is set only when it is itself an admissible
 * https URL; anything else (http, data:, relative) is left out, so a result never makes a client
 * fetch over plain HTTP.
 */
export function metaUrl(url: string, favicon?: unknown): MetaUrl {
  const parsed = URL.parse(url);
  if (parsed === null) throw new TypeError('metaUrl needs an admitted URL');
  return metaUrlOf(parsed, favicon);
}

/** `metaUrl` of an already parsed admitted URL (as `admitParsedUrl` returns it). */
export function metaUrlOf(parsed: URL, favicon?: unknown): MetaUrl {
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError('metaUrl needs an admitted URL');
  }
  const meta: MetaUrl = {
    scheme: parsed.protocol === 'https:' ? 'https' : 'http',
    netloc: parsed.host,
    hostname: parsed.hostname,
    path: parsed.pathname,
  };
  const icon = admitUrl(favicon);
  if (icon?.startsWith('https:')) meta.favicon = icon;
  return meta;
}
