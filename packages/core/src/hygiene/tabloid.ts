import { getDomain } from 'tldts';
import { TABLOID_DOMAINS } from './tabloid-domains.ts';

const DEFAULT_DOMAINS: ReadonlySet<string> = new Set(TABLOID_DOMAINS);

/**
 * True when `url`'s host is one of `domains` (default `TABLOID_DOMAINS`) or a subdomain of one.
 * Hosts are compared label by label from the full host up to its registrable domain (Public Suffix
 * List, ICANN section), never as substrings: `news.dailymail.co.uk` matches `dailymail.co.uk`,
 * `notdailymail.co.uk` and `dailymail.co.uk.evil.com` do not. IP addresses and unparsable URLs never
 * match. `domains` holds lowercase names, punycode for IDNs, as `admitUrl` produces them.
 */
export function isTabloid(url: string, domains: ReadonlySet<string> = DEFAULT_DOMAINS): boolean {
  const hostname = URL.parse(url)?.hostname;
  return hostname === undefined ? false : isTabloidHost(hostname, domains);
}

/** `isTabloid` of a URL's parsed `hostname`. */
export function isTabloidHost(hostname: string, domains: ReadonlySet<string> = DEFAULT_DOMAINS): boolean {
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  const registrable = getDomain(host);
  if (registrable === null) return false;
  let candidate = host;
  for (;;) {
    if (domains.has(candidate)) return true;
    if (candidate === registrable) return false;
    const dot = candidate.indexOf('.');
    if (dot < 0) return false;
    candidate = candidate.slice(dot + 1);
  }
}
