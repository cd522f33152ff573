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
