import { TABLOID_DOMAINS } from './tabloid-domains.ts';

const DEFAULT_DOMAINS: ReadonlySet<string> = new Set(TABLOID_DOMAINS);

/**
 * True when `url`'s host is one of `domains` (default `TABLOID_DOMAINS`) or a subdomain of one.
 * Hosts are compared label by label, from the full host up through its parent domains, never as
 * substrings: `news.dailymail.co.uk` matches `dailymail.co.uk`, `notdailymail.co.uk` and
 * `dailymail.co.uk.evil.com` do not. IP addresses and unparsable URLs never match. `domains` holds
 * registrable domains (Public Suffix List, ICANN section) or names below them, lowercase, punycode
 * for IDNs, as `admitUrl` produces them: an entry that is itself a public suffix (`co.uk`) would
 * match every site under it. The list is checked against the Public Suffix List in the tests, not
 * at run time, so no search loads the suffix list (a cold CLI start would pay for it).
 */
export function isTabloid(url: string, domains: ReadonlySet<string> = DEFAULT_DOMAINS): boolean {
  const hostname = URL.parse(url)?.hostname;
  return hostname === undefined ? false : isTabloidHost(hostname, domains);
}

/** `isTabloid` of a URL's parsed `hostname`. */
export function isTabloidHost(hostname: string, domains: ReadonlySet<string> = DEFAULT_DOMAINS): boolean {
  let candidate = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  for (;;) {
    if (domains.has(candidate)) return true;
    const dot = candidate.indexOf('.');
    if (dot < 0) return false;
    candidate = candidate.slice(dot + 1);
  }
}
