import type { SQLInputValue } from 'node:sqlite';
import type { IndexConnection } from './index-connection.ts';
import { hostOf } from './index-schema.ts';
import type { AddOptions, AddProgress, AddResult } from './index-types.ts';
import { type LocalDocument, type StoredDocument, toStoredDocument } from './local-document.ts';
import { nameKey } from './name-key.ts';
import { identifierParts } from './split-identifiers.ts';

/** Documents written per transaction by `addDocuments` (default). */
export const DEFAULT_BATCH_SIZE = 5_000;
/** FTS5's default automerge level, restored after a bulk load. */
const FTS5_AUTOMERGE = 4;
/** Pages of segment merging done once at the end of a bulk load (FTS5's `merge` command). */
const MERGE_PAGES_AFTER_BULK = 500;

/** One `addDocuments` call: where it writes, how it batches, and what it has done so far. */
interface Load {
  connection: IndexConnection;
  onProgress: ((progress: AddProgress) => void) | undefined;
  batchSize: number;
  source: string;
  /** False inside `exclusive`: the caller's transaction holds the lock, and the load joins it. */
  ownTransactions: boolean;
  result: AddResult;
  /** Whether FTS5's automerge is paused (see `pauseAutomerge`). */
  paused: boolean;
}

/** Adds or replaces (by URL) documents, one transaction per batch; see `LocalIndex.addDocuments`. */
export function addDocuments(
  connection: IndexConnection,
  docs: Iterable<LocalDocument>,
  onProgress?: (progress: AddProgress) => void,
  options: AddOptions = {},
): AddResult {
  const { db } = connection;
  const load: Load = {
    connection,
    onProgress,
    batchSize: Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE),
    source: options.source ?? 'user',
    // Inside `exclusive` the caller's transaction holds the lock: join it instead of nesting.
    ownTransactions: !db.isTransaction,
    result: { added: 0, replaced: 0, rejected: 0, rejections: [] },
    paused: false,
  };
  return connection.run('write to', () => {
    // A bulk load checkpoints the write-ahead log once at the end instead of every 1,000 pages:
    // copying pages back while FTS5 merges segments roughly halves the ingest rate.
    if (load.ownTransactions) db.exec('PRAGMA wal_autocheckpoint = 0');
    try {
      return addAll(load, docs);
    } finally {
      if (load.paused) resumeAutomerge(connection);
      if (load.ownTransactions) db.exec('PRAGMA wal_autocheckpoint = 1000; PRAGMA wal_checkpoint(TRUNCATE);');
    }
  });
}

/**
 * FTS5 merges index segments after every transaction (automerge, level 4), so a bulk load rewrites
 * the same postings again and again. Pausing it between batches and merging once at the end
 * (`MERGE_PAGES_AFTER_BULK` pages of work, bounded so a huge load does not end in a long stall)
 * measured 18.8–20.6k → 20.5–21.4k docs/s on `pnpm bench:index`, with the same query times. The
 * setting is stored in the index, so it is restored in a `finally`; a process killed mid-load
 * leaves it paused until the next load of more than one batch restores it.
 */
function pauseAutomerge(load: Load): void {
  load.connection.db.exec("INSERT INTO docs_fts (docs_fts, rank) VALUES ('automerge', 0)");
  load.paused = true;
}

function resumeAutomerge(connection: IndexConnection): void {
  connection.db.exec(`INSERT INTO docs_fts (docs_fts, rank) VALUES ('automerge', ${FTS5_AUTOMERGE})`);
  connection.db.exec(`INSERT INTO docs_fts (docs_fts, rank) VALUES ('merge', ${MERGE_PAGES_AFTER_BULK})`);
}

/** Commits the batch written so far (when the load owns its transactions) and reports progress. */
function flush(load: Load, more: boolean): void {
  const { db } = load.connection;
  if (load.ownTransactions && db.isTransaction) {
    db.exec('COMMIT');
    // Only a load of more than one batch pauses merging: a single file or a few documents
    // are merged as usual.
    if (more && !load.paused) pauseAutomerge(load);
  }
  const { added, replaced, rejected } = load.result;
  load.onProgress?.({ added, replaced, rejected });
}

function addAll(load: Load, docs: Iterable<LocalDocument>): AddResult {
  const { db } = load.connection;
  const { result } = load;
  let inBatch = 0;
  let position = 0;
  try {
    for (const doc of docs) {
      const stored = toStoredDocument(doc);
      if (typeof stored === 'string') {
        result.rejected += 1;
        result.rejections.push({ index: position, reason: stored });
      } else {
        if (load.ownTransactions && !db.isTransaction) db.exec('BEGIN IMMEDIATE');
        if (storeDocument(load.connection, stored, load.source)) result.replaced += 1;
        result.added += 1;
        inBatch += 1;
        if (inBatch >= load.batchSize) {
          flush(load, true);
          inBatch = 0;
        }
      }
      position += 1;
    }
    flush(load, false);
  } catch (error) {
    if (load.ownTransactions && db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
  return result;
}

/** Writes one document, replacing the one stored under its URL; true when it replaced one. */
function storeDocument(connection: IndexConnection, doc: StoredDocument, source: string): boolean {
  const values: SQLInputValue[] = [
    doc.description,
    doc.language,
    doc.published,
    doc.family_friendly,
    source,
    nameKey(doc.title),
    hostOf(doc.url),
  ];
  // Insert first: a new URL (the common case) then costs one index probe, not two. Not with
  // `RETURNING id`: under node:sqlite that statement halved the ingest rate (11k against 21k docs/s
  // on `pnpm bench:index`); `changes` and `lastInsertRowid` say the same.
  const inserted = connection
    .statement(
      `INSERT INTO docs (url, description, language, published, family_friendly, source, name_key, host)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (url) DO NOTHING`,
    )
    .run(doc.url, ...values);
  const isNew = Number(inserted.changes) === 1;
  let id: number;
  if (isNew) id = Number(inserted.lastInsertRowid);
  else {
    id = (connection.statement('SELECT id FROM docs WHERE url = ?').get(doc.url) as { id: number }).id;
    connection.statement('DELETE FROM docs_fts WHERE rowid = ?').run(id);
    connection
      .statement(
        'UPDATE docs SET description = ?, language = ?, published = ?, family_friendly = ?, source = ?, name_key = ?, host = ? WHERE id = ?',
      )
      .run(...values, id);
  }
  connection
    .statement('INSERT INTO docs_fts (rowid, title, body, title_parts, body_parts) VALUES (?, ?, ?, ?, ?)')
    .run(id, doc.title, doc.body, identifierParts(doc.title), identifierParts(doc.body));
  return !isNew;
}
