import { DEFAULT_PROVIDER_TIMEOUT_MS } from '@openmates/contract';
import { type EnvTable, parseEnv, text } from '../../shared/env-schema.ts';
import { COSTS_NOTHING, type ProviderModule } from '../provider-module.ts';
import { defaultIndexPath } from './index-path.ts';
import { createLocalProvider } from './local-provider.ts';

/** The local index's part of the engine's configuration. */
export interface LocalSettings {
  /** `OPENMATES_INDEX`: the index file (default in the user data directory). */
  indexPath?: string;
}

const ENVIRONMENT = {
  OPENMATES_INDEX: {
    description:
      'The local index file (SQLite; created on first use, the demo corpus built into it on the first search).',
    default:
      'in the user data directory: `$XDG_DATA_HOME/openmates/index.db` (`~/.local/share/…`), `~/Library/Application Support/openmates/index.db` on macOS, `%LOCALAPPDATA%\\openmates\\index.db` on Windows',
    schema: text(),
  },
} as const satisfies EnvTable;

/** The local full-text index on this machine: its variable, identity, construction and doctor check. */
export const localModule: ProviderModule<LocalSettings, 'local'> = {
  id: 'local',
  name: 'Local index',
  alsoReadBy: '`openmates index`',
  price: COSTS_NOTHING,
  docsPage: 'docs/providers/local.md',
  defaultTimeoutMs: DEFAULT_PROVIDER_TIMEOUT_MS,
  environment: ENVIRONMENT,
  parse(env) {
    const { OPENMATES_INDEX } = parseEnv(ENVIRONMENT, env);
    return OPENMATES_INDEX ? { indexPath: OPENMATES_INDEX } : {};
  },
  secrets: () => [],
  identity: (settings) => [settings.indexPath ?? ''],
  create: (settings) => createLocalProvider({ indexPath: defaultIndexPath(settings.indexPath) }),
  configurationChecks: (settings) => [
    {
      name: 'OPENMATES_INDEX',
      ok: true,
      detail: settings.indexPath
        ? `the index is ${settings.indexPath}`
        : 'not set: the index is in the user data directory',
    },
  ],
};
