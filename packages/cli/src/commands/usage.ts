import { Flags } from '@oclif/core';
import { BaseCommand } from '../lib/base-command.ts';
import { cliVariable, processEnv } from '../lib/cli-env.ts';

export default class Usage extends BaseCommand {
  static override summary = 'Show your API key’s usage on an OpenMates server: today, this month, and what is left.';
  static override description =
    'Asks GET /v1/usage of the server at --api-url with your key: provider calls, billed units and estimated cost today (UTC) and this month, per provider, and what is left of each quota. Only your own key’s usage is ever shown. Exit 4 when the key is refused.';
  static override flags = {
    'api-url': Flags.string({
      description: 'The OpenMates server (default: OPENMATES_API_URL).',
      helpValue: 'ORIGIN',
    }),
    'api-key': Flags.string({ description: 'Your API key (default: OPENMATES_API_KEY).', helpValue: 'KEY' }),
    json: Flags.boolean({ description: 'Print the answer as JSON.' }),
  };
  static override examples = [
    {
      description: 'Your usage today and this month',
      command: '<%= config.bin %> usage --api-url http://127.0.0.1:8787',
    },
  ];

  override async run(): Promise<void> {
    const { flags } = await this.parse(Usage);
    const env = processEnv();
    const apiUrl = flags['api-url'] ?? cliVariable(env, 'OPENMATES_API_URL');
    if (!apiUrl) this.error('name the server: --api-url ORIGIN or OPENMATES_API_URL', { exit: 2 });
    const apiKey = flags['api-key'] ?? cliVariable(env, 'OPENMATES_API_KEY');
    const { APIError, OpenMates } = await import('@openmates/sdk');
    const client = new OpenMates({ baseURL: apiUrl, apiKey: apiKey ?? '', maxRetries: 0 });
    let usage: Awaited<ReturnType<typeof client.usage>>;
    try {
      usage = await client.usage();
    } catch (error) {
      const exit = error instanceof APIError && (error.status === 401 || error.status === 403) ? 4 : 1;
      this.error((error as Error).message, { exit });
    }
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(usage, null, 2)}\n`);
      return;
    }
    const money = (usd: number) => `$${usd.toFixed(4)}`;
    const rows = [['WINDOW', 'PROVIDER', 'CALLS', 'BILLED', 'COST']];
    for (const [label, window] of [
      [`today ${usage.today.window}`, usage.today],
      [`month ${usage.month.window}`, usage.month],
    ] as const) {
      rows.push([label, 'all', String(window.calls), String(window.billed), money(window.cost_usd)]);
      for (const [id, spent] of Object.entries(window.providers))
        rows.push(['', id, String(spent.calls), String(spent.billed), money(spent.cost_usd)]);
    }
    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
    const table = rows.map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    );
    const quotas = usage.quotas.map(
      (q) => `${q.policy}: ${q.used} of ${q.limit} used, ${q.remaining} left, renews in ${q.reset_seconds} s`,
    );
    const lines = [`Key: ${usage.name ?? '(unnamed)'}`, ...table, ...(quotas.length > 0 ? quotas : ['No quotas.'])];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
