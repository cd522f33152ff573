import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { buildMatchExpression, hasSeveralWords } from './fts-query.ts';
import { type LocalDocument, type StoredDocument, toStoredDocument } from './local-document.ts';
import { nameKey, nameKeys } from './name-key.ts';
import { identifierParts, words } from './split-identifiers.ts';

/**
 * The on-disk layout this code reads and writes; another value means another layout. Layouts 1 (no
 * name keys) and 2 (no host column) are upgraded in place when opened.
 */
export const INDEX_SCHEMA_VERSION = '3';
/** Documents written per transaction by `addDocuments` (default). */
export const DEFAULT_BATCH_SIZE = 5_000;
/**
 * BM25 column weights: title, body, and the split identifier parts of each. Titles weigh ten times
 * the body; identifier parts weigh half their column, so an exact word beats a camelCase part.
 */
export const BM25_WEIGHTS = [10.0, 1.0, 5.0, 0.5] as const;
/** Tokens in a snippet (FTS5 allows at most 64). */
const SNIPPET_TOKENS = 32;
/**
 * Most documents read for one name key; they are ordered (see `orderNamed`) before the search's own
 * limit applies. Names are shared by a handful of pages (`<a>` in HTML, SVG and MathML), never more.
 */
const MAX_NAMED = 20;
/** Characters of a body read to make a named document's snippet (its first SNIPPET_TOKENS words). */
const NAMED_BODY_CHARS = 600;
/** FTS5's default automerge level, restored after a bulk load. */
const FTS5_AUTOMERGE = 4;
/** Pages of segment merging done once at the end of a bulk load (FTS5's `merge` command). */
const MERGE_PAGES_AFTER_BULK = 500;
/** How long a writer waits for another writer (a CLI next to a server) before giving up. */
const BUSY_TIMEOUT_MS = 5_000;

/** The index cannot be opened, read or written; `message` is one line and safe to show. */
export class LocalIndexError extends Error {
  override readonly name = 'LocalIndexError';
}

/** Progress of `addDocuments`, reported after each committed batch. */
export interface AddProgress {
  /** Documents stored so far (new and replaced). */
  added: number;
  /** Of `added`, how many replaced a document with the same URL. */
  replaced: number;
  /** Documents refused so far (see `AddResult.rejected`). */
  rejected: number;
}

export interface AddResult extends AddProgress {
  /** Refused documents: their position in the input (0-based) and why. */
  rejections: { index: number; reason: string }[];
}

export interface AddOptions {
  /** Documents per transaction (default 5,000). */
  batchSize?: number;
  /** Tags the documents' origin; the demo corpus uses `demo` so a rebuild replaces only its own. */
  source?: string;
}

/** One search hit, raw: the provider turns it into a candidate and the engine sanitizes it. */
export interface LocalHit {
  url: string;
  title: string;
  /** The stored description, else a plain-text snippet of the body around the match. */
  description: string;
  language?: string;
  /** `YYYY-MM-DD`. */
  published?: string;
  family_friendly?: boolean;
}

export interface LocalSearchOptions {
  /** Most hits returned. */
  limit: number;
  /** Only documents in this language (lowercase ISO 639-1); documents without one are excluded. */
  language?: string;
  /** Only documents marked family friendly (`safesearch=strict`). */
  familyFriendlyOnly?: boolean;
  /** Only documents whose host is one of these domains or a subdomain of one (lowercase ASCII). */
  includeDomains?: readonly string[];
  /** No document whose host is one of these domains or a subdomain of one (lowercase ASCII). */
  excludeDomains?: readonly string[];
  /**
   * Only documents published in `[start, end)`, in ms since the epoch (a date is its first instant
   * in UTC); a document without a published date never matches.
   */
  published?: { start: number; end: number };
}

export interface LocalIndexStats {
  path: string;
  documents: number;
  /** Size of the database file and its write-ahead log, in bytes. */
  bytes: number;
  /** Documents per stored language; documents without one count under `unknown`. */
  languages: Record<string, number>;
  /** Documents per origin tag (`demo` for the demo corpus, `user` for the rest). */
  sources: Record<string, number>;
  /** The demo corpus version built into this index, or `cleared` after `clear()`. */
  demoCorpus?: string;
}

