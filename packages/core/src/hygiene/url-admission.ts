import { hasInvisible, MAX_URL_LENGTH } from '@openmates/contract';
import { dropTrackingParameters } from './tracking-parameters.ts';

/**
 * Admits an untrusted URL candidate: returns its WHATWG-normalized `href` (lowercased scheme and
 * host, default port dropped, dot segments resolved, IDNs in punycode, unsafe characters
 * percent-encoded), or `null` when it is not a string, not an absolute URL on its own (relative
 * URLs are refused, never resolved), not `http:`/`https:`, carries a username or password, has no
 * hostname, holds a control or invisible character, or normalizes to more than MAX_URL_LENGTH
 * characters. Surrounding whitespace is ignored. The tracking parameters of `TRACKING_PARAMETERS`
 * (`utm_*` and a few click ids) are dropped, so one page reached through two campaigns is one URL
 * (ADR 0101); every other parameter is kept as it is, in its order.
 */
export function admitUrl(raw: unknown): string | null {
  return admitParsedUrl(raw)?.href ?? null;
}

/**
 * `admitUrl`, answering the parsed URL (its `href` is the admitted string) so that a caller
 * deriving `meta_url` or a tabloid check from it does not parse it again.
 */
export function admitParsedUrl(raw: unknown): URL | null {
  if (typeof raw !== 'string') return null;
  const candidate = raw.trim();
  // The URL parser silently deletes tabs and newlines (`java\nscript:`) and IDNA maps soft
  // hyphens away; a candidate that needs either is refused rather than repaired.
  if (candidate === '' || hasInvisible(candidate)) return null;
  const url = URL.parse(candidate);
  if (url === null) return null;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '' || url.hostname === '') return null;
  dropTrackingParameters(url);
  return url.href.length <= MAX_URL_LENGTH ? url : null;
}
