// The local index: documents in SQLite with an FTS5 table, searched with BM25. This module opens an
// index and is its public face; the work is in the modules named for each step: index-schema
// (layout, upgrades), index-ingest (writing documents), index-search (queries), index-stats.
import type { DatabaseSync } from 'node:sqlite';
import { BUSY_TIMEOUT_MS, IndexConnection, immediateTransaction } from './index-connection.ts';
import { addDocuments } from './index-ingest.ts';
import { openDatabase } from './index-schema.ts';
import { searchIndex } from './index-search.ts';
import { countDocuments, DEMO_META_KEY, indexStats, readMeta } from './index-stats.ts';
import type {
  AddOptions,
  AddProgress,
  AddResult,
  LocalHit,
  LocalIndex,
  LocalIndexStats,
  LocalSearchOptions,
} from './index-types.ts';
import type { LocalDocument } from './local-document.ts';

export { DEFAULT_BATCH_SIZE } from './index-ingest.ts';
export { BM25_WEIGHTS, hostOf, INDEX_SCHEMA_VERSION } from './index-schema.ts';
export {
  type AddOptions,
  type AddProgress,
  type AddResult,
  type LocalHit,
  type LocalIndex,
  LocalIndexError,
  type LocalIndexStats,
  type LocalSearchOptions,
} from './index-types.ts';

/**
 * Opens (creating when missing, with its folder) the index at `path` in WAL mode. Throws
 * LocalIndexError when the file is not an index this code can read.
 */
export function openIndex(path: string): LocalIndex {
  return new SqliteLocalIndex(path, openDatabase(path));
}

class SqliteLocalIndex implements LocalIndex {
  readonly path: string;
  readonly #db: DatabaseSync;
  readonly #connection: IndexConnection;

  constructor(path: string, db: DatabaseSync) {
    this.path = path;
    this.#db = db;
    this.#connection = new IndexConnection(path, db);
  }

  addDocuments(
    docs: Iterable<LocalDocument>,
    onProgress?: (progress: AddProgress) => void,
    options: AddOptions = {},
  ): AddResult {
    return addDocuments(this.#connection, docs, onProgress, options);
  }

  search(query: string, options: LocalSearchOptions): LocalHit[] {
    return searchIndex(this.#connection, query, options);
  }

  count(): number {
    return countDocuments(this.#connection);
  }

  stats(): LocalIndexStats {
    return indexStats(this.#connection);
  }

  clear(): void {
    this.#connection.run('clear', () => {
      immediateTransaction(this.#db, () => {
        this.#db.exec('DELETE FROM docs; DELETE FROM docs_fts;');
        this.setMeta(DEMO_META_KEY, 'cleared');
      });
      this.#db.exec('VACUUM');
    });
  }

  removeSource(source: string): number {
    return this.#connection.run('write to', () => {
      const connection = this.#connection;
      connection.statement('DELETE FROM docs_fts WHERE rowid IN (SELECT id FROM docs WHERE source = ?)').run(source);
      return Number(connection.statement('DELETE FROM docs WHERE source = ?').run(source).changes);
    });
  }

  getMeta(key: string): string | undefined {
    return readMeta(this.#connection, key);
  }

  setMeta(key: string, value: string): void {
    this.#connection.run('write to', () => {
      this.#connection
        .statement('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
        .run(key, value);
    });
  }

  exclusive<T>(work: () => T, waitMs = BUSY_TIMEOUT_MS): T {
    return this.#connection.run('lock', () => {
      this.#db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(waitMs))}`);
      try {
        this.#db.exec('BEGIN IMMEDIATE');
      } finally {
        this.#db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
      try {
        const result = work();
        this.#db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
