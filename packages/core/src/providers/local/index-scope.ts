import type { SQLInputValue } from 'node:sqlite';
import type { LocalSearchOptions } from './index-types.ts';

/** SQL conditions on the `docs` table (aliased `d`), each starting with ` AND `, and their values. */
export interface ScopeConditions {
  sql: string;
  values: SQLInputValue[];
}

/**
 * The SQL conditions and their values for the scope options of a search: a host in (or not in) the
 * domains, a published date in the range. Domains hold only letters, digits, `-` and `.`, so none
 * is a LIKE wildcard.
 */
export function scopeConditions(options: LocalSearchOptions): ScopeConditions {
  let sql = '';
  const values: SQLInputValue[] = [];
  const inDomains = (domains: readonly string[]) => {
    for (const domain of domains) values.push(domain, `%.${domain}`);
    return domains.map(() => "(coalesce(d.host, '') = ? OR coalesce(d.host, '') LIKE ?)").join(' OR ');
  };
  if (options.includeDomains !== undefined && options.includeDomains.length > 0)
    sql += ` AND (${inDomains(options.includeDomains)})`;
  if (options.excludeDomains !== undefined && options.excludeDomains.length > 0)
    sql += ` AND NOT (${inDomains(options.excludeDomains)})`;
  if (options.published !== undefined) {
    // unixepoch() of a missing or unreadable date is NULL, which no comparison lets through.
    sql += ' AND unixepoch(d.published) * 1000 >= ? AND unixepoch(d.published) * 1000 < ?';
    values.push(options.published.start, options.published.end);
  }
  return { sql, values };
}
