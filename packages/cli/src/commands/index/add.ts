import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../lib/base-command.ts';

export default class IndexAdd extends BaseCommand {
  static override summary = 'Add files, folders and JSONL to the local index.';
  static override description =
    'Reads Markdown, HTML and text files (folders recursively) and JSONL lines of { url, title, body } into the index the local provider searches (OPENMATES_INDEX, default in your data directory). A document with the URL of an indexed one replaces it.';
  static override strict = false;
  static override args = { path: Args.string({ description: 'A file, folder or .jsonl file.', required: true }) };
  static override flags = { json: Flags.boolean({ description: 'Print the counts as JSON.' }) };
  static override examples = [
    { description: 'Index a folder of notes', command: '<%= config.bin %> index add ~/notes' },
    { description: 'Index a JSONL export', command: '<%= config.bin %> index add pages.jsonl --json' },
  ];

  override async run(): Promise<void> {
    const { argv, flags } = await this.parse(IndexAdd);
    const { indexAdd } = await import('../../index-commands/local-index.ts');
    process.exitCode = await indexAdd(argv as string[], flags.json, process);
  }
}
