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
 * with what docs/reference.md says of each. Plain data: this module is on every command's path.
 */
export const CLI_ENVIRONMENT = {
  OPENMATES_API_URL: {
    description:
      "A server's origin: `openmates search` and `openmates mcp` then call it instead of running the engine in process (`--api-url` wins). The npm and pip SDKs read it too, as their base URL (default `http://127.0.0.1:8787`).",
    default: 'none: the engine runs in process',
  },
  OPENMATES_API_KEY: {
    description:
      'The key sent as `Authorization: Bearer` to that server (`--api-key` wins); the npm and pip SDKs read it too.',
  },
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
