import { BaseCommand } from '../../lib/base-command.ts';

export default class IndexClear extends BaseCommand {
  static override summary = 'Remove every document from the local index.';
  static override examples = [{ description: 'Start from an empty index', command: '<%= config.bin %> index clear' }];

  override async run(): Promise<void> {
    await this.parse(IndexClear);
    const { indexClear } = await import('../../index-commands/local-index.ts');
    process.exitCode = await indexClear(process);
  }
}
