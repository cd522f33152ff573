import type { SQLInputValue } from 'node:sqlite';
import type { LocalSearchOptions } from './index-types.ts';

/** SQL conditions on the `docs` table (aliased `d`) and their values, in order. */
export interface Conditions {
  sql: string;
  values: SQLInputValue[];
}

/**
 * The conditions every search step applies: the language, the family-friendly flag, then the scope
 * (see `scopeConditions`). Both steps write the same SQL, so each prepares one statement.
 */
export function searchFilters(options: LocalSearchOptions): Conditions {
  const scope = scopeConditions(options);
  const language = options.language ?? null;
  return {
    sql: `(? IS NULL OR d.language = ?) AND (? = 0 OR d.family_friendly = 1)${scope.sql}`,
    values: [language, language, options.familyFriendlyOnly === true ? 1 : 0, ...scope.values],
  };
}

/**
 * The SQL conditions (each starting with ` AND `) and their values for the scope options of a
 * search: a host in (or not in) the domains, a published date in the range. Domains hold only
 * letters, digits, `-` and `.`, so none is a LIKE wildcard.
 */
function scopeConditions(options: LocalSearchOptions): Conditions {
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
