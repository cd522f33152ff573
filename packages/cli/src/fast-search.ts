import { parseArgs } from 'node:util';
import { processIO } from './lib/io.ts';
import { runSearch } from './search/run-search.ts';
import { SEARCH_FLAGS, type SearchFlagValues } from './search/search-flags.ts';

/**
 * The fast path of `openmates search`, used by `bin/run.js` so a search never loads oclif (about
 * 70 ms of a cold start). It parses the same flag table with `node:util`; anything it does not
 * understand (an unknown flag, `--help`) resolves to undefined and oclif takes over, so users see
 * oclif's messages for mistakes.
 */
export async function fastSearch(argv: string[]): Promise<number | undefined> {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, spec] of Object.entries(SEARCH_FLAGS))
    options[name] = 'char' in spec ? { type: spec.type, short: spec.char } : { type: spec.type };
  let parsed: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true; allowNegative: true }>>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, allowNegative: true, strict: true });
  } catch {
    return undefined;
  }
  // Only `--no-filter-tabloids` may be negated; oclif explains any other `--no-…`.
  const negated = argv.filter((a) => a.startsWith('--no-') && a !== '--no-filter-tabloids');
  if (negated.length > 0) return undefined;
  return runSearch(parsed.positionals, parsed.values as SearchFlagValues, processIO());
}
