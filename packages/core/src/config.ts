import {
  DEFAULT_CACHE_TTL_S,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_SOURCES,
  DEFAULT_OPENAI_TIMEOUT_MS,
  DEFAULT_PROVIDER,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  DEFAULT_REDIS_PREFIX,
  DEFAULT_REDIS_TIMEOUT_MS,
  DEFAULT_SEARXNG_TIMEOUT_MS,
  MIN_MAX_RESPONSE_BYTES,
  PROVIDER_IDS,
  type ProviderId,
} from '@openmates/contract';
import { z } from 'zod';

/** Default endpoints of the third-party providers (SPEC §3). */
export const DEFAULT_BRAVE_BASE_URL = 'https://api.search.brave.com/res/v1';
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_OPENAI_MODEL = 'gpt-5.4';

/** The engine's configuration, parsed once from the environment by `loadConfig`. */
export interface EngineConfig {
  /** Which provider answers (`OPENMATES_PROVIDER`, default `local`). */
  provider: ProviderId;
  /** Where the choice came from, for `openmates doctor`. */
  providerSource: 'OPENMATES_PROVIDER' | 'default';
  brave: { apiKey?: string; baseUrl: string };
  openai: { apiKey?: string; baseUrl: string; model: string };
  local: { indexPath?: string };
  /**
   * `SEARXNG_BASE_URL` split into the instance's URL (sub-path kept, no credentials) and its
   * basic-auth credentials, which are secrets.
   */
  searxng: { baseUrl?: string; username?: string; password?: string };
  /** Per provider call, retries included (default 10000; 45000 for openai; 15000 for searxng). */
  providerTimeoutMs: number;
  /** Response cache lifetime; 0 turns the cache off (default 300). */
  cacheTtlS: number;
  /** Distinct result URLs admitted per invocation (default 100). */
  maxSources: number;
  /**
   * Ceiling of a serialized response, in UTF-8 bytes and in UTF-16 units (default 262144; at least
   * MIN_MAX_RESPONSE_BYTES, so that a response without results always fits).
   */
  maxResponseBytes: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * Calls per second to the provider, all replicas together, spaced evenly
   * (`OPENMATES_PROVIDER_RATE_PER_S`, may be fractional; default none).
   */
  providerRatePerS?: number;
  /** Shared state for several replicas (SPEC §8.1); absent: everything stays in process. */
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

/** A configuration value is wrong; the message names the variable and never echoes a secret. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const wholeNumber = (name: string, min: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d+$/, { message: `${name} must be a whole number ≥ ${min}` })
      .transform(Number)
      .refine((n) => n >= min && Number.isSafeInteger(n), { message: `${name} must be a whole number ≥ ${min}` })
      .optional(),
  );

const httpUrl = (name: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), {
        message: `${name} must be an http(s) URL`,
      })
      .transform((s) => s.replace(/\/+$/, ''))
      .optional(),
  );

const secret = z.preprocess(blankToUndefined, z.string().optional());

const redisUrl = z.preprocess(
  blankToUndefined,
  z
    .string()
    .refine((s) => URL.canParse(s) && /^rediss?:$/.test(new URL(s).protocol), {
      message: 'OPENMATES_REDIS_URL must be a redis:// or rediss:// URL',
    })
    .optional(),
);

const positiveRate = z.preprocess(
  blankToUndefined,
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, { message: 'OPENMATES_PROVIDER_RATE_PER_S must be a number > 0 (calls per second)' })
    .transform(Number)
    .refine((n) => n > 0 && Number.isFinite(n), {
      message: 'OPENMATES_PROVIDER_RATE_PER_S must be a number > 0 (calls per second)',
    })
    .optional(),
);

const EnvSchema = z.object({
  OPENMATES_PROVIDER: z.preprocess(
    (v) => (typeof blankToUndefined(v) === 'string' ? String(v).trim().toLowerCase() : undefined),
    z.enum(PROVIDER_IDS, { message: `OPENMATES_PROVIDER must be one of ${PROVIDER_IDS.join(', ')}` }).optional(),
  ),
  BRAVE_SEARCH_API_KEY: secret,
  BRAVE_API_KEY: secret,
  BRAVE_SEARCH_BASE_URL: httpUrl('BRAVE_SEARCH_BASE_URL'),
  OPENAI_API_KEY: secret,
  OPENAI_BASE_URL: httpUrl('OPENAI_BASE_URL'),
  OPENMATES_OPENAI_SEARCH_MODEL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,100}$/, {
        message: 'OPENMATES_OPENAI_SEARCH_MODEL must be a model id such as gpt-5.4',
      })
      .optional(),
  ),
  OPENMATES_INDEX: z.preprocess(blankToUndefined, z.string().optional()),
  SEARXNG_BASE_URL: httpUrl('SEARXNG_BASE_URL'),
  OPENMATES_PROVIDER_TIMEOUT_MS: wholeNumber('OPENMATES_PROVIDER_TIMEOUT_MS', 1),
  OPENMATES_CACHE_TTL_S: wholeNumber('OPENMATES_CACHE_TTL_S', 0),
  OPENMATES_MAX_SOURCES: wholeNumber('OPENMATES_MAX_SOURCES', 1),
  OPENMATES_MAX_RESPONSE_BYTES: wholeNumber('OPENMATES_MAX_RESPONSE_BYTES', MIN_MAX_RESPONSE_BYTES),
  OPENMATES_PROVIDER_RATE_PER_S: positiveRate,
  OPENMATES_REDIS_URL: redisUrl,
  OPENMATES_REDIS_SECRET: secret,
  OPENMATES_REDIS_TIMEOUT_MS: wholeNumber('OPENMATES_REDIS_TIMEOUT_MS', 1),
  OPENMATES_REDIS_PREFIX: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9:._-]{1,64}$/, {
        message: 'OPENMATES_REDIS_PREFIX must be 1-64 letters, digits or : . _ -',
      })
      .optional(),
  ),
  OPENMATES_LOG_LEVEL: z.preprocess(
    (v) => (typeof blankToUndefined(v) === 'string' ? String(v).trim().toLowerCase() : undefined),
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        message: 'OPENMATES_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .optional(),
  ),
});

/**
 * Parses the engine's settings from an environment (default `process.env`). Throws a ConfigError
 * listing every bad variable, one per line.
 */
/**
 * The variable the Brave key is read from: `BRAVE_SEARCH_API_KEY`, or `BRAVE_API_KEY` (the name
 * Brave's own MCP server reads) when only that one is set; undefined when neither is.
 */
export function braveKeyVariable(env: Record<string, string | undefined>): string | undefined {
  for (const name of ['BRAVE_SEARCH_API_KEY', 'BRAVE_API_KEY']) if ((env[name]?.trim() ?? '') !== '') return name;
  return undefined;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): EngineConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message).join('\n'));
  const e = parsed.data;
  if (e.OPENMATES_REDIS_URL && !e.OPENMATES_REDIS_SECRET)
    throw new ConfigError(
      'OPENMATES_REDIS_SECRET is required with OPENMATES_REDIS_URL (a long random string shared by every replica)',
    );
  if (e.OPENMATES_REDIS_SECRET && e.OPENMATES_REDIS_SECRET.length < 16)
    throw new ConfigError('OPENMATES_REDIS_SECRET must be at least 16 characters');
  const provider = e.OPENMATES_PROVIDER ?? DEFAULT_PROVIDER;
  const config: EngineConfig = {
    provider,
    providerSource: e.OPENMATES_PROVIDER ? 'OPENMATES_PROVIDER' : 'default',
    brave: { baseUrl: e.BRAVE_SEARCH_BASE_URL ?? DEFAULT_BRAVE_BASE_URL },
    openai: {
      baseUrl: e.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL,
      model: e.OPENMATES_OPENAI_SEARCH_MODEL ?? DEFAULT_OPENAI_MODEL,
    },
    local: {},
    searxng: e.SEARXNG_BASE_URL === undefined ? {} : splitCredentials(e.SEARXNG_BASE_URL),
    providerTimeoutMs: e.OPENMATES_PROVIDER_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS[provider],
    cacheTtlS: e.OPENMATES_CACHE_TTL_S ?? DEFAULT_CACHE_TTL_S,
    maxSources: e.OPENMATES_MAX_SOURCES ?? DEFAULT_MAX_SOURCES,
    maxResponseBytes: e.OPENMATES_MAX_RESPONSE_BYTES ?? DEFAULT_MAX_RESPONSE_BYTES,
    logLevel: e.OPENMATES_LOG_LEVEL ?? 'info',
  };
  const braveKey = e.BRAVE_SEARCH_API_KEY ?? e.BRAVE_API_KEY;
  if (braveKey) config.brave.apiKey = braveKey;
  if (e.OPENAI_API_KEY) config.openai.apiKey = e.OPENAI_API_KEY;
  if (e.OPENMATES_INDEX) config.local.indexPath = e.OPENMATES_INDEX;
  if (e.OPENMATES_PROVIDER_RATE_PER_S !== undefined) config.providerRatePerS = e.OPENMATES_PROVIDER_RATE_PER_S;
  if (e.OPENMATES_REDIS_URL && e.OPENMATES_REDIS_SECRET)
    config.redis = {
      url: e.OPENMATES_REDIS_URL,
      secret: e.OPENMATES_REDIS_SECRET,
      timeoutMs: e.OPENMATES_REDIS_TIMEOUT_MS ?? DEFAULT_REDIS_TIMEOUT_MS,
      prefix: e.OPENMATES_REDIS_PREFIX ?? DEFAULT_REDIS_PREFIX,
    };
  return config;
}

