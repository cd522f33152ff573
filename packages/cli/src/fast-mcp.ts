import { parseArgs } from 'node:util';
import { cliVariable, processEnv } from './lib/cli-env.ts';
import { runMcp } from './mcp/run-mcp.ts';

/**
 * `openmates mcp` without oclif (`bin/run.js`), so an MCP client's spawn reaches its first result
 * sooner. Anything it does not understand resolves to undefined and oclif takes over.
 */
export async function fastMcp(argv: string[]): Promise<number | undefined> {
  let values: { 'api-url'?: string | undefined; 'api-key'?: string | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { 'api-url': { type: 'string' }, 'api-key': { type: 'string' } },
      strict: true,
    }));
  } catch {
    return undefined;
  }
  const env = processEnv();
  return runMcp(mcpOptions(values, env), env);
}

/** Flags first, then OPENMATES_API_URL / OPENMATES_API_KEY, as `openmates search` reads them. */
export function mcpOptions(
  flags: { 'api-url'?: string | undefined; 'api-key'?: string | undefined },
  env: Record<string, string | undefined>,
): { apiUrl?: string; apiKey?: string } {
  const apiUrl = flags['api-url'] ?? cliVariable(env, 'OPENMATES_API_URL');
  const apiKey = flags['api-key'] ?? cliVariable(env, 'OPENMATES_API_KEY');
  return { ...(apiUrl ? { apiUrl } : {}), ...(apiKey ? { apiKey } : {}) };
}
