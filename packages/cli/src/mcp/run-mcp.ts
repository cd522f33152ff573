import { exitCode } from '@openmates/contract';
import type { ChainMember, SearchBackend } from '@openmates/mcp';
import { engineEnv } from '../lib/cli-env.ts';
import { write } from '../lib/io.ts';
import { searchRemote } from '../search/remote.ts';
import { VERSION } from '../version.ts';

export interface McpOptions {
  /** Bridge to this server instead of running the engine in process. */
  apiUrl?: string | undefined;
  apiKey?: string | undefined;
}

/** A bridge to an OpenMates server: each tool call is one search through the SDK. */
function bridgeBackend(apiUrl: string, apiKey: string | undefined): SearchBackend {
  return {
    async search(input, { signal }) {
      const outcome = await searchRemote(input, apiUrl, apiKey, signal ? { signal } : {});
      if (outcome.kind === 'aborted') throw signal?.reason;
      // No answer from the server: the tool cannot serve, as a provider that cannot (503).
      if (outcome.kind === 'unreachable')
        return { kind: 'error', body: { error: outcome.message, code: 'not_configured' } };
      return outcome;
    },
  };
}

/**
 * `openmates mcp`: the `web_search` tool over stdio until the client closes stdin. stdout carries
 * protocol messages only; a refusal to start is one line on stderr (exit 4, as `serve`).
 */
export async function runMcp(options: McpOptions, env: Record<string, string | undefined>): Promise<number> {
  const { engineBackend, serveMcpStdio } = await import('@openmates/mcp');
  let backend: SearchBackend;
  let provider: ChainMember | undefined;
  let providers: ChainMember[] | undefined;
  let close = async () => {};
  if (options.apiUrl) backend = bridgeBackend(options.apiUrl, options.apiKey);
  else {
    const core = await import('@openmates/core');
    try {
      const config = core.loadConfig(engineEnv(env, 'silent'));
      const engine = core.createEngine({ config, provider: core.createConfiguredProviders(config) });
      backend = engineBackend(engine);
      // Each with its capability table: the tool's options say which provider applies them.
      providers = engine.providers.map((p) => ({ id: p.id, name: p.name, capabilities: p.capabilities }));
      provider = providers[0];
      close = () => engine.close();
    } catch (error) {
      if (error instanceof core.ConfigError || error instanceof core.ProviderNotConfiguredError) {
        await write(
          process.stderr,
          `openmates mcp: cannot start: ${error.message.replace(/\n/g, '; ')} Run \`openmates doctor\` for details.\n`,
        );
        return exitCode('not_configured');
      }
      throw error;
    }
  }
  // The client ends the session by closing our stdin (MCP's stdio transport); requests already
  // received are answered first.
  await serveMcpStdio({ backend, version: VERSION, provider, providers });
  await close();
  return 0;
}