const DEFAULT_TIMEOUT_MS: Record<ProviderId, number> = {
  local: DEFAULT_PROVIDER_TIMEOUT_MS,
  brave: DEFAULT_PROVIDER_TIMEOUT_MS,
  openai: DEFAULT_OPENAI_TIMEOUT_MS,
  searxng: DEFAULT_SEARXNG_TIMEOUT_MS,
};

/** An instance URL without its `user:password@` part, and the credentials it carried (decoded). */
function splitCredentials(raw: string): EngineConfig['searxng'] {
  const url = new URL(raw);
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const out: EngineConfig['searxng'] = {};
  if (url.username !== '') out.username = decode(url.username);
  if (url.password !== '') out.password = decode(url.password);
  url.username = '';
  url.password = '';
  out.baseUrl = url.href.replace(/\/+$/, '');
  return out;
}

/** The `Authorization` value for basic-auth credentials (RFC 7617, UTF-8). */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** The password of a Redis URL, as written and percent-decoded (the user name is not a secret). */
function redisCredentials(url: string): string[] {
  const { password } = new URL(url);
  if (password === '') return [];
  const decoded = decodeURIComponent(password);
  return decoded === password ? [password] : [password, decoded];
}

/** Every secret the configuration holds; redaction replaces each of them in anything outgoing. */
export function configSecrets(config: EngineConfig): string[] {
  const { username, password } = config.searxng;
  // A SearXNG password is a secret as typed, as `user:password` and inside the Authorization header.
  const searxng =
    password === undefined
      ? []
      : [
          password,
          `${username ?? ''}:${password}`,
          basicAuthorization(username ?? '', password).slice('Basic '.length),
        ];
  return [
    config.brave.apiKey,
    config.openai.apiKey,
    ...searxng,
    config.redis?.secret,
    ...(config.redis ? redisCredentials(config.redis.url) : []),
  ].filter((s): s is string => typeof s === 'string' && s !== '');
}
