import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../lib/base-command.ts';

export default class IndexAdd extends BaseCommand {
  static override summary = 'Add files, folders and JSONL, or the demo corpus, to the local index.';
  static override description =
    'Reads Markdown, HTML and text files (folders recursively) and JSONL lines of { url, title, body } into the index the local provider searches (OPENMATES_INDEX, default in your data directory). Every document needs an absolute http(s) URL: its own (JSONL `url`, Markdown front matter `url:`, HTML canonical link) or one derived from --base-url and its path below the folder given. Files without one are skipped and listed. A document with the URL of an indexed one replaces it. --demo builds the demo corpus (MDN and web-features pages, offline) into the index whatever it holds, beside your documents. Exit 0 when any document was added (problems go to stderr), 2 when nothing could be added.';
  static override strict = false;
  static override args = {
    path: Args.string({ description: 'A file, folder or .jsonl file (none with --demo).', required: false }),
  };
  static override flags = {
    json: Flags.boolean({ description: 'Print the counts as JSON.' }),
    demo: Flags.boolean({
      description: 'Build the demo corpus (MDN and web-features pages) into the index, beside what it holds.',
    }),
    'base-url': Flags.string({
      description:
        'Where the files are published (absolute http(s) URL): a file without a URL of its own gets BASE + its path relative to the folder given (a file given alone: its name).',
      helpValue: 'https://…/',
    }),
  };
  static override examples = [
    { description: 'Index a folder of notes', command: '<%= config.bin %> index add ~/notes' },
    {
      description: 'Index a folder published at https://notes.example/',
      command: '<%= config.bin %> index add ~/notes --base-url https://notes.example/',
    },
    { description: 'Index a JSONL export', command: '<%= config.bin %> index add pages.jsonl --json' },
    {
      description: 'Add the demo corpus to an index of your own (OPENMATES_INDEX)',
      command: '<%= config.bin %> index add --demo',
    },
  ];

  override async run(): Promise<void> {
    const { argv, flags } = await this.parse(IndexAdd);
    const { indexAdd } = await import('../../index-commands/local-index.ts');
    process.exitCode = await indexAdd(
      argv as string[],
      { json: flags.json, baseUrl: flags['base-url'], demo: flags.demo },
      process,
    );
  }
}
