import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { BUSY_TIMEOUT_MS, immediateTransaction, reason } from './index-connection.ts';
import { LocalIndexError } from './index-types.ts';
import { nameKey } from './name-key.ts';

/**
 * The on-disk layout this code reads and writes; another value means another layout. Layouts 1 (no
 * name keys) and 2 (no host column) are upgraded in place when opened.
 */
export const INDEX_SCHEMA_VERSION = '3';
/**
 * BM25 column weights: title, body, and the split identifier parts of each. Titles weigh ten times
 * the body; identifier parts weigh half their column, so an exact word beats a camelCase part.
 */
export const BM25_WEIGHTS = [10.0, 1.0, 5.0, 0.5] as const;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS docs (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  description TEXT,
  language TEXT,
  published TEXT,
  family_friendly INTEGER,
  source TEXT NOT NULL DEFAULT 'user',
  name_key TEXT,
  host TEXT
);
CREATE INDEX IF NOT EXISTS docs_name_key ON docs (name_key);
CREATE INDEX IF NOT EXISTS docs_host ON docs (host);
CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts USING fts5(
  title, body, title_parts, body_parts,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
`;

/** A stored URL's host as the domain scope compares it: lowercase ASCII, no trailing dot; null when it has none. */
export function hostOf(url: string): string | null {
  const host = URL.parse(url)?.hostname.toLowerCase().replace(/\.$/, '') ?? '';
  return host === '' ? null : host;
}

/**
 * Opens (creating when missing, with its folder) the index database at `path` in WAL mode, its
 * layout created or upgraded to INDEX_SCHEMA_VERSION. Throws LocalIndexError when the file is not an
 * index this code can read.
 */
export function openDatabase(path: string): DatabaseSync {
  let db: DatabaseSync;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new LocalIndexError(`cannot open the local index at ${path}: ${reason(error)}`, { cause: error });
  }
  try {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY;');
    db.exec('PRAGMA cache_size = -32768;');
    const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
    if (hasMeta === undefined) createSchema(db);
    upgradeSchema(db);
  } catch (error) {
    db.close();
    throw new LocalIndexError(`cannot open the local index at ${path}: ${reason(error)}`, { cause: error });
  }
  return db;
}

/** Creates the tables of an empty database and configures FTS5's rank function. */
function createSchema(db: DatabaseSync): void {
  immediateTransaction(db, () => {
    db.exec(SCHEMA);
    db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('schema', INDEX_SCHEMA_VERSION);
    const weights = BM25_WEIGHTS.map((weight) => weight.toFixed(1)).join(', ');
    // The rank function is configured once, so queries can `ORDER BY rank`: FTS5 then sorts itself
    // and later columns (the snippet) are computed only for the rows actually returned.
    db.prepare('INSERT INTO docs_fts (docs_fts, rank) VALUES (?, ?)').run('rank', `bm25(${weights})`);
  });
}

function storedLayout(db: DatabaseSync): string | undefined {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as { value: string } | undefined;
  return row?.value;
}

/** Brings an earlier layout up to INDEX_SCHEMA_VERSION, one step at a time; throws on a layout it does not know. */
function upgradeSchema(db: DatabaseSync): void {
  let layout = storedLayout(db);
  if (layout === '1') {
    addNameKeys(db);
    layout = '2';
  }
  if (layout === '2') {
    addHosts(db);
    layout = INDEX_SCHEMA_VERSION;
  }
  if (layout !== INDEX_SCHEMA_VERSION)
    throw new Error(`index layout ${layout ?? 'unknown'} is not ${INDEX_SCHEMA_VERSION}; clear or remove it`);
}

/**
 * Upgrades layout 1 to 2: each document's name key (see `nameKey`), computed from its stored title,
 * in one transaction, so an index from an earlier version keeps its documents.
 */
function addNameKeys(db: DatabaseSync): void {
  immediateTransaction(db, () => {
    // Another process may have upgraded it while this one waited for the lock.
    if (storedLayout(db) !== '1') return;
    db.exec('ALTER TABLE docs ADD COLUMN name_key TEXT');
    const update = db.prepare('UPDATE docs SET name_key = ? WHERE id = ?');
    for (const doc of db.prepare('SELECT rowid AS id, title FROM docs_fts').iterate() as Iterable<{
      id: number;
      title: string;
    }>)
      update.run(nameKey(doc.title), doc.id);
    db.exec('CREATE INDEX docs_name_key ON docs (name_key)');
    db.prepare("UPDATE meta SET value = '2' WHERE key = 'schema'").run();
  });
}

/**
 * Upgrades layout 2 to 3: each document's host (see `hostOf`), computed from its stored URL, in
 * one transaction, so the domain scope of a search can be applied to an index from an earlier version.
 */
function addHosts(db: DatabaseSync): void {
  immediateTransaction(db, () => {
    // Another process may have upgraded it while this one waited for the lock.
    if (storedLayout(db) !== '2') return;
    db.exec('ALTER TABLE docs ADD COLUMN host TEXT');
    const update = db.prepare('UPDATE docs SET host = ? WHERE id = ?');
    for (const doc of db.prepare('SELECT id, url FROM docs').iterate() as Iterable<{ id: number; url: string }>)
      update.run(hostOf(doc.url), doc.id);
    db.exec('CREATE INDEX docs_host ON docs (host)');
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema'").run(INDEX_SCHEMA_VERSION);
  });
}
