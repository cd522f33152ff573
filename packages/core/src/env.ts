import { homedir } from 'node:os';
import type { IndexPathEnvironment } from './providers/local/index-path.ts';
import type { Env } from './shared/env-schema.ts';

/**
 * The process's environment. The engine reads `process.env` here and nowhere else (a test over the
 * tree holds each package to its one module): `loadConfig` parses what this returns when its caller
 * passes no environment of its own, and the local index's default location reads its platform
 * variables through `processIndexPathEnvironment`.
 */
export function processEnv(): Env {
  return process.env;
}

/** What the local index's default location needs of this process: `OPENMATES_INDEX` (or the caller's), the platform's data directories. */
export function processIndexPathEnvironment(indexPath: string | undefined): IndexPathEnvironment {
  const env = processEnv();
  return {
    indexPath: indexPath ?? env.OPENMATES_INDEX,
    platform: process.platform,
    home: homedir(),
    xdgDataHome: env.XDG_DATA_HOME,
    localAppData: env.LOCALAPPDATA,
  };
}
