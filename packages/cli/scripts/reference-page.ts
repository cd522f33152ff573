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
  ...Object.values(PROVIDER_MODULES).map(
    (module): EnvironmentSection => ({
      title: `${module.name} (\`${module.id}\`)`,
      source: `packages/core/src/providers/${module.id}/settings.ts`,
      readBy: module.alsoReadBy
        ? `Read with the provider selection; used when \`OPENMATES_PROVIDER\` lists \`${module.id}\`, and by ${module.alsoReadBy}.`
        : `Read with the provider selection; used only when \`OPENMATES_PROVIDER\` lists \`${module.id}\`.`,
      variables: module.environment,
    }),
  ),
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
