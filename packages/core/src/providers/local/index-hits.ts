import { excerptsOf } from './index-excerpts.ts';
import type { LocalHit, LocalSearchOptions } from './index-types.ts';

/** Tokens in a snippet (FTS5 allows at most 64). */
export const SNIPPET_TOKENS = 32;
/** Characters of a body read to make a snippet of its first SNIPPET_TOKENS words. */
export const LEADING_BODY_CHARS = 600;

/** One row of a search query: a document's stored fields and, when it has no description, a snippet of its body. */
export interface HitRow {
  url: string;
  title: string;
  description: string | null;
  snippet: string | null;
  language: string | null;
  published: string | null;
  family_friendly: number | null;
  /** The beginning of the body (EXCERPT_BODY_CHARS), when the search reads it. */
  body?: string | null;
}

/** The first SNIPPET_TOKENS words of `text`, with `…` when it goes on. */
export function leadingWords(text: string): string {
  const tokens = text.trim().split(/\s+/);
  return tokens.length > SNIPPET_TOKENS ? `${tokens.slice(0, SNIPPET_TOKENS).join(' ')}…` : tokens.join(' ');
}

/** A row as a hit: the stored description, else the snippet, else nothing; absent fields left out. */
export function toHit(row: HitRow): LocalHit {
  const hit: LocalHit = { url: row.url, title: row.title, description: row.description ?? row.snippet ?? '' };
  if (row.language !== null) hit.language = row.language;
  if (row.published !== null) hit.published = row.published;
  if (row.family_friendly !== null) hit.family_friendly = row.family_friendly === 1;
  return hit;
}

/** `row` as a hit, with its excerpts when the search asks for them (its body was then read). */
export function hitOf(row: HitRow, options: LocalSearchOptions, terms: readonly string[]): LocalHit {
  const hit = toHit(row);
  if (options.excerpts === true && typeof row.body === 'string') {
    const excerpts = excerptsOf(row.body, terms, hit.description);
    if (excerpts.length > 0) hit.excerpts = excerpts;
  }
  return hit;
}
