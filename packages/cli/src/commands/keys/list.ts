import { Flags } from '@oclif/core';
import { BaseCommand } from '../../lib/base-command.ts';
import { processEnv } from '../../lib/cli-env.ts';

export default class KeysList extends BaseCommand {
  static override summary = 'List the keys file’s names and quotas (never a key).';
  static override flags = {
    file: Flags.string({ description: 'The keys file (default: OPENMATES_API_KEYS_FILE).', helpValue: 'PATH' }),
    json: Flags.boolean({ description: 'Print the entries as JSON, without their hashes.' }),
  };
  static override examples = [{ description: 'Who may search, and how much', command: '<%= config.bin %> keys list' }];

  override async run(): Promise<void> {
    const { flags } = await this.parse(KeysList);
    const path = flags.file ?? (processEnv().OPENMATES_API_KEYS_FILE?.trim() || undefined);
    if (!path) this.error('name the keys file: --file PATH or OPENMATES_API_KEYS_FILE', { exit: 2 });
    const [{ readKeysFile }, { keysTable }] = await Promise.all([
      import('@openmates/server'),
      import('../../keys/keys.ts'),
    ]);
    let entries: ReturnType<typeof readKeysFile>;
    try {
      entries = readKeysFile(path);
    } catch (error) {
      this.error((error as Error).message, { exit: 2 });
    }
    if (flags.json) {
      const shown = entries.map(({ key_sha256: _hash, ...rest }) => rest);
      process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    } else process.stdout.write(`${keysTable(entries)}\n`);
  }
}
