import { statSync } from 'node:fs';
import type { IndexConnection } from './index-connection.ts';
import type { LocalIndexStats } from './index-types.ts';

/** Meta key holding the demo corpus version built into an index (or `cleared`). */
export const DEMO_META_KEY = 'demo_corpus';

/** Number of documents in the index. */
export function countDocuments(connection: IndexConnection): number {
  return connection.run(
    'read',
    () => (connection.statement('SELECT count(*) AS n FROM docs').get() as { n: number }).n,
  );
}

/** The value stored under `key` in the index's meta table. */
export function readMeta(connection: IndexConnection, key: string): string | undefined {
  return connection.run('read', () => {
    const row = connection.statement('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  });
}

/** Documents, size on disk, and documents per language and per origin tag. */
export function indexStats(connection: IndexConnection): LocalIndexStats {
  return connection.run('read', () => {
    const stats: LocalIndexStats = {
      path: connection.path,
      documents: countDocuments(connection),
      bytes: fileSize(connection.path) + fileSize(`${connection.path}-wal`),
      languages: countsBy(
        connection,
        "SELECT coalesce(language, 'unknown') AS key, count(*) AS n FROM docs GROUP BY 1 ORDER BY 2 DESC",
      ),
      sources: countsBy(connection, 'SELECT source AS key, count(*) AS n FROM docs GROUP BY 1 ORDER BY 2 DESC'),
    };
    const demo = readMeta(connection, DEMO_META_KEY);
    if (demo !== undefined) stats.demoCorpus = demo;
    return stats;
  });
}

/** The rows of a `key, n` grouping query as a record, in the query's order. */
function countsBy(connection: IndexConnection, sql: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of connection.statement(sql).all() as { key: string; n: number }[]) counts[row.key] = row.n;
  return counts;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
