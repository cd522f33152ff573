import type { LocalDocument } from './local-document.ts';

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
  /** With `LocalSearchOptions.excerpts`: passages of the indexed text holding the query's words, best first. */
  excerpts?: string[];
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
  /** Cut up to three excerpts from each hit's indexed text around the query's words (see `excerptsOf`). */
  excerpts?: boolean;
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
