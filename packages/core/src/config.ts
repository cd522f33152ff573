import {
  DEFAULT_ANTHROPIC_TIMEOUT_MS,
  DEFAULT_CACHE_TTL_S,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_SOURCES,
  DEFAULT_OPENAI_TIMEOUT_MS,
  DEFAULT_PROVIDER,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  DEFAULT_REDIS_PREFIX,
  DEFAULT_REDIS_TIMEOUT_MS,
  DEFAULT_REQUEST_DEADLINE_MS,
  DEFAULT_SEARXNG_TIMEOUT_MS,
  MIN_MAX_RESPONSE_BYTES,
  once,
} from '@openmates/contract';
import { z } from 'zod';
import { processEnv } from './env.ts';
import { type PriceOverrides, priceOverrides, pricesNotUnderstood } from './prices.ts';
import type { ProviderRegistry, RegistryId, SettingsOf } from './providers/provider-module.ts';
import { PROVIDER_MODULES, type Providers } from './providers/registry.ts';
import {
  blankToUndefined,
  ConfigError,
  type Env,
  type EnvTable,
  readEnv,
  secret,
  wholeNumber,
  withDefault,
  withReader,
} from './shared/env-schema.ts';
import { providerRates, ratesNotUnderstood } from './shared/provider-rates.ts';

export { ConfigError } from './shared/env-schema.ts';

/**
 * The engine's configuration, parsed once from the environment by `loadConfig` against a registry
 * of providers (`PROVIDER_MODULES`, whose ids are the contract's; a test's may add one: ADR 0114).
 */
export interface EngineConfig<R extends ProviderRegistry = Providers> extends AnyEngineConfig {
  registry: R;
  provider: RegistryId<R>;
  providers: RegistryId<R>[];
  settings: SettingsOf<R>;
  providerTimeoutsMs: { [K in RegistryId<R>]?: number };
  providerRatesPerS: { [K in RegistryId<R>]?: number };
}

/** A configuration read against any registry: what the engine and the registry's functions take. */
export interface AnyEngineConfig {
  /** The providers it was read against; the engine builds and tells apart the chain's members with it. */
  registry: ProviderRegistry;
  /** The first provider of the chain: the one every group goes to first (`OPENMATES_PROVIDER`, default `local`). */
  provider: string;
  /**
   * The chain, in order (`OPENMATES_PROVIDER=brave,searxng,local`); its first is `provider`. A group
   * goes to the next one only when a call fails as the provider's fault (docs/providers/failover.md).
   */
  providers: readonly string[];
  /** Where the choice came from, for `openmates doctor`. */
  providerSource: 'OPENMATES_PROVIDER' | 'default';
  /** Each provider's own settings by id, read by its module (whichever is selected). */
  settings: { readonly [id: string]: unknown };
  /** Per call of the first provider, retries included (default 10000; 45000 for openai; 15000 for searxng). */
  providerTimeoutMs: number;
  /**
   * Per call of each provider of the chain: `OPENMATES_PROVIDER_TIMEOUT_MS` for every one when set,
   * else each provider's own default.
   */
  providerTimeoutsMs: { readonly [id: string]: number | undefined };
  /**
   * No new attempt for a group starts this long after the request began
   * (`OPENMATES_REQUEST_DEADLINE_MS`, default 30000).
   */
  requestDeadlineMs: number;
  /** Response cache lifetime; 0 turns the cache off (default 300). */
  cacheTtlS: number;
  /** Distinct result URLs admitted per invocation (default 100). */
  maxSources: number;
  /**
   * Ceiling of a serialized response, in UTF-8 bytes and in UTF-16 units (default 262144; at least
   * MIN_MAX_RESPONSE_BYTES, so that a response without results always fits).
   */
  maxResponseBytes: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /**
   * Calls per second to the provider, all replicas together, spaced evenly
   * (`OPENMATES_PROVIDER_RATE_PER_S`, may be fractional; default none).
   */
  providerRatePerS?: number;
  /**
   * Each provider's rate (`OPENMATES_PROVIDER_RATE_PER_S=brave=1,searxng=5`; one number is the
   * first provider's). A provider not named here is not spaced.
   */
  providerRatesPerS: { readonly [id: string]: number | undefined };
  /** US dollars per billed unit, over the providers' own prices (`OPENMATES_PRICES`, docs/usage-and-quotas.md). */
  prices?: PriceOverrides;
  /** Shared state for several replicas (docs/deploy.md); absent: everything stays in process. */
  redis?: RedisConfig;
}

