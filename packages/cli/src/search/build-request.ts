import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import type { SearchFlagValues } from './search-flags.ts';

/** A usage mistake the contract cannot judge (a flag combination, unreadable input). Exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const REQUEST_FLAGS = ['count', 'country', 'lang', 'safesearch', 'filter-tabloids'] as const;

/**
 * `--count` stays a string unless it is a plain whole number, so `--count abc` reaches the
 * contract and gets its 400 (`requests[0].count`) rather than a CLI-specific complaint.
 */
function countValue(raw: string): number | string {
  return /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : raw;
}

/** One request item's options from the flags; only flags that were given appear. */
function itemOptions(flags: SearchFlagValues): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (flags.count !== undefined) options.count = countValue(flags.count);
  if (flags.country !== undefined) options.country = flags.country;
  if (flags.lang !== undefined) options.search_lang = flags.lang;
  if (flags.safesearch !== undefined) options.safesearch = flags.safesearch;
  if (flags['filter-tabloids'] !== undefined) options.filter_tabloids = flags['filter-tabloids'];
  return options;
}

async function readInput(source: string, stdin: () => NodeJS.ReadableStream): Promise<string> {
  try {
    return source === '-' ? await text(stdin()) : await readFile(source, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read --input ${source === '-' ? 'from stdin' : source} (${reason})`);
  }
}

/**
 * The WebSearchRequest of an invocation: one item per query with the flags applied to each, or
 * the JSON read from `--input`. It is not validated here: the engine or the server does that.
 * `stdin` is asked for only when `--input -` reads it.
 */
export async function buildRequest(
  queries: readonly string[],
  flags: SearchFlagValues,
  stdin: () => NodeJS.ReadableStream,
): Promise<unknown> {
  if (flags.input === undefined) {
    const options = itemOptions(flags);
    return { requests: queries.map((query) => ({ query, ...options })) };
  }
  if (queries.length > 0) throw new UsageError('give queries as arguments or --input, not both');
  const given = REQUEST_FLAGS.filter((name) => flags[name] !== undefined);
  if (given.length > 0)
    throw new UsageError(`--${given[0]} cannot be combined with --input: put the option in the request JSON`);
  const raw = await readInput(flags.input, stdin);
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new UsageError(`--input ${flags.input === '-' ? '(stdin)' : flags.input} is not valid JSON`);
  }
}
