/**
 * Query parameters that only track how a visitor arrived and never select what a page shows: they
 * are dropped from every result URL, and so from URL identity (repeats, the cache), for every
 * provider (ADR 0101). Names are compared in lowercase. Every other parameter stays, in its order
 * and spelling. An entry belongs here only when the system that appends it documents it as
 * tracking alone.
 */
export const TRACKING_PARAMETERS = {
  /** Google Analytics campaign tags (`utm_source`, `utm_medium`, …; OpenAI adds `utm_source=openai`). */
  prefixes: ['utm_'],
  names: [
    /** Google Ads click id. */
    'gclid',
    /** Facebook (Meta) click id. */
    'fbclid',
    /** Microsoft Advertising click id. */
    'msclkid',
    /** Mailchimp campaign id. */
    'mc_cid',
    /** Mailchimp subscriber id. */
    'mc_eid',
  ],
} as const;

const NAMES: ReadonlySet<string> = new Set(TRACKING_PARAMETERS.names);

/** True when `name` (as written in a query string) is a tracking parameter of the table. */
export function isTrackingParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return NAMES.has(lower) || TRACKING_PARAMETERS.prefixes.some((prefix) => lower.startsWith(prefix));
}

/**
 * `url` with its tracking parameters dropped from the query string, in place; the others keep
 * their order and exact spelling (not re-encoded), and a query left empty goes with its `?`.
 */
export function dropTrackingParameters(url: URL): void {
  const search = url.search;
  if (search.length <= 1) return;
  const pairs = search.slice(1).split('&');
  const kept = pairs.filter((pair) => {
    const end = pair.indexOf('=');
    return !isTrackingParameter(end < 0 ? pair : pair.slice(0, end));
  });
  if (kept.length !== pairs.length) url.search = kept.length === 0 ? '' : `?${kept.join('&')}`;
}
