/**
 * Display helpers for results. Provider text reaches the page only as text nodes; these guard the
 * two places where it becomes something else: a link target and a badge.
 */

/** The URL as a link target, only when it is http(s) (the API guarantees it; the page checks again). */
export function hrefOf(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? url : undefined;
}

/** The letter shown in place of a favicon: the hostname's first letter or digit, without `www.`. */
export function badgeLetter(hostname: string, url: string): string {
  let host = hostname;
  if (host === '') {
    try {
      host = new URL(url).hostname;
    } catch {
      host = '';
    }
  }
  const match = /[\p{L}\p{N}]/u.exec(host.replace(/^www\./i, ''));
  return match ? match[0].toLocaleUpperCase('en') : '?';
}

/** One of eight colour classes, stable per hostname. */
export function badgeClass(key: string): string {
  let hash = 0;
  for (const ch of key) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return `c${hash % 8}`;
}
