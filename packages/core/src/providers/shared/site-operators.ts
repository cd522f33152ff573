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

/**
 * `text` (a query the provider returned: its altered query, a suggestion) without the operators
 * `withSiteOperators` added for `item`, whitespace collapsed.
 */
export function withoutSiteOperators(text: string, item: ScopedQuery): string {
  const operators = withSiteOperators({ ...item, query: '' }).trim();
  if (operators === '') return text;
  let out = text;
  for (const part of [operators, ...operators.split(/\s+(?![^()]*\))/)]) out = out.split(part).join(' ');
  return out.replace(/\s+/g, ' ').trim();
}
