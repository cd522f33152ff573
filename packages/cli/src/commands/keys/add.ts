import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../lib/base-command.ts';
import { processEnv } from '../../lib/cli-env.ts';

export default class KeysAdd extends BaseCommand {
  static override summary = 'Add a named API key to the keys file and print the key once.';
  static override description =
    'Writes an entry { name, key_sha256, limits } to the keys file (--file, else OPENMATES_API_KEYS_FILE), creating it when absent. The key itself is printed once on stdout and stored nowhere. A server reading the same file accepts it on its next request (the file is re-read when it changes). Quotas count provider calls in the UTC day and estimated US dollars in the UTC month; see docs/usage-and-quotas.md.';
  static override args = {
    name: Args.string({ description: 'The key’s name: 1 to 64 letters, digits, ".", "_" or "-".', required: true }),
  };
  static override flags = {
    file: Flags.string({ description: 'The keys file (default: OPENMATES_API_KEYS_FILE).', helpValue: 'PATH' }),
    'calls-per-day': Flags.integer({ description: 'Provider calls allowed per UTC day.', min: 0 }),
    'usd-per-month': Flags.string({ description: 'Estimated US dollars allowed per UTC month.', helpValue: 'USD' }),
    'rate-limit-per-min': Flags.integer({ description: 'This key’s own per-minute request limit.', min: 0 }),
  };
  static override examples = [
    {
      description: 'A key for an agent, 500 provider calls a day',
      command: '<%= config.bin %> keys add agent-a --calls-per-day 500 --file keys.json',
    },
  ];

  override async run(): Promise<void> {
    const { args, flags } = await this.parse(KeysAdd);
    const path = flags.file ?? (processEnv().OPENMATES_API_KEYS_FILE?.trim() || undefined);
    if (!path) this.error('name the keys file: --file PATH or OPENMATES_API_KEYS_FILE', { exit: 2 });
    const usd = flags['usd-per-month'];
    const usdPerMonth = usd === undefined ? undefined : Number(usd);
    if (usdPerMonth !== undefined && !(Number.isFinite(usdPerMonth) && usdPerMonth >= 0))
      this.error('--usd-per-month must be a number of US dollars ≥ 0', { exit: 2 });
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(args.name))
      this.error('the name must be 1 to 64 letters, digits, ".", "_" or "-"', { exit: 2 });
    const { addKey } = await import('../../keys/keys.ts');
    let key: string;
    try {
      key = addKey(path, args.name, {
        ...(flags['rate-limit-per-min'] === undefined ? {} : { rate_limit_per_min: flags['rate-limit-per-min'] }),
        ...(flags['calls-per-day'] === undefined ? {} : { calls_per_day: flags['calls-per-day'] }),
        ...(usdPerMonth === undefined ? {} : { usd_per_month: usdPerMonth }),
      });
    } catch (error) {
      this.error((error as Error).message, { exit: 2 });
    }
    process.stderr.write(`Added ${args.name} to ${path}. The key, shown this once:\n`);
    process.stdout.write(`${key}\n`);
  }
}
