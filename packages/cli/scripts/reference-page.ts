// docs/reference.md as it must be: the contract's tables, and the environment tables of every
// parser the `openmates` command runs (the engine's, each provider's, the server's, the CLI's own).
// The CLI is where they meet: it is the one package that depends on all of them.
import { fileURLToPath } from 'node:url';
import { type EnvironmentSection, renderReference } from '@openmates/contract/reference';
import { ENGINE_ENVIRONMENT, PROVIDER_MODULES, SELECTION_ENVIRONMENT } from '@openmates/core';
import { SERVER_ENVIRONMENT } from '@openmates/server';
import { CLI_ENVIRONMENT } from '../src/lib/cli-env.ts';

export const REFERENCE_PATH = fileURLToPath(new URL('../../../docs/reference.md', import.meta.url));

export const ENVIRONMENT_SECTIONS: readonly EnvironmentSection[] = [
  {
    title: 'Provider',
    source: 'packages/core/src/config.ts',
    readBy: 'Read by every command that runs the engine (`search` and `mcp` in process, `serve`, `doctor`).',
    variables: SELECTION_ENVIRONMENT,
  },
  {
    title: 'Local index (`local`)',
    source: 'packages/core/src/providers/local/settings.ts',
    readBy: 'Read with the provider selection; used when `OPENMATES_PROVIDER` lists `local`, and by `openmates index`.',
    variables: PROVIDER_MODULES.local.environment,
  },
  {
    title: 'Brave Search (`brave`)',
    source: 'packages/core/src/providers/brave/settings.ts',
    readBy: 'Read with the provider selection; used only when `OPENMATES_PROVIDER` lists `brave`.',
    variables: PROVIDER_MODULES.brave.environment,
  },
  {
    title: 'OpenAI hosted search (`openai`)',
    source: 'packages/core/src/providers/openai/settings.ts',
    readBy: 'Read with the provider selection; used only when `OPENMATES_PROVIDER` lists `openai`.',
    variables: PROVIDER_MODULES.openai.environment,
  },
  {
    title: 'SearXNG (`searxng`)',
    source: 'packages/core/src/providers/searxng/settings.ts',
    readBy: 'Read with the provider selection; used only when `OPENMATES_PROVIDER` lists `searxng`.',
    variables: PROVIDER_MODULES.searxng.environment,
  },
  {
    title: 'Azure OpenAI hosted search (`azure-openai`)',
    source: 'packages/core/src/providers/azure-openai/settings.ts',
    readBy: 'Read with the provider selection; used only when `OPENMATES_PROVIDER` lists `azure-openai`.',
    variables: PROVIDER_MODULES['azure-openai'].environment,
  },
  {
    title: 'Engine',
    source: 'packages/core/src/config.ts',
    readBy: 'Read by every command that runs the engine.',
    variables: ENGINE_ENVIRONMENT,
  },
  {
    title: 'Server',
    source: 'packages/server/src/env.ts',
    readBy: 'Read by `openmates serve` (and every server the tests start).',
    variables: SERVER_ENVIRONMENT,
  },
  {
    title: 'CLI and SDK clients',
    source: 'packages/cli/src/lib/cli-env.ts',
    readBy: 'Read by `openmates search`, `openmates mcp` and `openmates doctor`.',
    variables: CLI_ENVIRONMENT,
  },
];

export function referencePage(): string {
  return renderReference(undefined, ENVIRONMENT_SECTIONS);
}
