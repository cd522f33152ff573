import type { ProviderId, RateLimitState } from '@openmates/contract';
import type { AnyEngineConfig, DoctorCheck, EngineConfig, ProviderModule, ProviderRegistry } from '@openmates/core';
import { engineEnv } from '../lib/cli-env.ts';

/** What `openmates doctor --json` prints. */
export interface DoctorReport {
  /** The selected provider (the first of the chain), or null when the environment could not be read. */
  provider: ProviderId | null;
  /** Every provider listed, in order (`OPENMATES_PROVIDER=brave,searxng`); absent when it could not be read. */
  providers?: ProviderId[];
  /** Why it is selected: `OPENMATES_PROVIDER`, `--provider`, `default`, or `--api-url` (a remote server's). */
  source: 'OPENMATES_PROVIDER' | '--provider' | 'default' | '--api-url' | null;
  /** With `--api-url`: the caller's state under the server's per-key limit (absent when the limit is off). */
  rate_limit?: RateLimitState;
  checks: DoctorCheck[];
  ok: boolean;
  /** Present when OPENMATES_REDIS_URL is set: whether the shared Redis answered. */
  redis?: 'ok' | 'down';
}

export interface DoctorOptions {
  /** Check this provider instead of the selected one. */
  provider?: ProviderId;
  /** Also run the provider's live probe (OpenAI and Azure OpenAI; may cost money). */
  live?: boolean;
}

type Env = Record<string, string | undefined>;

function isSet(env: Env, name: string): boolean {
  return (env[name]?.trim() ?? '') !== '';
}

function host(url: string): string {
  return URL.canParse(url) ? new URL(url).host : url;
}

/**
 * The checks that read the environment only: the provider choice, then the selected provider's own
 * (its key or instance, its endpoint; never a value), then access variables set for another one.
 */
function configurationChecks(config: EngineConfig, source: DoctorReport['source'], env: Env): DoctorCheck[] {
  const why =
    source === 'default'
      ? 'the default (OPENMATES_PROVIDER is not set)'
      : source === '--provider'
        ? 'chosen with --provider'
        : `OPENMATES_PROVIDER=${config.providers.join(',')}`;
  const chain =
    config.providers.length > 1
      ? `${config.providers.join(', then ')} (a query may reach each, in this order, when the one before fails)`
      : config.provider;
  const checks: DoctorCheck[] = [{ name: 'provider', ok: true, detail: `${chain}: ${why}` }];
  for (const id of config.providers) checks.push(...selectedModule(config, id).configurationChecks(env));
  for (const module of Object.values(config.registry)) {
    const variable = module.accessVariable;
    if (variable && !config.providers.includes(module.id) && isSet(env, variable))
      checks.push({
        name: variable,
        ok: true,
        detail: `set but not used: queries only go to the selected provider (OPENMATES_PROVIDER=${module.id} would use it)`,
      });
  }
  return checks;
}

/** A listed provider's module (default the first), bound to its settings. */
function selectedModule(config: EngineConfig, id: string = config.provider) {
  const registry: ProviderRegistry = config.registry;
  const module = registry[id] as ProviderModule<unknown>;
  const settings = (config.settings as AnyEngineConfig['settings'])[id];
  return {
    configurationChecks: (env: Env) => module.configurationChecks(settings, env),
    liveProbe: module.liveProbe && ((signal: AbortSignal) => module.liveProbe?.(settings, signal) ?? []),
  };
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
  checks.push(...configurationChecks(config, source, env));
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

  // Every listed provider that is configured is still checked when another one is not.
  const { built: providers, missing } = core.buildListedProviders(config);
  for (const error of missing)
    checks.push({
      name: 'provider ready',
      ok: false,
      detail: error.message,
      fix: 'Set what the message names, then run `openmates doctor` again.',
    });
  for (const provider of providers) {
    const signal = AbortSignal.timeout(
      (config as AnyEngineConfig).providerTimeoutsMs[provider.id] ?? config.providerTimeoutMs,
    );
    try {
      if (provider.doctor) checks.push(...(await provider.doctor(signal)));
      else checks.push({ name: 'provider ready', ok: true, detail: `${provider.name} has no reachability check` });
      const live = selectedModule(config, provider.id).liveProbe;
      if (options.live && live) checks.push(...(await live(signal)));
    } finally {
      await provider.close?.();
    }
  }
  const safe = checks.map((check) => ({
    ...check,
    detail: redact(check.detail),
    ...(check.fix === undefined ? {} : { fix: redact(check.fix) }),
  }));
  const report: DoctorReport = {
    provider: config.provider,
    providers: [...config.providers],
    source,
    checks: safe,
    ok: safe.every((c) => c.ok),
  };
  if (redis) report.redis = redis;
  return report;
}
