/**
 * The environment variables a client of the API reads, and the setting each supplies: the npm and
 * pip SDKs take them as defaults (their generators copy the names), and `openmates search` and
 * `openmates mcp` call a server when one is named. An option in code, or a flag, wins over each.
 * Plain data: the CLI's start path imports it.
 */
export const CLIENT_ENVIRONMENT = {
  OPENMATES_API_URL: {
    setting: 'baseURL',
    description:
      "A server's origin: `openmates search` and `openmates mcp` then call it instead of running the engine in process (`--api-url` wins). The npm and pip SDKs read it too, as their base URL (default `http://127.0.0.1:8787`).",
    default: 'none: the engine runs in process',
  },
  OPENMATES_API_KEY: {
    setting: 'apiKey',
    description:
      'The key sent as `Authorization: Bearer` to that server (`--api-key` wins); the npm and pip SDKs read it too.',
  },
} as const satisfies Readonly<Record<string, { setting: 'baseURL' | 'apiKey'; description: string; default?: string }>>;

export type ClientVariable = keyof typeof CLIENT_ENVIRONMENT;

/** The variable that supplies `setting`. */
export function clientVariable(setting: 'baseURL' | 'apiKey'): ClientVariable {
  const found = (Object.keys(CLIENT_ENVIRONMENT) as ClientVariable[]).find(
    (name) => CLIENT_ENVIRONMENT[name].setting === setting,
  );
  if (found === undefined) throw new Error(`no client variable supplies ${setting}`);
  return found;
}