/** Where replicas share state: `OPENMATES_REDIS_*`. */
export interface RedisConfig {
  /** `OPENMATES_REDIS_URL`, `redis://` or `rediss://`; its password is a secret. */
  url: string;
  /** `OPENMATES_REDIS_SECRET`: the HMAC key of every identity and cache key stored. */
  secret: string;
  /** `OPENMATES_REDIS_TIMEOUT_MS`, per command (default 100). */
  timeoutMs: number;
  /** `OPENMATES_REDIS_PREFIX`, before every key (default `openmates:`). */
  prefix: string;
}

const redisUrl = once(() =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((s) => URL.canParse(s) && /^rediss?:$/.test(new URL(s).protocol), {
        message: 'OPENMATES_REDIS_URL must be a redis:// or rediss:// URL',
      })
      .optional(),
  ),
);

/**
 * The names `brave` or `brave,searxng,local` lists, lowercased, or what is wrong with it (a name
 * given twice). Whether each is a provider is `loadConfig`'s to say, against its registry.
 */
function readChain(text: string): { ids: string[] } | { problem: string } {
  const ids = text.split(',').map((id) => id.trim().toLowerCase());
  const twice = ids.find((id, i) => id !== '' && ids.indexOf(id) !== i);
  if (twice !== undefined) return { problem: `OPENMATES_PROVIDER lists ${twice} twice` };
  return { ids };
}

const providerChain = withReader(
  once(() =>
    z.preprocess(
      blankToUndefined,
      z
        .string()
        .transform((text, ctx): string[] => {
          const chain = readChain(text);
          if ('ids' in chain) return chain.ids;
          ctx.addIssue({ code: 'custom', message: chain.problem });
          return [];
        })
        .optional(),
    ),
  ),
  (raw) => {
    const chain = raw.trim() === '' ? undefined : readChain(raw);
    return chain && 'ids' in chain ? chain.ids : undefined;
  },
);

const lowercased = (v: unknown) =>
  typeof blankToUndefined(v) === 'string' ? String(v).trim().toLowerCase() : undefined;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The provider selection, read with the providers' own variables (`PROVIDER_MODULES[id].environment`). */
export const SELECTION_ENVIRONMENT = {
  OPENMATES_PROVIDER: {
    description: `Which provider answers: ${Object.keys(PROVIDER_MODULES)
      .map((id) => `\`${id}\``)
      .join(
        ', ',
      )}, or several in order (\`brave,searxng,local\`): a query goes to the next one when the one before fails it, and every answer says who answered each query (docs/providers/failover.md). A query only goes to a third party listed here, but may reach each one listed; a key that is set but not listed is reported by \`openmates doctor\`, never used.`,
    default: DEFAULT_PROVIDER,
    schema: providerChain,
  },
} as const satisfies EnvTable;

