import { parseArgs } from 'node:util';
import { REQUEST_FIELDS, type RequestFields } from '@openmates/contract';
import { processIO } from './lib/io.ts';
import { runSearch } from './search/run-search.ts';
import { type SearchFlagValues, searchFlagTable, switchGivenValue } from './search/search-flags.ts';

/** What the fast path parsed: the queries and the flag values, by flag name. */
export interface FastSearchArgs {
  positionals: string[];
  values: SearchFlagValues;
}

/**
 * `openmates search`'s arguments parsed with `node:util` from the same flag table as the oclif
 * command, or undefined for anything it does not understand (an unknown flag, a flag without its
 * value, `--no-` on anything but a boolean request field's switch), which oclif then explains.
 */
export function parseFastSearchArgs(
  argv: readonly string[],
  fields: RequestFields = REQUEST_FIELDS,
): FastSearchArgs | undefined {
  const table = searchFlagTable(fields);
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  const negatable = new Set<string>();
  for (const [name, spec] of Object.entries(table)) {
    options[name] = {
      type: spec.type,
      ...(spec.char === undefined ? {} : { short: spec.char }),
      ...(spec.multiple ? { multiple: true } : {}),
    };
    if (spec.allowNo) negatable.add(`--no-${name}`);
  }
  // parseArgs would negate any boolean (`--no-json`); oclif accepts `--no-` only where it is declared.
  if (argv.some((arg) => arg.startsWith('--no-') && !negatable.has(arg))) return undefined;
  try {
    const { positionals, values } = parseArgs({
      args: [...argv],
      options,
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
    return { positionals, values: values as SearchFlagValues };
  } catch {
    return undefined;
  }
}

/**
 * The fast path of `openmates search`, used by `bin/run.js` so a search never loads oclif (a large
 * part of a cold start: docs/benchmarks.md). Resolves to the exit code, or undefined when oclif should take over.
 */
export async function fastSearch(argv: string[]): Promise<number | undefined> {
  const parsed = parseFastSearchArgs(argv);
  // A switch written with a value is refused here, without loading oclif only to refuse it.
  if (!parsed) return switchGivenValue(argv) === undefined ? undefined : runSearch([], {}, processIO(), argv);
  return runSearch(parsed.positionals, parsed.values, processIO(), argv);
}
