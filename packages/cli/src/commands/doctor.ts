import { Flags } from '@oclif/core';
import { PROVIDER_IDS } from '@openmates/contract';
import { BaseCommand } from '../lib/base-command.ts';
import { cliVariable, processEnv } from '../lib/cli-env.ts';

/** The providers with a dry run and a live probe: every one that calls out. */
const PROBED: readonly string[] = [
  'openai',
  'brave',
  'searxng',
  'tavily',
  'exa',
  'serper',
  'anthropic',
  'azure-openai',
];

export default class Doctor extends BaseCommand {
  static override summary = 'Check the configuration: which provider answers and why, its key, and whether it answers.';
  static override description =
    `Reports the selected provider and why it is selected, whether its key or URL is set (values are never printed), keys that are set but not used, the server settings, and the provider's own checks (reachability; for local, the index). Exit 0 when every check passes, 4 otherwise.

--dry-run (every provider that calls out) prints the exact request a search would send, with the key or password redacted; it needs no key and sends nothing. --live calls the provider for real (OpenAI: a two-step probe; the others: one search): it sends fixed probe text (never a query of yours) and may cost money.`;
  static override flags = {
    json: Flags.boolean({ description: 'Print { provider, source, checks, ok } as JSON.' }),
    provider: Flags.string({
      description: 'Check this provider instead of the selected one.',
      options: [...PROVIDER_IDS],
    }),
    'dry-run': Flags.boolean({
      description: 'Print the request one search would send (key redacted, no network); not for local.',
    }),
    query: Flags.string({ description: 'The query shown by --dry-run.', default: 'openmates dry run' }),
    live: Flags.boolean({
      description: 'Also run the live probe (calls the provider; may cost money; opt-in); not for local.',
      exclusive: ['dry-run'],
    }),
    'api-url': Flags.string({
      helpValue: 'ORIGIN',
      description:
        'Check the OpenMates server at ORIGIN instead of this machine: whether it answers, its providers in order, and your rate-limit state there (read without counting).',
      exclusive: ['dry-run', 'live', 'provider'],
    }),
    'api-key': Flags.string({
      helpValue: 'KEY',
      description: 'API key for --api-url (sent as a bearer token). Env: OPENMATES_API_KEY.',
    }),
  };
  static override examples = [
    { description: 'Check everything', command: '<%= config.bin %> doctor' },
    { description: 'The same as JSON, for scripts', command: '<%= config.bin %> doctor --json' },
    {
      description: 'Check a running server and your rate-limit state there',
      command: '<%= config.bin %> doctor --api-url http://127.0.0.1:8787',
    },
    {
      description: 'See what the OpenAI provider would send, without a key or network',
      command: '<%= config.bin %> doctor --provider openai --dry-run --json',
    },
    {
      description: 'See what the Serper provider would send, without a key or network',
      command: '<%= config.bin %> doctor --provider serper --dry-run --json',
    },
    {
      description: 'See what the Azure OpenAI provider would send, without a key or network',
      command: '<%= config.bin %> doctor --provider azure-openai --dry-run --json',
    },
    {
      description: 'Probe OpenAI hosted web search for real (costs a little)',
      command: '<%= config.bin %> doctor --provider openai --live',
    },
  ];

  override async run(): Promise<void> {
    const { flags } = await this.parse(Doctor);
    const env = processEnv();
    const provider = (flags.provider ?? env.OPENMATES_PROVIDER?.trim().toLowerCase()) || undefined;
    if ((flags['dry-run'] || flags.live) && !PROBED.includes(provider ?? ''))
      this.error(
        `--dry-run and --live apply to a provider that calls out: add --provider with one of ${PROBED.join(', ')}`,
        {
          exit: 2,
        },
      );
    const apiKey = flags['api-key'] ?? cliVariable(env, 'OPENMATES_API_KEY');
    const { runDoctorCommand } = await import('../doctor/doctor-command.ts');
    process.exitCode = await runDoctorCommand(
      {
        json: flags.json,
        dryRun: flags['dry-run'],
        live: flags.live,
        query: flags.query,
        ...(flags.provider ? { provider: flags.provider as (typeof PROVIDER_IDS)[number] } : {}),
        ...(flags['api-url'] !== undefined ? { apiUrl: flags['api-url'] } : {}),
        ...(apiKey ? { apiKey } : {}),
      },
      process.stdout,
      process.stderr,
      env,
    );
  }
}
