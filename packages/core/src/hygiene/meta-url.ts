import { MAX_URL_LENGTH, type MetaUrl } from '@openmates/contract';
import type { TextFormat } from '../provider.ts';
import { isRecord } from '../shared/is-record.ts';
import { providerText } from './html-to-text.ts';
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

/**
 * `metaUrl` of an already parsed admitted URL (as `admitParsedUrl` returns it), keeping the
 * provider's own display parts (`own`: Brave's `meta_url`) where they are clean:
 * - `netloc` when it is a string naming the URL's host, or that host without a leading `www.`
 *   (Brave's `reddit.com` for `www.reddit.com`), compared in lowercase and kept in lowercase;
 * - `path` when it is a string that cleans, as provider text in `format` bounded like a URL, to
 *   something (Brave's breadcrumb `› r/insuranceagent`);
 * - `scheme` and `hostname` are always the URL's: a provider's that differed would not be clean,
 *   and one that agrees is the same.
 * A part that is absent or not clean is derived from the URL.
 */
export function metaUrlOf(parsed: URL, favicon?: unknown, own?: unknown, format: TextFormat = 'html'): MetaUrl {
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError('metaUrl needs an admitted URL');
  }
  const meta: MetaUrl = {
    scheme: parsed.protocol === 'https:' ? 'https' : 'http',
    netloc: parsed.host,
    hostname: parsed.hostname,
    path: parsed.pathname,
  };
  if (isRecord(own)) {
    const netloc = typeof own.netloc === 'string' ? own.netloc.toLowerCase() : undefined;
    if (netloc !== undefined && (netloc === parsed.host || `www.${netloc}` === parsed.host)) meta.netloc = netloc;
    const path = typeof own.path === 'string' ? providerText(own.path, format, MAX_URL_LENGTH) : '';
    if (path !== '') meta.path = path;
  }
  const icon = admitUrl(favicon);
  if (icon?.startsWith('https:')) meta.favicon = icon;
  return meta;
}
