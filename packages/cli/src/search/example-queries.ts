/**
 * The queries `openmates search --help` and the CLI's README show: questions the offline demo
 * corpus answers, so each example works as printed on a fresh install with no provider key
 * (`help-examples.test.ts` holds each one's first results).
 */
export const EXAMPLE_QUERIES = {
  /** One query. */
  one: 'how do I center a div',
  /** Several queries at once. */
  several: ['copy text to clipboard', 'cancel a fetch request'],
  /** A query for a script (`--json`). */
  json: 'websocket reconnect',
  /** Queries streamed as JSON lines (`--jsonl`). */
  streamed: ['array remove duplicates', 'lazy load images'],
  /** A request read from stdin. */
  stdin: 'open a modal dialog',
  /** A query through a running server. */
  server: 'dialog element',
} as const;

/** Every example query, in the order the help shows them. */
export const ALL_EXAMPLE_QUERIES: readonly string[] = Object.values(EXAMPLE_QUERIES).flat();
