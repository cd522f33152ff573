// Test support for this package's tests: not exported from index.ts.
import {
  createEngine,
  createLogger,
  type Engine,
  type EngineObserver,
  lineCollector,
  loadConfig,
  type SearchProvider,
} from '@openmates/core';
import type { BraveFixture } from '@openmates/fixtures';
import { loadServerConfig } from './env.ts';
import { type ApiHandler, createHandler } from './handler.ts';
import { createServerMetrics, type ServerMetrics } from './metrics.ts';
import { type ListenOptions, listen, type RunningServer } from './node-server.ts';
import { createServerProvider } from './server-provider.ts';

export interface TestServer {
  /** The server's origin, e.g. `http://127.0.0.1:PORT`. */
  url: string;
  running: RunningServer;
  engine: Engine;
  handler: ApiHandler;
  /** The metrics `/metrics` exposes, wired to the engine. */
  metrics: ServerMetrics;
  /** Every log line the engine and the server wrote. */
  logs: string[];
  close(): Promise<void>;
}

/**
 * An engine on the Brave fixture (cache off unless `engineEnv` sets it), or on `provider` when
 * given, with logs captured; reporting to `observer` when given.
 */
export function testEngine(
  brave: BraveFixture,
  provider?: SearchProvider,
  observer?: EngineObserver,
  engineEnv: Record<string, string> = {},
): { engine: Engine; logs: string[] } {
  const config = loadConfig({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    OPENMATES_CACHE_TTL_S: '0',
    ...engineEnv,
  });
  const logs: string[] = [];
  const destination = lineCollector(logs);
  const engine = createEngine({
    config,
    provider: provider ?? createServerProvider(config),
    // The engine's own redaction stays on: tests prove that secrets never leave, logs included.
    logger: createLogger({ level: 'info', redact: (s) => s.replaceAll(brave.apiKey, '[redacted]'), destination }),
    sleep: async () => {},
    ...(observer ? { observer } : {}),
  });
  return { engine, logs };
}

/**
 * Starts the real server (node:http on 127.0.0.1, port 0) over an engine on the Brave fixture.
 * `env` holds server settings; the rate limit is off unless `env` sets it.
 */
export async function startTestServer(
  brave: BraveFixture,
  options: {
    env?: Record<string, string>;
    engineEnv?: Record<string, string>;
    provider?: SearchProvider;
    listen?: Partial<ListenOptions>;
  } = {},
): Promise<TestServer> {
  const metrics = createServerMetrics();
  const { engine, logs } = testEngine(brave, options.provider, metrics.engine, options.engineEnv);
  const config = loadServerConfig({ OPENMATES_RATE_LIMIT_PER_MIN: '0', ...options.env });
  const handler = createHandler({ engine, version: '0.0.0-test', config, metrics });
  const running = await listen(handler, { ...options.listen, host: '127.0.0.1', port: 0 });
  return {
    url: running.url,
    running,
    engine,
    handler,
    metrics,
    logs,
    async close() {
      await running.close(1_000);
      await engine.close();
    },
  };
}

/** A provider that implements the interface and fails every search with `error`. */
export function failingProvider(error: () => Error): SearchProvider {
  return {
    id: 'local',
    name: 'Failing test provider',
    recipient: 'this machine',
    honoured: ['count'],
    unsupported: [],
    validate: () => [],
    search: async () => {
      throw error();
    },
  };
}
