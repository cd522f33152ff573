// A real server on the Brave fixture, for this package's tests and those built on it.
import {
  createEngine,
  createLogger,
  type Engine,
  type EngineConfig,
  type Logger,
  loadConfig,
  type SearchProvider,
} from '@openmates/core';
import { type BraveFixture, lineCollector } from '@openmates/fixtures';
import { loadServerConfig } from '../env.ts';
import type { ApiHandler, NodeFallback } from '../handler.ts';
import type { ServerMetrics } from '../metrics.ts';
import type { ListenOptions, RunningServer } from '../node-server.ts';
import { createServer } from '../server-factory.ts';
import { createServerProvider } from '../server-provider.ts';

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

/** The engine's settings on the Brave fixture, cache off unless `engineEnv` turns it on. */
function fixtureConfig(brave: BraveFixture, engineEnv: Record<string, string> = {}): EngineConfig {
  return loadConfig({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    OPENMATES_CACHE_TTL_S: '0',
    ...engineEnv,
  });
}

/** A logger collecting lines into `logs`; the engine's own redaction stays on, so tests prove that secrets never leave. */
function captureLogger(brave: BraveFixture, logs: string[]): Logger {
  return createLogger({
    level: 'info',
    redact: (s) => s.replaceAll(brave.apiKey, '[redacted]'),
    destination: lineCollector(logs),
  });
}

/**
 * An engine on the Brave fixture with its log lines collected, for tests that build a request
 * path of their own from the package's pieces (`createApiCore`, `createPipeline`).
 */
export function startTestEngine(
  brave: BraveFixture,
  engineEnv: Record<string, string> = {},
): { engine: Engine; logs: string[] } {
  const logs: string[] = [];
  const config = fixtureConfig(brave, engineEnv);
  const engine = createEngine({
    config,
    provider: createServerProvider(config),
    logger: captureLogger(brave, logs),
    sleep: async () => {},
  });
  return { engine, logs };
}

/**
 * Starts the real server (the factory `openmates serve` uses, on 127.0.0.1, port 0) on the Brave
 * fixture, with logs captured. `env` holds server settings; the rate limit is off unless `env` sets it.
 */
export async function startTestServer(
  brave: BraveFixture,
  options: {
    env?: Record<string, string>;
    engineEnv?: Record<string, string>;
    provider?: SearchProvider;
    listen?: Partial<Pick<ListenOptions, 'headersTimeoutMs' | 'bodyTimeoutMs'>>;
    /** What answers the paths that are not the API's (the GUI, for `openmates serve`). */
    gui?: NodeFallback;
  } = {},
): Promise<TestServer> {
  const logs: string[] = [];
  const server = await createServer(
    {
      engine: fixtureConfig(brave, options.engineEnv),
      server: loadServerConfig({ OPENMATES_RATE_LIMIT_PER_MIN: '0', ...options.env }),
    },
    {
      version: '0.0.0-test',
      logger: captureLogger(brave, logs),
      sleep: async () => {},
      ...(options.provider ? { provider: options.provider } : {}),
      ...(options.listen ? { listen: options.listen } : {}),
      ...(options.gui ? { gui: options.gui } : {}),
    },
  );
  return { ...server, logs, close: () => server.close(1_000) };
}

/** A provider that implements the interface and fails every search with `error`. */
export function failingProvider(error: () => Error): SearchProvider {
  return {
    id: 'local',
    name: 'Failing test provider',
    recipient: 'this machine',
    capabilities: {
      honoured: ['count'],
      retry: { maxRetries: 0, maxWaitMs: 0, unnamed: { retry: false, waitMs: 0, pauseMs: 0 } },
    },
    translator: {
      kind: 'run',
      run: async () => {
        throw error();
      },
    },
  };
}
