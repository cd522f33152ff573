import type { BlockList } from 'node:net';
import {
  DEFAULT_FREE_CHAIN_RATE_LIMIT_PER_MIN,
  DEFAULT_RATE_LIMIT_PER_MIN,
  DEFAULT_RATE_LIMIT_WINDOW_S,
  DEFAULT_STREAM_KEEPALIVE_MS,
  once,
} from '@openmates/contract';
import { type EnvTable, tableSchema } from '@openmates/core';
import { z } from 'zod';
import { parseTrustedProxies } from './client-address.ts';

/** Server settings parsed once from the environment. */
export interface ServerConfig {
  /** `OPENMATES_API_KEYS`, comma-separated; empty means no key is required. */
  apiKeys: string[];
  /**
   * `OPENMATES_API_KEYS_FILE`: a JSON file of named keys (their SHA-256, never the key) with their
   * rate limits and quotas, re-read when it changes (ADR 0137); keys are required once it is set.
   */
  apiKeysFile?: string;
  /** `OPENMATES_RATE_LIMIT_PER_MIN`: requests per key and window (default 60; 0 turns the limit off). */
  rateLimit: number;
  /**
   * True when `OPENMATES_RATE_LIMIT_PER_MIN` is unset: without API keys, a chain whose every
   * provider costs nothing then gets `DEFAULT_FREE_CHAIN_RATE_LIMIT_PER_MIN` (ADR 0115).
   */
  rateLimitDefaulted?: boolean;
  /** `OPENMATES_RATE_LIMIT_WINDOW_S`: the limit's window in seconds (default 60). */
  rateLimitWindowS: number;
  /** `OPENMATES_ALLOWED_ORIGINS`, comma-separated origins the MCP endpoint accepts besides the bound names. */
  allowedOrigins: string[];
  /**
   * `OPENMATES_TRUST_PROXY`: the proxies (addresses, CIDR subnets) whose `X-Forwarded-For` names
   * the client for keyless rate limiting (default none: the connection's address counts).
   */
  trustProxy?: BlockList;
  /** `OPENMATES_DRAIN_MS`: how long in-flight searches may run on after SIGTERM (default 10000). */
  drainMs: number;
  /** `OPENMATES_HEADERS_TIMEOUT_MS`: a client must send its request headers within this (default 10000). */
  headersTimeoutMs: number;
  /** `OPENMATES_BODY_TIMEOUT_MS`: a client must send its whole request, body included, within this (default 30000). */
  bodyTimeoutMs: number;
  /** `OPENMATES_STREAM_KEEPALIVE_MS`: interval of the search event stream's keep-alive comments (default 15000). */
  streamKeepAliveMs: number;
}

export const DEFAULT_DRAIN_MS = 10_000;
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/** A whole number from `min` to `max`, `fallback` while unset or blank; `message` when it is not. */
function bounded(fallback: number, min: number, max: number, message: string) {
  return {
    default: String(fallback),
    schema: once(() =>
      z
        .string()
        .optional()
        .transform((s) => (s === undefined || s.trim() === '' ? fallback : Number(s)))
        .refine((n) => Number.isSafeInteger(n) && n >= min && n <= max, { message }),
    ),
  };
}

/** A whole number of milliseconds ≥ 1, `fallback` while unset or blank. */
function milliseconds(name: string, fallback: number) {
  return bounded(fallback, 1, Number.MAX_SAFE_INTEGER, `${name} must be a whole number of milliseconds ≥ 1`);
}

