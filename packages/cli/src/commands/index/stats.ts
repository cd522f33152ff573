import { Flags } from '@oclif/core';
import { BaseCommand } from '../../lib/base-command.ts';

export default class IndexStats extends BaseCommand {
  static override summary = 'Show the local index: where it is, how many documents, size, sources, languages.';
  static override flags = { json: Flags.boolean({ description: 'Print the statistics as JSON.' }) };
  static override examples = [
    { description: 'How big is the index?', command: '<%= config.bin %> index stats' },
    { description: 'The same as JSON', command: '<%= config.bin %> index stats --json' },
  ];

  override async run(): Promise<void> {
    const { flags } = await this.parse(IndexStats);
    const { indexStats } = await import('../../index-commands/local-index.ts');
    process.exitCode = await indexStats(flags.json, process);
  }
}
