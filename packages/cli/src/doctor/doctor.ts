import type { ProviderId } from '@openmates/contract';
import type { DoctorCheck, EngineConfig } from '@openmates/core';
import { engineEnv } from '../lib/cli-env.ts';

/** What `openmates doctor --json` prints. */
export interface DoctorReport {
  /** The selected provider, or null when the environment could not be read. */
  provider: ProviderId | null;
  /** Why it is selected: `OPENMATES_PROVIDER`, `--provider` or `default`. */
  source: 'OPENMATES_PROVIDER' | '--provider' | 'default' | null;
  checks: DoctorCheck[];
  ok: boolean;
  /** Present when OPENMATES_REDIS_URL is set: whether the shared Redis answered. */
  redis?: 'ok' | 'down';
}

export interface DoctorOptions {
  /** Check this provider instead of the selected one. */
  provider?: ProviderId;
  /** Also run the provider's live probe (OpenAI only; may cost money). */
  live?: boolean;
}

type Env = Record<string, string | undefined>;

const KEY_VARIABLES: Record<Exclude<ProviderId, 'local'>, string> = {
  brave: 'BRAVE_SEARCH_API_KEY',
  openai: 'OPENAI_API_KEY',
  searxng: 'SEARXNG_BASE_URL',
};

function isSet(env: Env, name: string): boolean {
  return (env[name]?.trim() ?? '') !== '';
}

function host(url: string): string {
  return URL.canParse(url) ? new URL(url).host : url;
}

/** The checks that read the environment only: provider choice, keys and endpoints. */
function configurationChecks(
  config: EngineConfig,
  source: DoctorReport['source'],
  env: Env,
  braveKeyVariable: (env: Env) => string | undefined,
): DoctorCheck[] {
  const checks: DoctorCheck[] = [];
  const why =
    source === 'default'
      ? 'the default (OPENMATES_PROVIDER is not set)'
      : source === '--provider'
        ? 'chosen with --provider'
        : `OPENMATES_PROVIDER=${config.provider}`;
  checks.push({ name: 'provider', ok: true, detail: `${config.provider}: ${why}` });
  if (config.provider === 'brave' || config.provider === 'openai') {
    // Brave's key may come from either of two names; the check names the one in use.
    const variable =
      (config.provider === 'brave' ? braveKeyVariable(env) : undefined) ?? KEY_VARIABLES[config.provider];
    const ok = isSet(env, variable);
    checks.push({
      name: variable,
      ok,
      detail: ok ? 'set (value not shown)' : 'not set',
      ...(ok ? {} : { fix: `Set ${variable}, or choose another provider with OPENMATES_PROVIDER.` }),
    });
    const base = config.provider === 'brave' ? config.brave.baseUrl : config.openai.baseUrl;
    const baseVariable = config.provider === 'brave' ? 'BRAVE_SEARCH_BASE_URL' : 'OPENAI_BASE_URL';
    checks.push({
      name: baseVariable,
      ok: true,
      detail: `queries go to ${host(base)}${isSet(env, baseVariable) ? '' : ' (the default)'}`,
    });
    if (config.provider === 'openai')
      checks.push({ name: 'OPENMATES_OPENAI_SEARCH_MODEL', ok: true, detail: config.openai.model });
  } else if (config.provider === 'searxng') {
    const { baseUrl, password } = config.searxng;
    checks.push({
      name: 'SEARXNG_BASE_URL',
      ok: baseUrl !== undefined,
      detail:
        baseUrl === undefined
          ? 'not set'
          : `queries go to ${host(baseUrl)}${password === undefined ? '' : ' (with basic-auth credentials, not shown)'}`,
      ...(baseUrl === undefined
        ? {
            fix: 'Set SEARXNG_BASE_URL to your instance (e.g. http://127.0.0.1:8888 or https://user:password@host/searxng).',
          }
        : {}),
    });
  } else {
    checks.push({
      name: 'OPENMATES_INDEX',
      ok: true,
      detail: config.local.indexPath
        ? `the index is ${config.local.indexPath}`
        : 'not set: the index is in the user data directory',
    });
  }
  for (const [provider, variable] of Object.entries(KEY_VARIABLES)) {
    if (provider !== config.provider && isSet(env, variable))
      checks.push({
        name: variable,
        ok: true,
        detail: `set but not used: queries only go to the selected provider (OPENMATES_PROVIDER=${provider} would use it)`,
      });
  }
  return checks;
}