/** A comma-separated list, blanks dropped. */
const commaList = once(() =>
  z
    .string()
    .optional()
    .transform((s) =>
      (s ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    ),
);

/** The server's variables: what `loadServerConfig` parses them with, and what docs/reference.md says of each. */
export const SERVER_ENVIRONMENT = {
  OPENMATES_API_KEYS: {
    description:
      'Comma-separated keys of at least 16 characters: the API then needs `Authorization: Bearer` with one of them, and the GUI asks for one. Without keys, `serve` refuses to bind a non-loopback address.',
    schema: commaList,
  },
  OPENMATES_API_KEYS_FILE: {
    description:
      'A JSON file of named keys: an array of `{ "name", "key_sha256", "rate_limit_per_min"?, "calls_per_day"?, "usd_per_month"? }` (no key in it, only its SHA-256; `openmates keys add` writes it). Its keys work beside `OPENMATES_API_KEYS`; the file is re-read when it changes. See docs/usage-and-quotas.md.',
    schema: once(() => z.string().optional()),
  },
  OPENMATES_RATE_LIMIT_PER_MIN: {
    description:
      'Requests per key (per client address without keys) and window that count against the limit: searches over REST, the stream, tRPC and each MCP `tools/call`; `0` turns the limit off.',
    ...bounded(
      DEFAULT_RATE_LIMIT_PER_MIN,
      0,
      Number.MAX_SAFE_INTEGER,
      'OPENMATES_RATE_LIMIT_PER_MIN must be a whole number ≥ 0 (0 turns the limit off)',
    ),
    default: `${DEFAULT_RATE_LIMIT_PER_MIN}; ${DEFAULT_FREE_CHAIN_RATE_LIMIT_PER_MIN} without API keys when every provider of the chain costs nothing (\`local\`, \`searxng\`)`,
  },
  OPENMATES_RATE_LIMIT_WINDOW_S: {
    description: "The rate limit's window in seconds, 1 to 86400.",
    ...bounded(
      DEFAULT_RATE_LIMIT_WINDOW_S,
      1,
      86_400,
      'OPENMATES_RATE_LIMIT_WINDOW_S must be a whole number of seconds from 1 to 86400',
    ),
  },
  OPENMATES_STREAM_KEEPALIVE_MS: {
    description: "Milliseconds between the search event stream's keep-alive comment lines, 10 to 600000.",
    ...bounded(
      DEFAULT_STREAM_KEEPALIVE_MS,
      10,
      600_000,
      'OPENMATES_STREAM_KEEPALIVE_MS must be a whole number of milliseconds from 10 to 600000',
    ),
  },
  OPENMATES_ALLOWED_ORIGINS: {
    description:
      'Comma-separated origins (`https://app.example.com`) whose browsers may call the API (CORS, never credentials), and which `/mcp` accepts in `Origin` and `Host` besides the names the server is bound to.',
    schema: once(() =>
      commaList().refine((origins) => origins.every(isOrigin), {
        message:
          'OPENMATES_ALLOWED_ORIGINS must be comma-separated origins such as https://app.example.com (scheme, host, optional port; no path)',
      }),
    ),
  },
  OPENMATES_TRUST_PROXY: {
    description:
      "Comma-separated proxy addresses or CIDR subnets whose `X-Forwarded-For` names the client for keyless rate limiting; without it the connection's address counts.",
    schema: once(() => z.string().optional()),
  },
  OPENMATES_DRAIN_MS: {
    description: 'After SIGTERM, how long searches in flight may run on while new work gets 503, in milliseconds.',
    ...milliseconds('OPENMATES_DRAIN_MS', DEFAULT_DRAIN_MS),
  },
  OPENMATES_HEADERS_TIMEOUT_MS: {
    description: 'A client must send its request headers within this many milliseconds, else 408.',
    ...milliseconds('OPENMATES_HEADERS_TIMEOUT_MS', DEFAULT_HEADERS_TIMEOUT_MS),
  },
  OPENMATES_BODY_TIMEOUT_MS: {
    description:
      'A client must send its whole request, body included, within this many milliseconds (at least the headers timeout).',
    ...milliseconds('OPENMATES_BODY_TIMEOUT_MS', DEFAULT_BODY_TIMEOUT_MS),
  },
} as const satisfies EnvTable;

const EnvSchema = tableSchema(SERVER_ENVIRONMENT);

function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text.replace(/\/$/, '');
  } catch {
    return false;
  }
}

/**
 * The process's environment. The server reads `process.env` here and nowhere else (a test over the
 * tree holds each package to its one module); `loadServerConfig` and the engine's `loadConfig`
 * parse it.
 */
export function processEnv(): Record<string, string | undefined> {
  return process.env;
}

/** Parses the server's settings (default from the process's environment); throws an Error whose message names each bad variable. */
export function loadServerConfig(env: Record<string, string | undefined> = processEnv()): ServerConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('\n'));
  const keys = parsed.data.OPENMATES_API_KEYS;
  if (keys.some((k) => k.length < 16)) throw new Error('OPENMATES_API_KEYS: every key must be at least 16 characters');
  const { OPENMATES_HEADERS_TIMEOUT_MS: headersTimeoutMs, OPENMATES_BODY_TIMEOUT_MS: bodyTimeoutMs } = parsed.data;
  if (bodyTimeoutMs < headersTimeoutMs)
    throw new Error(
      'OPENMATES_BODY_TIMEOUT_MS must be at least OPENMATES_HEADERS_TIMEOUT_MS (it includes the headers)',
    );
  const config: ServerConfig = {
    apiKeys: keys,
    rateLimit: parsed.data.OPENMATES_RATE_LIMIT_PER_MIN,
    rateLimitDefaulted: (env.OPENMATES_RATE_LIMIT_PER_MIN ?? '').trim() === '',
    rateLimitWindowS: parsed.data.OPENMATES_RATE_LIMIT_WINDOW_S,
    allowedOrigins: parsed.data.OPENMATES_ALLOWED_ORIGINS,
    drainMs: parsed.data.OPENMATES_DRAIN_MS,
    headersTimeoutMs,
    bodyTimeoutMs,
    streamKeepAliveMs: parsed.data.OPENMATES_STREAM_KEEPALIVE_MS,
  };
  const keysFile = parsed.data.OPENMATES_API_KEYS_FILE?.trim();
  if (keysFile) config.apiKeysFile = keysFile;
  const proxies = parseTrustedProxies(parsed.data.OPENMATES_TRUST_PROXY);
  if (proxies) config.trustProxy = proxies;
  return config;
}
