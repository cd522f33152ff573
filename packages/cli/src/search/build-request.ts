import { REQUEST_FIELDS, type RequestFields, valueFromText } from '@openmates/contract';
import { flaggedFields, type SearchFlagValues } from './search-flags.ts';

/** A usage mistake the contract cannot judge (a flag combination, unreadable input). Exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * One request item's options from the flags; only flags that were given appear. A value flag's text
 * goes through the contract's `valueFromText`, so `--count abc` reaches the contract as typed and
 * gets its 400 (`requests[0].count`) rather than a CLI-specific complaint; a switch is a boolean and
 * a repeatable flag's values are the list, each entry as typed.
 */
function itemOptions(flags: SearchFlagValues, fields: RequestFields): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const field of flaggedFields(fields)) {
    const given = flags[field.flag.name];
    if (given === undefined) continue;
    options[field.name] = typeof given === 'string' && field.kind !== 'list' ? valueFromText(field, given) : given;
  }
  return options;
}

/**
 * The text of `--input`. node:fs/promises and node:stream/consumers are loaded here, only for
 * `--input`: loaded at start, they are Node modules more for every search (fs/promises brings readline).
 */
async function readInput(source: string, stdin: () => NodeJS.ReadableStream): Promise<string> {
  try {
    if (source === '-') return await process.getBuiltinModule('node:stream/consumers').text(stdin());
    return await process.getBuiltinModule('node:fs/promises').readFile(source, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read --input ${source === '-' ? 'from stdin' : source} (${reason})`);
  }
}

/**
 * The WebSearchRequest of an invocation: one item per query with the flags applied to each, or
 * the JSON read from `--input`. It is not validated here: the engine or the server does that.
 * `stdin` is asked for only when `--input -` reads it. `fields` is the field table the flags were
 * built from (the contract's unless a test passes a copy).
 */
export async function buildRequest(
  queries: readonly string[],
  flags: SearchFlagValues,
  stdin: () => NodeJS.ReadableStream,
  fields: RequestFields = REQUEST_FIELDS,
): Promise<unknown> {
  if (flags.input === undefined) {
    const options = itemOptions(flags, fields);
    return { requests: queries.map((query) => ({ query, ...options })) };
  }
  if (queries.length > 0) throw new UsageError('give queries as arguments or --input, not both');
  const given = flaggedFields(fields).find((field) => flags[field.flag.name] !== undefined);
  if (given)
    throw new UsageError(`--${given.flag.name} cannot be combined with --input: put the option in the request JSON`);
  const raw = await readInput(flags.input, stdin);
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new UsageError(`--input ${flags.input === '-' ? '(stdin)' : flags.input} is not valid JSON`);
  }
}