/** The server's settings, for `openmates serve`. */
async function serverChecks(env: Env): Promise<DoctorCheck[]> {
  const { loadServerConfig } = await import('@openmates/server');
  const checks: DoctorCheck[] = [];
  try {
    const { apiKeys } = loadServerConfig(env);
    checks.push({
      name: 'OPENMATES_API_KEYS',
      ok: true,
      detail:
        apiKeys.length > 0
          ? `${apiKeys.length} key${apiKeys.length === 1 ? '' : 's'} set: serve checks Authorization and may bind any address`
          : 'not set: serve binds loopback addresses only, without keys',
    });
  } catch (error) {
    checks.push({
      name: 'server settings',
      ok: false,
      detail: (error as Error).message.replace(/\n/g, '; '),
      fix: 'Correct OPENMATES_API_KEYS or OPENMATES_RATE_LIMIT_PER_MIN.',
    });
  }
  if (isSet(env, 'OPENMATES_API_URL'))
    checks.push({
      name: 'OPENMATES_API_URL',
      ok: true,
      detail: `set: \`openmates search\` goes to ${host(env.OPENMATES_API_URL?.trim() ?? '')}, not to the provider below`,
    });
  return checks;
}

/**
 * Everything `openmates doctor` reports: the selected provider and why, its key or endpoint (never
 * a value), keys present but unused, the server's settings, and the provider's own checks
 * (reachability, index size). Never throws for a configuration problem: it becomes a failed check.
 */
export async function runDoctor(env: Env, options: DoctorOptions = {}): Promise<DoctorReport> {
  const core = await import('@openmates/core');
  const effective = options.provider ? { ...env, OPENMATES_PROVIDER: options.provider } : env;
  const checks: DoctorCheck[] = [];
  let config: EngineConfig;
  try {
    config = core.loadConfig(engineEnv(effective, 'silent'));
  } catch (error) {
    if (!(error instanceof core.ConfigError)) throw error;
    for (const line of error.message.split('\n'))
      checks.push({ name: 'environment', ok: false, detail: line, fix: 'Correct or unset that variable.' });
    checks.push(...(await serverChecks(env)));
    return { provider: null, source: null, checks, ok: false };
  }
  const source: DoctorReport['source'] = options.provider ? '--provider' : config.providerSource;
  const redact = core.createRedactor(core.configSecrets(config));
  checks.push(...configurationChecks(config, source, env, core.braveKeyVariable));
  checks.push(...(await serverChecks(env)));

  let redis: DoctorReport['redis'];
  if (config.redis) {
    const link = await core.connectRedis(config.redis, core.createLogger({ level: 'silent', redact }));
    redis = await link.settled(Math.max(1_000, config.redis.timeoutMs * 10));
    if (redis === 'ok') redis = (await link.attempt((r) => r.ping(), 'down')) === 'PONG' ? 'ok' : 'down';
    await link.close();
    const where = host(config.redis.url.replace(/^rediss?:/, 'http:'));
    checks.push(
      redis === 'ok'
        ? { name: 'redis', ok: true, detail: `ok: replicas share limits, cache and the provider's rate at ${where}` }
        : {
            name: 'redis',
            ok: false,
            detail: `down: ${where} did not answer; serve would run on in-process limits and cache until it does`,
            fix: 'Start Redis or correct OPENMATES_REDIS_URL (redis://[:password@]host:port[/db]).',
          },
    );
  }

  let provider: ReturnType<typeof core.createConfiguredProvider> | undefined;
  try {
    provider = core.createConfiguredProvider(config);
  } catch (error) {
    if (!(error instanceof core.ProviderNotConfiguredError)) throw error;
    checks.push({
      name: 'provider ready',
      ok: false,
      detail: error.message,
      fix: 'Set what the message names, then run `openmates doctor` again.',
    });
  }
  if (provider) {
    const signal = AbortSignal.timeout(config.providerTimeoutMs);
    const context = {
      signal,
      now: () => performance.now(),
      sleep: (ms: number, s: AbortSignal) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, ms);
          s.addEventListener(
            'abort',
            () => {
              clearTimeout(timer);
              reject(s.reason);
            },
            { once: true },
          );
        }),
    };
    try {
      if (provider.doctor) checks.push(...(await provider.doctor(context)));
      else checks.push({ name: 'provider ready', ok: true, detail: `${provider.name} has no reachability check` });
      if (options.live && config.provider === 'openai' && config.openai.apiKey)
        checks.push(
          ...(await core.liveProbe(
            { apiKey: config.openai.apiKey, baseUrl: config.openai.baseUrl, model: config.openai.model },
            context,
          )),
        );
    } finally {
      await provider.close?.();
    }
  }
  const safe = checks.map((check) => ({
    ...check,
    detail: redact(check.detail),
    ...(check.fix === undefined ? {} : { fix: redact(check.fix) }),
  }));
  const report: DoctorReport = { provider: config.provider, source, checks: safe, ok: safe.every((c) => c.ok) };
  if (redis) report.redis = redis;
  return report;
}
