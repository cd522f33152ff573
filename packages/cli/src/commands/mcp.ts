import { Flags } from '@oclif/core';
import { BaseCommand } from '../lib/base-command.ts';
import { processEnv } from '../lib/cli-env.ts';

export default class Mcp extends BaseCommand {
  static override summary = 'Serve the web_search tool to an AI agent over MCP (stdio).';
  static override description =
    `An MCP client (Claude Desktop, Cursor, an agent framework) starts this command and talks to it on stdin/stdout. The tool runs the engine with the configured provider in this process, or bridges to an OpenMates server with --api-url (one shared server, its keys and limits). Logs go to stderr only (OPENMATES_LOG_LEVEL, default silent). For HTTP clients, \`openmates serve\` answers MCP at /mcp.`;
  static override flags = {
    'api-url': Flags.string({
      description: 'Bridge to the OpenMates server at this origin (default: OPENMATES_API_URL; unset: in process).',
      helpValue: 'ORIGIN',
    }),
    'api-key': Flags.string({
      description: "The server's API key (default: OPENMATES_API_KEY).",
      helpValue: 'KEY',
    }),
  };
  static override examples = [
    { description: 'The configured provider, in process', command: '<%= config.bin %> mcp' },
    {
      description: 'A bridge to a shared server',
      command: '<%= config.bin %> mcp --api-url https://search.example.com --api-key "$OPENMATES_API_KEY"',
    },
  ];

  override async run(): Promise<void> {
    const { flags } = await this.parse(Mcp);
    const [{ runMcp }, { mcpOptions }] = await Promise.all([import('../mcp/run-mcp.ts'), import('../fast-mcp.ts')]);
    const env = processEnv();
    process.exitCode = await runMcp(mcpOptions(flags, env), env);
  }
}
