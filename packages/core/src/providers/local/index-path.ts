import { posix, resolve, win32 } from 'node:path';
import { processIndexPathEnvironment } from '../../env.ts';

/** File name of the index inside the user's data directory. */
export const INDEX_FILE_NAME = 'index.db';
/** Folder created inside the user's data directory. */
export const APP_DIR_NAME = 'openmates';

/** What `resolveIndexPath` needs from the environment, passed in so the rule stays a pure function. */
export interface IndexPathEnvironment {
  /** `OPENMATES_INDEX`; empty counts as unset. */
  indexPath?: string | undefined;
  platform: NodeJS.Platform;
  home: string;
  /** `XDG_DATA_HOME` (Linux and other Unix); only an absolute path counts, as the XDG spec says. */
  xdgDataHome?: string | undefined;
  /** `LOCALAPPDATA` (Windows). */
  localAppData?: string | undefined;
}

/**
 * Where the local index lives: `OPENMATES_INDEX` when set, else `index.db` in the user's data
 * directory: `%LOCALAPPDATA%\openmates` on Windows, `~/Library/Application Support/openmates` on
 * macOS, `$XDG_DATA_HOME/openmates` (default `~/.local/share/openmates`) elsewhere.
 */
export function resolveIndexPath(env: IndexPathEnvironment): string {
  if (env.indexPath !== undefined && env.indexPath.trim() !== '') return env.indexPath;
  if (env.platform === 'win32') {
    const base = env.localAppData?.trim() ? env.localAppData : win32.join(env.home, 'AppData', 'Local');
    return win32.join(base, APP_DIR_NAME, INDEX_FILE_NAME);
  }
  if (env.platform === 'darwin')
    return posix.join(env.home, 'Library', 'Application Support', APP_DIR_NAME, INDEX_FILE_NAME);
  const xdg = env.xdgDataHome?.trim();
  const base = xdg && posix.isAbsolute(xdg) ? xdg : posix.join(env.home, '.local', 'share');
  return posix.join(base, APP_DIR_NAME, INDEX_FILE_NAME);
}

/**
 * `resolveIndexPath` for this process (`OPENMATES_INDEX` given by the caller, else the process's),
 * relative paths made absolute.
 */
export function defaultIndexPath(indexPath?: string): string {
  return resolve(resolveIndexPath(processIndexPathEnvironment(indexPath)));
}
