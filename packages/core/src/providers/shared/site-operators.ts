/** The parts of a query its operators are written from. */
export interface ScopedQuery {
  readonly query: string;
  readonly include_domains?: readonly string[] | undefined;
  readonly exclude_domains?: readonly string[] | undefined;
}

/**
 * The query with its domain scope written as search operators, for providers that take the scope
 * in `q` (Brave, SearXNG): one included domain as `site:a`, several as `(site:a OR site:b)`, each
 * excluded one as `-site:b`, after the query so its first words stay the caller's.
 */
export function withSiteOperators(item: ScopedQuery): string {
  const parts = [item.query];
  const include = item.include_domains ?? [];
  if (include.length === 1) parts.push(`site:${include[0]}`);
  else if (include.length > 1) parts.push(`(${include.map((domain) => `site:${domain}`).join(' OR ')})`);
  for (const domain of item.exclude_domains ?? []) parts.push(`-site:${domain}`);
  return parts.join(' ');
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The operator forms `withSiteOperators` writes for `domains`, as one alternation, or undefined for none. */
function sitePattern(domains: readonly string[] | undefined): string | undefined {
  if (domains === undefined || domains.length === 0) return undefined;
  return `site:(?:${domains.map(literal).join('|')})`;
}

/**
 * `text` (a provider's suggestion or altered query) without the `site:` / `-site:` operators the
 * engine added for `item`'s domains, however the provider echoes them: in any case, in any order,
 * anywhere in the text, several included domains joined by `OR` with or without their
 * parentheses. Only operators naming the item's own domains go (a `site:` the caller typed for
 * another domain stays); spaces are collapsed.
 */
export function withoutSiteOperators(text: string, item: ScopedQuery): string {
  const include = sitePattern(item.include_domains);
  const exclude = sitePattern(item.exclude_domains);
  if (include === undefined && exclude === undefined) return text;
  // An operator stands alone: after the start, a space or `(`, before the end, a space or `)`.
  const before = '(?<=^|[\\s(])';
  const after = '(?=$|[\\s)])';
  let out = text;
  if (include !== undefined) {
    const chain = `${include}(?:\\s+OR\\s+${include})*`;
    out = out.replace(new RegExp(`(?<=^|\\s)\\(\\s*${chain}\\s*\\)(?=$|\\s)`, 'giu'), ' ');
    out = out.replace(new RegExp(`${before}${chain}${after}`, 'giu'), ' ');
  }
  if (exclude !== undefined) out = out.replace(new RegExp(`${before}-${exclude}${after}`, 'giu'), ' ');
  return out.replace(/\s+/g, ' ').trim();
}
