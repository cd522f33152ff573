import { Args, Flags, type Interfaces } from '@oclif/core';
import { REQUEST_FIELDS, type RequestFields } from '@openmates/contract';
import { BaseCommand } from '../lib/base-command.ts';
import { type SearchFlagValues, searchExamples, searchFlagTable } from '../search/search-flags.ts';

/**
 * The oclif flags of `openmates search`, from the same table as the fast path: one per request field
 * with a flag in `fields` (the contract's table unless a test passes a copy), then the command flags.
 */
export function oclifSearchFlags(fields: RequestFields = REQUEST_FIELDS): Interfaces.FlagInput {
  const flags: Interfaces.FlagInput = {};
  for (const [name, spec] of Object.entries(searchFlagTable(fields))) {
    const common = {
      description: spec.description,
      ...(spec.char ? { char: spec.char as Interfaces.AlphabetLowercase } : {}),
    };
    if (spec.type === 'boolean') {
      flags[name] = Flags.boolean({ ...common, allowNo: spec.allowNo === true });
      continue;
    }
    const value = { ...common, ...(spec.helpValue === undefined ? {} : { helpValue: spec.helpValue }) };
    flags[name] = spec.multiple
      ? // One value per occurrence, as `node:util` parses it: a query after the flag stays a query.
        Flags.string({ ...value, multiple: true, multipleNonGreedy: true })
      : Flags.string(value);
  }
  return flags;
}

export const searchFlags = oclifSearchFlags();

/** The queries: every positional argument (the command is not strict, so there may be several). */
export const searchArgs = {
  query: Args.string({ description: 'A query; give up to 5, one per argument.' }),
};

export default class Search extends BaseCommand {
  static override summary = 'Search the web: each argument is one query (1 to 5).';
  static override description =
    `Runs the queries with the configured provider in this process, or through an OpenMates server with --api-url. Quote multi-word queries. Every flag applies to every query.

Exit codes: 0 every query answered (zero hits included), 2 invalid request, 3 a query failed at the provider, 4 not configured or unauthorized, 5 rate limited, 1 could not reach the server or a bug.`;
  static override aliases = ['apps:web:search'];
  static override strict = false;
  static override args = searchArgs;
  static override flags = searchFlags;
  static override examples = searchExamples();

  override async run(): Promise<void> {
    const { argv, flags } = await this.parse(Search);
    const [{ runSearch }, { processIO }] = await Promise.all([
      import('../search/run-search.ts'),
      import('../lib/io.ts'),
    ]);
    process.exitCode = await runSearch(argv as string[], flags as SearchFlagValues, processIO(), this.argv);
  }
}
