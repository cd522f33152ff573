import { DEFAULT_PROVIDER_TIMEOUT_MS } from '@openmates/contract';
import { z } from 'zod';
import { blankToUndefined, parseEnv } from '../../shared/env-schema.ts';
import type { ProviderModule } from '../provider-module.ts';
import { defaultIndexPath } from './index-path.ts';
import { createLocalProvider } from './local-provider.ts';

/** The local index's part of the engine's configuration. */
export interface LocalSettings {
  /** `OPENMATES_INDEX`: the index file (default in the user data directory). */
  indexPath?: string;
}

const EnvSchema = z.object({ OPENMATES_INDEX: z.preprocess(blankToUndefined, z.string().optional()) });

/** The local full-text index on this machine: its variable, identity, construction and doctor check. */
export const localModule: ProviderModule<LocalSettings> = {
  id: 'local',
  defaultTimeoutMs: DEFAULT_PROVIDER_TIMEOUT_MS,
  parse(env) {
    const { OPENMATES_INDEX } = parseEnv(EnvSchema, env);
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
