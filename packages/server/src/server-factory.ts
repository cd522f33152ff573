import { DEFAULT_HOST } from '@openmates/contract';
import {
  type AnyEngineConfig,
  type Clock,
  configSecrets,
  connectRedis,
  createEngine,
  createLogger,
  createRedactor,
  type Engine,
  type Logger,
  loadConfig,
  type SearchProvider,
} from '@openmates/core';
import { loadServerConfig, processEnv, type ServerConfig } from './env.ts';
import { type ApiHandler, createHandler, type NodeFallback } from './handler.ts';
import { createServerMetrics, type ServerMetrics } from './metrics.ts';
import { type ListenOptions, listen, type RunningServer } from './node-server.ts';
import { createServerProvider } from './server-provider.ts';

/** Everything a server is configured by: the engine's settings and the server's, both parsed. */
export interface ServerSettings {
  engine: AnyEngineConfig;
  server: ServerConfig;
}

/**
 * Parses both halves of a server's settings from one environment. Throws the server's Error or the
 * engine's ConfigError as each parser does (the server's first).
 */
export function loadServerSettings(env: Record<string, string | undefined> = processEnv()): ServerSettings {
  const server = loadServerConfig(env);
  return { engine: loadConfig(env), server };
}

/** How `createServer` builds and binds, beyond the settings. */
export interface ServerFactoryOptions {
  /** Reported in skill info. */
  version: string;
  /** Where to bind (default the loopback address, port 0: a free port). */
  host?: string;
  port?: number;
  /** Answers every path the API does not own: the web GUI, which the caller loads (the CLI, the GUI's tests). */
  gui?: NodeFallback;
  /**
   * The engine's logger; default JSON lines on stderr at the configured level, every secret of the
   * configuration and every API key redacted. Redis reports its state changes here too.
   */
  logger?: Logger;
  /** How long the start waits for Redis's first answer (default 1000 ms); unreachable is not fatal. */
  redisSettleMs?: number;
  /** Test-only: the engine's sleep between retries (default a real timer). */
  sleep?: Clock['sleep'];
  /**
   * Test-only: a provider built by the test instead of the configured one, for failures no fixture
   * server can produce (a provider that throws a programming error).
   */
  provider?: SearchProvider;
  /** Test-only: the listener's timeouts instead of the configured ones. */
  listen?: Partial<Pick<ListenOptions, 'headersTimeoutMs' | 'bodyTimeoutMs'>>;
}

/** A configured server, listening. */
export interface OpenMatesServer {
  /** Its origin, e.g. `http://127.0.0.1:PORT`. */
  url: string;
  engine: Engine;
  handler: ApiHandler;
  /** What `/metrics` exposes, wired to the engine. */
  metrics: ServerMetrics;
  running: RunningServer;
  /**
   * Stops accepting, lets in-flight searches finish for up to `drainMs` (default the configured
   * drain), then closes the engine (its provider and Redis).
   */
  close(drainMs?: number): Promise<void>;
}

/**
 * The server `openmates serve` runs, from parsed settings: the provider as a server builds it
 * (undici), Redis when configured, the engine with the server's API keys among its secrets and its
 * metrics wired, the handler (which starts preparing the provider, so `/readyz` turns 200 once
 * that is done), the GUI mounted when given, and the node:http listener.
 *
 * Throws ConfigError or ProviderNotConfiguredError before anything is started, and the listener's
 * error (EADDRINUSE…) after closing the engine.
 */
export async function createServer(settings: ServerSettings, options: ServerFactoryOptions): Promise<OpenMatesServer> {
  const { engine: config, server: serverConfig } = settings;
  const provider = options.provider ?? createServerProvider(config);
  const logger =
    options.logger ??
    createLogger({
      level: config.logLevel,
      redact: createRedactor([...configSecrets(config), ...serverConfig.apiKeys]),
    });
  const metrics = createServerMetrics();
  // Started unreachable is not fatal: replicas serve on in-process stand-ins until Redis answers.
  const redis = config.redis ? await connectRedis(config.redis, logger) : undefined;
  await redis?.settled(options.redisSettleMs ?? 1_000);
  const engine = createEngine({
    config,
    provider,
    logger,
    extraSecrets: serverConfig.apiKeys,
    ...(redis ? { redis } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    observer: metrics.engine,
  });
  const host = options.host ?? DEFAULT_HOST;
  const handler = createHandler({
    engine,
    version: options.version,
    config: serverConfig,
    host,
    metrics,
    ...(options.gui ? { gui: options.gui } : {}),
  });
  let running: RunningServer;
  try {
    running = await listen(handler, {
      host,
      port: options.port ?? 0,
      headersTimeoutMs: options.listen?.headersTimeoutMs ?? serverConfig.headersTimeoutMs,
      bodyTimeoutMs: options.listen?.bodyTimeoutMs ?? serverConfig.bodyTimeoutMs,
    });
  } catch (error) {
    await engine.close();
    throw error;
  }
  return {
    url: running.url,
    engine,
    handler,
    metrics,
    running,
    async close(drainMs = serverConfig.drainMs) {
      await running.close(drainMs);
      await engine.close();
    },
  };
}
