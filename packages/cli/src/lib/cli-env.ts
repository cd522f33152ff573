import { CLIENT_ENVIRONMENT } from '@openmates/contract';

/**
 * The process's environment. The CLI's source reads `process.env` here and nowhere else (a test over
 * the tree holds each package to its one module): the CLI's own variables through `cliVariable`, the
 * engine's and the server's handed whole to their parsers (`loadConfig`, `loadServerConfig`).
 */
export function processEnv(): Record<string, string | undefined> {
  return process.env;
}

/**
 * The CLI's defaults for the engine's environment. Logs are off unless asked for: the CLI reports
 * every error itself in one line, and stdout must stay clean for `--json`. `OPENMATES_LOG_LEVEL`
 * (e.g. `info`) brings the structured JSON logs back, on stderr.
 */
export function engineEnv(
  env: Record<string, string | undefined>,
  defaultLogLevel: string,
): Record<string, string | undefined> {
  const level = env.OPENMATES_LOG_LEVEL?.trim();
  return { ...env, OPENMATES_LOG_LEVEL: level ? level : defaultLogLevel };
}

/**
 * The variables the CLI itself reads (the engine's and the server's are read by their own parsers),
 * with what docs/reference.md says of each: the API client's two, as the contract declares them,
 * and the CLI's own. Plain data: this module is on every command's path.
 */
export const CLI_ENVIRONMENT = {
  ...CLIENT_ENVIRONMENT,
  OPENMATES_DEBUG: {
    description: 'When set, an internal error the CLI reports in one line also prints its stack trace.',
  },
} as const satisfies Readonly<Record<string, { description: string; default?: string }>>;

/** A variable of `CLI_ENVIRONMENT`, trimmed; undefined while unset or blank. */
export function cliVariable(
  env: Record<string, string | undefined>,
  name: keyof typeof CLI_ENVIRONMENT,
): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}