/** An open local index. Synchronous: `node:sqlite` answers in microseconds to milliseconds. */
export interface LocalIndex {
  readonly path: string;
  /** Adds or replaces (by URL) documents, one transaction per batch. Invalid documents are listed, not thrown. */
  addDocuments(
    docs: Iterable<LocalDocument>,
    onProgress?: (progress: AddProgress) => void,
    options?: AddOptions,
  ): AddResult;
  /** BM25 search, every word required, falling back to any word when that finds nothing. */
  search(query: string, options: LocalSearchOptions): LocalHit[];
  /** Number of documents. */
  count(): number;
  stats(): LocalIndexStats;
  /** Removes every document and marks the index so the demo corpus is not rebuilt into it. */
  clear(): void;
  /** Removes the documents tagged with `source`; returns how many. */
  removeSource(source: string): number;
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  /**
   * Runs `work` holding SQLite's write lock (`BEGIN IMMEDIATE`), waiting up to `waitMs` for another
   * process's writer. `addDocuments` inside it joins the transaction. The lock dies with its process.
   */
  exclusive<T>(work: () => T, waitMs?: number): T;
  close(): void;
}

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

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? 'unknown error';
}

/**
 * Opens (creating when missing, with its folder) the index at `path` in WAL mode. Throws
 * LocalIndexError when the file is not an index this code can read.
 */
export function openIndex(path: string): LocalIndex {
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
    if (hasMeta === undefined) {
      db.exec('BEGIN IMMEDIATE');
      try {
        db.exec(SCHEMA);
        db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('schema', INDEX_SCHEMA_VERSION);
        const weights = BM25_WEIGHTS.map((weight) => weight.toFixed(1)).join(', ');
        // The rank function is configured once, so queries can `ORDER BY rank`: FTS5 then sorts itself
        // and later columns (the snippet) are computed only for the rows actually returned.
        db.prepare('INSERT INTO docs_fts (docs_fts, rank) VALUES (?, ?)').run('rank', `bm25(${weights})`);
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    }
    let schema = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as { value: string } | undefined;
    if (schema?.value === '1') {
      addNameKeys(db);
      schema = { value: '2' };
    }
    if (schema?.value === '2') {
      addHosts(db);
      schema = { value: INDEX_SCHEMA_VERSION };
    }
    if (schema?.value !== INDEX_SCHEMA_VERSION)
      throw new Error(`index layout ${schema?.value ?? 'unknown'} is not ${INDEX_SCHEMA_VERSION}; clear or remove it`);
  } catch (error) {
    db.close();
    throw new LocalIndexError(`cannot open the local index at ${path}: ${reason(error)}`, { cause: error });
  }
  return new SqliteLocalIndex(path, db);
}

/**
 * Upgrades layout 1 to 2: each document's name key (see `nameKey`), computed from its stored title,
 * in one transaction, so an index from an earlier version keeps its documents.
 */
