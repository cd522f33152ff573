import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../lib/base-command.ts';
import { SEARCH_EXAMPLES, SEARCH_FLAGS } from '../search/search-flags.ts';

const spec = SEARCH_FLAGS;
const text = (name: Exclude<keyof typeof spec, 'filter-tabloids' | 'json' | 'jsonl'>) => ({
  description: spec[name].description,
  helpValue: spec[name].helpValue,
});

/** The oclif flags of the shared table (a test checks that both list the same names). */
export const searchFlags = {
  count: Flags.string(text('count')),
  country: Flags.string(text('country')),
  lang: Flags.string(text('lang')),
  safesearch: Flags.string(text('safesearch')),
  'filter-tabloids': Flags.boolean({ description: spec['filter-tabloids'].description, allowNo: true }),
  input: Flags.string({ ...text('input'), char: spec.input.char }),
  json: Flags.boolean({ description: spec.json.description }),
  jsonl: Flags.boolean({ description: spec.jsonl.description }),
  'api-url': Flags.string(text('api-url')),
  'api-key': Flags.string(text('api-key')),
};

export default class Search extends BaseCommand {
  static override summary = 'Search the web: each argument is one query (1 to 5).';
  static override description =
    `Runs the queries with the configured provider in this process, or through an OpenMates server with --api-url. Quote multi-word queries. Every flag applies to every query.

Exit codes: 0 every query answered (zero hits included), 2 invalid request, 3 a query failed at the provider, 4 not configured or unauthorized, 5 rate limited, 1 could not reach the server or a bug.`;
  static override aliases = ['apps:web:search'];
  static override strict = false;
  static override args = {
    query: Args.string({ description: 'A query; give up to 5, one per argument.' }),
  };
  static override flags = searchFlags;
  static override examples = SEARCH_EXAMPLES;

  override async run(): Promise<void> {
    const { argv, flags } = await this.parse(Search);
    const [{ runSearch }, { processIO }] = await Promise.all([
      import('../search/run-search.ts'),
      import('../lib/io.ts'),
    ]);
    process.exitCode = await runSearch(argv as string[], flags, processIO());
  }
}
