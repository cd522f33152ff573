/** Brave's own limits and tuning, as its Web Search API documents and behaves; not rules of our API. */

/** Most words in `q`, the domain operators added to the query included. */
export const BRAVE_MAX_QUERY_WORDS = 50;
/** Most characters in `q`, the domain operators included. */
export const BRAVE_MAX_QUERY_LENGTH = 400;
/** Most results one call returns. */
export const BRAVE_MAX_COUNT_PER_CALL = 20;
/**
 * Most calls one query makes: its window is the pages `fetchCount` needs (at most two of 20), and
 * with a domain or time scope up to two more; paging stops once `count` results pass admission
 * (ADR 0100), and each page is a call of the budget.
 */
export const BRAVE_MAX_PAGES = 4;
export const BRAVE_MAX_SCOPE_PAGES = 2;
/** Brave's largest `offset` (on the web and news endpoints alike): it serves pages 0 to 9 of `count`. */
export const BRAVE_MAX_OFFSET = 9;
/** 429s are retried at most this many times, after waits of at most `BRAVE_MAX_RETRY_AFTER_MS`. */
export const BRAVE_MAX_RETRIES = 2;
export const BRAVE_MAX_RETRY_AFTER_MS = 5_000;
/**
 * Wait before retrying a 429 that carries neither `Retry-After` nor an exhausted `X-RateLimit-*`
 * window (Brave's per-second window resets within a second); every replica pauses as long.
 */
export const BRAVE_DEFAULT_RETRY_DELAY_MS = 1_000;
