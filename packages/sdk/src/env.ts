// The one place the SDK reads the environment. There is no `process` in browsers, and Deno may deny
// access, so a missing or unreadable variable is simply absent. No Node built-in is imported.

interface EnvHost {
  process?: { env?: Record<string, string | undefined> };
  Deno?: { env?: { get(name: string): string | undefined } };
}

/** The trimmed value of an environment variable, or undefined where unset, empty or unreadable. */
export function readEnv(name: string): string | undefined {
  const host = globalThis as EnvHost;
  try {
    const value = host.process?.env?.[name] ?? host.Deno?.env?.get(name);
    const trimmed = value?.trim();
    return trimmed ? trimmed : undefined;
  } catch {
    return undefined;
  }
}
