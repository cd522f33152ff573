import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { LocalIndexError } from './index-types.ts';

/** How long a writer waits for another writer (a CLI next to a server) before giving up. */
export const BUSY_TIMEOUT_MS = 5_000;

/** The first line of an error's message, for a LocalIndexError that stays one line. */
export function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? 'unknown error';
}

function isSqliteError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_SQLITE');
}

/** Runs `work` in a `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back when it throws. */
export function immediateTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** An open index database with its prepared statements, shared by the ingest, search and stats steps. */
export class IndexConnection {
  readonly path: string;
  readonly db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(path: string, db: DatabaseSync) {
    this.path = path;
    this.db = db;
  }

  /** The statement for `sql`, prepared once per connection. */
  statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs `work`, turning SQLite's own failures into a LocalIndexError saying what could not be done (`what`). */
  run<T>(what: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      // Only SQLite's own failures mean the index is unusable; anything else (a caller's iterator or
      // progress callback) propagates as it is.
      if (!isSqliteError(error)) throw error;
      throw new LocalIndexError(`cannot ${what} the local index at ${this.path}: ${reason(error)}`, { cause: error });
    }
  }
}