function addNameKeys(db: DatabaseSync): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    // Another process may have upgraded it while this one waited for the lock.
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as { value: string } | undefined;
    if (row?.value === '1') {
      db.exec('ALTER TABLE docs ADD COLUMN name_key TEXT');
      const update = db.prepare('UPDATE docs SET name_key = ? WHERE id = ?');
      for (const doc of db.prepare('SELECT rowid AS id, title FROM docs_fts').iterate() as Iterable<{
        id: number;
        title: string;
      }>)
        update.run(nameKey(doc.title), doc.id);
      db.exec('CREATE INDEX docs_name_key ON docs (name_key)');
      db.prepare("UPDATE meta SET value = '2' WHERE key = 'schema'").run();
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Upgrades layout 2 to 3: each document's host (see `hostOf`), computed from its stored URL, in
 * one transaction, so the domain scope of a search can be applied to an index from an earlier version.
 */
function addHosts(db: DatabaseSync): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    // Another process may have upgraded it while this one waited for the lock.
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as { value: string } | undefined;
    if (row?.value === '2') {
      db.exec('ALTER TABLE docs ADD COLUMN host TEXT');
      const update = db.prepare('UPDATE docs SET host = ? WHERE id = ?');
      for (const doc of db.prepare('SELECT id, url FROM docs').iterate() as Iterable<{ id: number; url: string }>)
        update.run(hostOf(doc.url), doc.id);
      db.exec('CREATE INDEX docs_host ON docs (host)');
      db.prepare("UPDATE meta SET value = ? WHERE key = 'schema'").run(INDEX_SCHEMA_VERSION);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** A stored URL's host as the domain scope compares it: lowercase ASCII, no trailing dot; null when it has none. */
export function hostOf(url: string): string | null {
  const host = URL.parse(url)?.hostname.toLowerCase().replace(/\.$/, '') ?? '';
  return host === '' ? null : host;
}

/**
 * The SQL conditions (each starting with ` AND `) and their values for the scope options of a
 * search: a host in (or not in) the domains, a published date in the range. Domains hold only
 * letters, digits, `-` and `.`, so none is a LIKE wildcard.
 */
function scopeConditions(options: LocalSearchOptions): { sql: string; values: SQLInputValue[] } {
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

interface HitRow {
  url: string;
  title: string;
  description: string | null;
  snippet: string | null;
  language: string | null;
  published: string | null;
  family_friendly: number | null;
}

class SqliteLocalIndex implements LocalIndex {
  readonly path: string;
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(path: string, db: DatabaseSync) {
    this.path = path;
    this.#db = db;
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #run<T>(what: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      // Only SQLite's own failures mean the index is unusable; anything else (a caller's iterator or
      // progress callback) propagates as it is.
      if (!isSqliteError(error)) throw error;
      throw new LocalIndexError(`cannot ${what} the local index at ${this.path}: ${reason(error)}`, { cause: error });
    }
  }

  #store(doc: StoredDocument, source: string): boolean {
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
    const inserted = this.#statement(
      `INSERT INTO docs (url, description, language, published, family_friendly, source, name_key, host)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (url) DO NOTHING`,
    ).run(doc.url, ...values);
    const isNew = Number(inserted.changes) === 1;
    let id: number;
    if (isNew) id = Number(inserted.lastInsertRowid);
    else {
      id = (this.#statement('SELECT id FROM docs WHERE url = ?').get(doc.url) as { id: number }).id;
      this.#statement('DELETE FROM docs_fts WHERE rowid = ?').run(id);
      this.#statement(
        'UPDATE docs SET description = ?, language = ?, published = ?, family_friendly = ?, source = ?, name_key = ?, host = ? WHERE id = ?',
      ).run(...values, id);
    }
    this.#statement('INSERT INTO docs_fts (rowid, title, body, title_parts, body_parts) VALUES (?, ?, ?, ?, ?)').run(
      id,
      doc.title,
      doc.body,
      identifierParts(doc.title),
      identifierParts(doc.body),
    );
    return !isNew;
  }

  addDocuments(
    docs: Iterable<LocalDocument>,
    onProgress?: (progress: AddProgress) => void,
    options: AddOptions = {},
  ): AddResult {
    const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
    const source = options.source ?? 'user';
    const result: AddResult = { added: 0, replaced: 0, rejected: 0, rejections: [] };
    // Inside `exclusive` the caller's transaction holds the lock: join it instead of nesting.
    const ownTransactions = !this.#db.isTransaction;
    return this.#run('write to', () => {
      // A bulk load checkpoints the write-ahead log once at the end instead of every 1,000 pages:
      // copying pages back while FTS5 merges segments roughly halves the ingest rate.
      if (ownTransactions) this.#db.exec('PRAGMA wal_autocheckpoint = 0');
      const bulk = { paused: false };
      try {
        return this.#addAll(docs, onProgress, batchSize, source, ownTransactions, result, bulk);
      } finally {
        if (bulk.paused) this.#resumeAutomerge();
        if (ownTransactions) this.#db.exec('PRAGMA wal_autocheckpoint = 1000; PRAGMA wal_checkpoint(TRUNCATE);');
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
  #pauseAutomerge(bulk: { paused: boolean }): void {
    this.#db.exec("INSERT INTO docs_fts (docs_fts, rank) VALUES ('automerge', 0)");
    bulk.paused = true;
  }

  #resumeAutomerge(): void {
    this.#db.exec(`INSERT INTO docs_fts (docs_fts, rank) VALUES ('automerge', ${FTS5_AUTOMERGE})`);
    this.#db.exec(`INSERT INTO docs_fts (docs_fts, rank) VALUES ('merge', ${MERGE_PAGES_AFTER_BULK})`);
  }

  #addAll(
    docs: Iterable<LocalDocument>,
    onProgress: ((progress: AddProgress) => void) | undefined,
    batchSize: number,
    source: string,
    ownTransactions: boolean,
    result: AddResult,
    bulk: { paused: boolean },
  ): AddResult {
    {
      let inBatch = 0;
      let position = 0;
      const flush = (more: boolean) => {
        if (ownTransactions && this.#db.isTransaction) {
          this.#db.exec('COMMIT');
          // Only a load of more than one batch pauses merging: a single file or a few documents
          // are merged as usual.
          if (more && !bulk.paused) this.#pauseAutomerge(bulk);
        }
        inBatch = 0;
        onProgress?.({ added: result.added, replaced: result.replaced, rejected: result.rejected });
      };
      try {
        for (const doc of docs) {
          const stored = toStoredDocument(doc);
          if (typeof stored === 'string') {
            result.rejected += 1;
            result.rejections.push({ index: position, reason: stored });
          } else {
            if (ownTransactions && !this.#db.isTransaction) this.#db.exec('BEGIN IMMEDIATE');
            if (this.#store(stored, source)) result.replaced += 1;
            result.added += 1;
            inBatch += 1;
            if (inBatch >= batchSize) flush(true);
          }
          position += 1;
        }
        flush(false);
      } catch (error) {
        if (ownTransactions && this.#db.isTransaction) this.#db.exec('ROLLBACK');
        throw error;
      }
      return result;
    }
  }

  search(query: string, options: LocalSearchOptions): LocalHit[] {
    const limit = Math.max(0, Math.floor(options.limit));
    if (limit === 0) return [];
    const all = buildMatchExpression(query, 'all');
    if (all === undefined) return [];
    return this.#run('read', () => {
      const named = this.#named(query, options);
      // BM25 ranks the rest; asking for as many more as can be named keeps `limit` after removing them.
      const wanted = limit + Math.min(named.length, limit);
      let ranked = this.#query(all, wanted, options);
      if (ranked.length === 0 && hasSeveralWords(query))
        ranked = this.#query(buildMatchExpression(query, 'any') ?? all, wanted, options);
      if (named.length === 0) return ranked;
      return [
        ...orderNamed(query, named, ranked),
        ...ranked.filter((hit) => !named.some((n) => n.url === hit.url)),
      ].slice(0, limit);
    });
  }

  /**
   * The documents whose name key is the query's (`div element` finds `<div> HTML element`), at most
   * MAX_NAMED, in the order they were added: one probe
   * of the name-key index and a rowid lookup per document found, with no full-text work, so a query
   * that names nothing costs one index probe. Without a stored description, the beginning of the
   * body stands in for the snippet: the page is about the name.
   */
  #named(query: string, options: LocalSearchOptions): LocalHit[] {
    const keys = nameKeys(query);
    const key = keys[0];
    if (key === undefined) return [];
    const scope = scopeConditions(options);
    // CROSS JOIN keeps the name-key probe as the outer loop; FTS5 is only read by rowid.
    const rows = this.#statement(
      `SELECT d.url, f.title, d.description, d.language, d.published, d.family_friendly,
         CASE WHEN d.description IS NULL THEN substr(f.body, 1, ${NAMED_BODY_CHARS}) END AS snippet
       FROM docs d CROSS JOIN docs_fts f ON f.rowid = d.id
       WHERE d.name_key IN (?, ?) AND (? IS NULL OR d.language = ?) AND (? = 0 OR d.family_friendly = 1)${scope.sql}
       ORDER BY d.id LIMIT ?`,
    ).all(
      key,
      keys[1] ?? key,
      options.language ?? null,
      options.language ?? null,
      options.familyFriendlyOnly === true ? 1 : 0,
      ...scope.values,
      MAX_NAMED,
    ) as unknown as HitRow[];
    return rows.map((row) => toHit({ ...row, snippet: row.snippet === null ? null : leadingWords(row.snippet) }));
  }

  #query(match: string, limit: number, options: LocalSearchOptions): LocalHit[] {
    const scope = scopeConditions(options);
    const rows = this.#statement(
      `SELECT d.url, f.title, d.description, d.language, d.published, d.family_friendly,
         CASE WHEN d.description IS NULL THEN snippet(docs_fts, 1, '', '', '…', ${SNIPPET_TOKENS}) END AS snippet
       FROM docs_fts f JOIN docs d ON d.id = f.rowid
       WHERE docs_fts MATCH ? AND (? IS NULL OR d.language = ?) AND (? = 0 OR d.family_friendly = 1)${scope.sql}
       ORDER BY f.rank LIMIT ?`,
    ).all(
      match,
      options.language ?? null,
      options.language ?? null,
      options.familyFriendlyOnly === true ? 1 : 0,
      ...scope.values,
      limit,
    ) as unknown as HitRow[];
    return rows.map(toHit);
  }

  count(): number {
    return this.#run('read', () => (this.#statement('SELECT count(*) AS n FROM docs').get() as { n: number }).n);
  }

  stats(): LocalIndexStats {
    return this.#run('read', () => {
      const languages: Record<string, number> = {};
      for (const row of this.#statement(
        "SELECT coalesce(language, 'unknown') AS language, count(*) AS n FROM docs GROUP BY 1 ORDER BY 2 DESC",
      ).all() as { language: string; n: number }[])
        languages[row.language] = row.n;
      const sources: Record<string, number> = {};
      for (const row of this.#statement('SELECT source, count(*) AS n FROM docs GROUP BY 1 ORDER BY 2 DESC').all() as {
        source: string;
        n: number;
      }[])
        sources[row.source] = row.n;
      const stats: LocalIndexStats = {
        path: this.path,
        documents: this.count(),
        bytes: fileSize(this.path) + fileSize(`${this.path}-wal`),
        languages,
        sources,
      };
      const demo = this.getMeta('demo_corpus');
      if (demo !== undefined) stats.demoCorpus = demo;
      return stats;
    });
  }

  clear(): void {
    this.#run('clear', () => {
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        this.#db.exec('DELETE FROM docs; DELETE FROM docs_fts;');
        this.setMeta('demo_corpus', 'cleared');
        this.#db.exec('COMMIT');
      } catch (error) {
        this.#db.exec('ROLLBACK');
        throw error;
      }
      this.#db.exec('VACUUM');
    });
  }

  removeSource(source: string): number {
    return this.#run('write to', () => {
      this.#statement('DELETE FROM docs_fts WHERE rowid IN (SELECT id FROM docs WHERE source = ?)').run(source);
      return Number(this.#statement('DELETE FROM docs WHERE source = ?').run(source).changes);
    });
  }

  getMeta(key: string): string | undefined {
    return this.#run('read', () => {
      const row = this.#statement('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
      return row?.value;
    });
  }

  setMeta(key: string, value: string): void {
    this.#run('write to', () => {
      this.#statement(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ).run(key, value);
    });
  }

  exclusive<T>(work: () => T, waitMs = BUSY_TIMEOUT_MS): T {
    return this.#run('lock', () => {
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

/**
 * Orders the documents found by name: the title missing fewest of the query's words first
 * (`color value type`: `<color> CSS value type` before `color SVG attribute`), then one that holds
 * the query as typed (`<color>` names the type, not the `color` attribute), then the one with fewest
 * other words (`<div> HTML element` before `<div> (web platform feature)`), then BM25's order
 * (`ranked`), then the order they were added in.
 */
function orderNamed(query: string, named: LocalHit[], ranked: LocalHit[]): LocalHit[] {
  if (named.length < 2) return named;
  const asked = new Set(words(query.toLowerCase()));
  const literal = query.trim().toLowerCase();
  const bm25 = (hit: LocalHit) => {
    const at = ranked.findIndex((other) => other.url === hit.url);
    return at < 0 ? ranked.length : at;
  };
  const distance = (hit: LocalHit) => {
    const own = new Set(words(hit.title.toLowerCase()));
    let missing = 0;
    for (const word of asked) if (!own.has(word)) missing += 1;
    let extra = 0;
    for (const word of own) if (!asked.has(word)) extra += 1;
    // Missing words weigh most, then the literal, then extra words, then BM25's place.
    return missing * 1_000_000 + (hit.title.toLowerCase().includes(literal) ? 0 : 100_000) + extra * 1_000 + bm25(hit);
  };
  return named
    .map((hit, position) => ({ hit, position, distance: distance(hit) }))
    .sort((a, b) => a.distance - b.distance || a.position - b.position)
    .map(({ hit }) => hit);
}

/** The first SNIPPET_TOKENS words of `text`, with `…` when it goes on. */
function leadingWords(text: string): string {
  const tokens = text.trim().split(/\s+/);
  return tokens.length > SNIPPET_TOKENS ? `${tokens.slice(0, SNIPPET_TOKENS).join(' ')}…` : tokens.join(' ');
}

function toHit(row: HitRow): LocalHit {
  const hit: LocalHit = { url: row.url, title: row.title, description: row.description ?? row.snippet ?? '' };
  if (row.language !== null) hit.language = row.language;
  if (row.published !== null) hit.published = row.published;
  if (row.family_friendly !== null) hit.family_friendly = row.family_friendly === 1;
  return hit;
}

function isSqliteError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_SQLITE');
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