/** The engine's own variables: its bounds, its cache, its logs, and Redis for several replicas. */
export const ENGINE_ENVIRONMENT = {
  OPENMATES_PROVIDER_TIMEOUT_MS: {
    description: 'Milliseconds per provider call, retries included (SearXNG: per page).',
    default: `${DEFAULT_PROVIDER_TIMEOUT_MS}; ${DEFAULT_OPENAI_TIMEOUT_MS} for \`openai\`; ${DEFAULT_SEARXNG_TIMEOUT_MS} for \`searxng\`; ${DEFAULT_ANTHROPIC_TIMEOUT_MS} for \`anthropic\``,
    schema: wholeNumber('OPENMATES_PROVIDER_TIMEOUT_MS', 1),
  },
  OPENMATES_CACHE_TTL_S: {
    description: 'Lifetime of a cached answer in seconds; `0` turns the response cache off.',
    ...withDefault(wholeNumber('OPENMATES_CACHE_TTL_S', 0), DEFAULT_CACHE_TTL_S),
  },
  OPENMATES_MAX_SOURCES: {
    description: 'Distinct result URLs admitted per request, across its queries.',
    ...withDefault(wholeNumber('OPENMATES_MAX_SOURCES', 1), DEFAULT_MAX_SOURCES),
  },
  OPENMATES_MAX_RESPONSE_BYTES: {
    description: `Ceiling of a serialized response, in UTF-8 bytes and in UTF-16 units (at least ${MIN_MAX_RESPONSE_BYTES}, so that a response without results always fits).`,
    ...withDefault(wholeNumber('OPENMATES_MAX_RESPONSE_BYTES', MIN_MAX_RESPONSE_BYTES), DEFAULT_MAX_RESPONSE_BYTES),
  },
  OPENMATES_PROVIDER_RATE_PER_S: {
    description:
      "Calls per second to a provider, evenly spaced, all replicas together; may be fractional (`1` for Brave's free plan). One number is the first provider's; `brave=1,searxng=5` sets each provider's.",
    schema: providerRates,
  },
  OPENMATES_PRICES: {
    description:
      "US dollars per billed unit, by provider, over each provider's own price (docs/usage-and-quotas.md): `brave=0.005,openai=0.01`. Every answer's `usage` estimates its cost from them.",
    schema: priceOverrides,
  },
  OPENMATES_REQUEST_DEADLINE_MS: {
    description:
      'Milliseconds from the start of a request after which no new provider attempt starts (with several providers listed, no further failover).',
    ...withDefault(wholeNumber('OPENMATES_REQUEST_DEADLINE_MS', 1), DEFAULT_REQUEST_DEADLINE_MS),
  },
  OPENMATES_REDIS_URL: {
    description:
      "`redis://` or `rediss://`: replicas share rate limits, the cache, the provider's rate and its 429 pauses there (docs/deploy.md); without it everything stays in process. Its password is a secret.",
    schema: redisUrl,
  },
  OPENMATES_REDIS_SECRET: {
    description:
      'Required with `OPENMATES_REDIS_URL`: the key (at least 16 characters, the same on every replica) of the HMAC that every stored identity and cache key goes through.',
    schema: secret,
  },
  OPENMATES_REDIS_TIMEOUT_MS: {
    description: 'Milliseconds per Redis command.',
    ...withDefault(wholeNumber('OPENMATES_REDIS_TIMEOUT_MS', 1), DEFAULT_REDIS_TIMEOUT_MS),
  },
  OPENMATES_REDIS_PREFIX: {
    description: 'Before every Redis key: 1–64 letters, digits or `:` `.` `_` `-`.',
    ...withDefault(
      once(() =>
        z.preprocess(
          blankToUndefined,
          z
            .string()
            .regex(/^[A-Za-z0-9:._-]{1,64}$/, {
              message: 'OPENMATES_REDIS_PREFIX must be 1-64 letters, digits or : . _ -',
            })
            .optional(),
        ),
      ),
      DEFAULT_REDIS_PREFIX,
    ),
  },
  OPENMATES_LOG_LEVEL: {
    description: `Level of the JSON log lines on stderr: ${LOG_LEVELS.join(', ')}.`,
    ...withDefault(
      withReader(
        once(() =>
          z.preprocess(
            lowercased,
            z.enum(LOG_LEVELS, { message: `OPENMATES_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).optional(),
          ),
        ),
        (raw) => LOG_LEVELS.find((level) => level === lowercased(raw)),
      ),
      'info',
      '`info` (`openmates` commands other than `serve`: `silent`)',
    ),
  },
} as const satisfies EnvTable;

/**
 * Parses the engine's settings from an environment (default the process's) against a registry of
 * providers (default `PROVIDER_MODULES`): the selection, every provider's own variables (each
 * provider's module reads them), then the engine's. Throws a ConfigError listing every bad
 * variable, one per line.
 */
export function loadConfig(env?: Env): EngineConfig;
export function loadConfig<R extends ProviderRegistry>(env: Env, registry: R): EngineConfig<R>;
export function loadConfig(env: Env = processEnv(), registry: ProviderRegistry = PROVIDER_MODULES): AnyEngineConfig {
  const issues: string[] = [];
  /** Runs one parser, keeping its issues so that every bad variable is reported at once. */
  const read = <T>(parse: () => T): T | undefined => {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      issues.push(error.message);
      return undefined;
    }
  };
  const known = (id: string) => Object.hasOwn(registry, id);
  const selection = readEnv(SELECTION_ENVIRONMENT, env);
  if (!selection.ok) issues.push(...selection.issues);
  else if (selection.data.OPENMATES_PROVIDER?.some((id) => !known(id)))
    issues.push(
      `OPENMATES_PROVIDER must be one of ${Object.keys(registry).join(', ')}, or several of them in order separated by commas`,
    );
  const settings = Object.fromEntries(
    Object.entries(registry).map(([id, module]) => [id, read(() => module.parse(env))]),
  );
  const unread = Object.values(settings).includes(undefined);
  const parsed = readEnv(ENGINE_ENVIRONMENT, env);
  if (!parsed.ok) issues.push(...parsed.issues);
  else {
    const rates = parsed.data.OPENMATES_PROVIDER_RATE_PER_S;
    const stranger = typeof rates === 'object' ? Object.entries(rates).find(([id]) => !known(id)) : undefined;
    if (stranger) issues.push(ratesNotUnderstood(stranger.join('=')));
    const unpriced = Object.entries(parsed.data.OPENMATES_PRICES ?? {}).find(([id]) => !known(id));
    if (unpriced) issues.push(pricesNotUnderstood(unpriced.join('='), Object.keys(registry)));
  }
  if (!selection.ok || !parsed.ok || unread || issues.length > 0) throw new ConfigError(issues.join('\n'));
  const e = parsed.data;
  if (e.OPENMATES_REDIS_URL && !e.OPENMATES_REDIS_SECRET)
    throw new ConfigError(
      'OPENMATES_REDIS_SECRET is required with OPENMATES_REDIS_URL (a long random string shared by every replica)',
    );
  if (e.OPENMATES_REDIS_SECRET && e.OPENMATES_REDIS_SECRET.length < 16)
    throw new ConfigError('OPENMATES_REDIS_SECRET must be at least 16 characters');
  const chosen = selection.data.OPENMATES_PROVIDER;
  const providers = chosen ?? [DEFAULT_PROVIDER];
  const provider = providers[0] ?? DEFAULT_PROVIDER;
  const timeoutOf = (id: string) => e.OPENMATES_PROVIDER_TIMEOUT_MS ?? registry[id]?.defaultTimeoutMs ?? 0;
  const rates = e.OPENMATES_PROVIDER_RATE_PER_S;
  const providerRatesPerS: Record<string, number> = typeof rates === 'number' ? { [provider]: rates } : { ...rates };
  const stray = Object.keys(providerRatesPerS).find((id) => !providers.includes(id));
  if (stray !== undefined)
    throw new ConfigError(
      `OPENMATES_PROVIDER_RATE_PER_S names ${stray}, which OPENMATES_PROVIDER does not list (${providers.join(',')})`,
    );
  const providerTimeoutsMs: Record<string, number> = {};
  for (const id of providers) providerTimeoutsMs[id] = timeoutOf(id);
  const config: AnyEngineConfig & { providerRatePerS?: number; redis?: RedisConfig } = {
    registry,
    provider,
    providers,
    providerSource: chosen ? 'OPENMATES_PROVIDER' : 'default',
    settings,
    providerTimeoutMs: timeoutOf(provider),
    providerTimeoutsMs,
    requestDeadlineMs: e.OPENMATES_REQUEST_DEADLINE_MS,
    providerRatesPerS,
    cacheTtlS: e.OPENMATES_CACHE_TTL_S,
    maxSources: e.OPENMATES_MAX_SOURCES,
    maxResponseBytes: e.OPENMATES_MAX_RESPONSE_BYTES,
    logLevel: e.OPENMATES_LOG_LEVEL,
  };
  if (e.OPENMATES_PRICES) config.prices = e.OPENMATES_PRICES;
  const firstRate = providerRatesPerS[provider];
  if (firstRate !== undefined) config.providerRatePerS = firstRate;
  if (e.OPENMATES_REDIS_URL && e.OPENMATES_REDIS_SECRET)
    config.redis = {
      url: e.OPENMATES_REDIS_URL,
      secret: e.OPENMATES_REDIS_SECRET,
      timeoutMs: e.OPENMATES_REDIS_TIMEOUT_MS,
      prefix: e.OPENMATES_REDIS_PREFIX,
    };
  return config;
}

/** The password of a Redis URL, as written and percent-decoded (the user name is not a secret). */
function redisCredentials(url: string): string[] {
  const { password } = new URL(url);
  if (password === '') return [];
  const decoded = decodeURIComponent(password);
  return decoded === password ? [password] : [password, decoded];
}

/** Every secret the configuration holds; redaction replaces each of them in anything outgoing. */
export function configSecrets(config: AnyEngineConfig): string[] {
  return [
    ...Object.entries(config.registry).flatMap(([id, module]) =>
      Object.hasOwn(config.settings, id) ? module.secrets(config.settings[id]) : [],
    ),
    config.redis?.secret,
    ...(config.redis ? redisCredentials(config.redis.url) : []),
  ].filter((s): s is string => typeof s === 'string' && s !== '');
}
