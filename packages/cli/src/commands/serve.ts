import { Flags } from '@oclif/core';
import { DEFAULT_HOST, DEFAULT_PORT } from '@openmates/contract';
import { BaseCommand } from '../lib/base-command.ts';

export default class Serve extends BaseCommand {
  static override summary = 'Serve the REST and tRPC API, and the web GUI, on one origin.';
  static override description =
    `Binds ${DEFAULT_HOST} by default. Binding any other address requires API keys (OPENMATES_API_KEYS, comma-separated, each at least 16 characters); clients then send Authorization: Bearer <key>. Refuses to start when the selected provider is not configured (see \`openmates doctor\`). SIGINT or SIGTERM drain: /readyz and new requests answer 503, in-flight searches finish within OPENMATES_DRAIN_MS (default 10000), then it exits. /metrics (Prometheus) sits behind the API keys when they are set.`;
  static override flags = {
    host: Flags.string({ description: 'Address to bind.', default: DEFAULT_HOST, helpValue: 'ADDRESS' }),
    port: Flags.integer({
      description: 'Port to bind (0 picks a free one).',
      default: DEFAULT_PORT,
      min: 0,
      max: 65535,
    }),
    gui: Flags.boolean({
      description: 'Serve the web GUI at / (--no-gui serves the API alone).',
      default: true,
      allowNo: true,
    }),
  };
  static override examples = [
    { description: 'Serve on http://127.0.0.1:8787', command: '<%= config.bin %> serve' },
    {
      description: 'Serve on every interface, with API keys',
      command: 'OPENMATES_API_KEYS=$(openssl rand -hex 24) <%= config.bin %> serve --host 0.0.0.0',
    },
    { description: 'The API alone, on a free port', command: '<%= config.bin %> serve --port 0 --no-gui' },
  ];

  override async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    const { serve } = await import('../serve/serve.ts');
    process.exitCode = await serve(
      { host: flags.host, port: flags.port, gui: flags.gui },
      process.stdout,
      process.stderr,
    );
  }
}
