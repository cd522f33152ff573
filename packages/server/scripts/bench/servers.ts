// The benchmark's fixture and each of our servers, each in a child process of its own.
import { pathToFileURL } from 'node:url';
import { startBraveFixture } from '@openmates/fixtures';
import { answerCpu, type Message } from './shared.ts';

/** A limit no benchmark reaches: every request is checked and counted, none refused. */
const UNREACHED_LIMIT = '100000000';

export async function runFixture(): Promise<void> {
  const brave = await startBraveFixture({ latencyMs: 0 });
  answerCpu();
  process.send?.({ fixture: { baseUrl: brave.baseUrl, apiKey: brave.apiKey } } satisfies Message);
}

/** What each of our servers sets over what they share, by name. */
function settingsOf(redisUrl: string, replayUrl: string): Record<string, Record<string, string>> {
  const shared = { OPENMATES_REDIS_URL: redisUrl, OPENMATES_REDIS_SECRET: 'benchmark-secret-0123456789' };
  return {
    server: {},
    memoryLimited: { OPENMATES_RATE_LIMIT_PER_MIN: UNREACHED_LIMIT },
    redisLimited: { OPENMATES_RATE_LIMIT_PER_MIN: UNREACHED_LIMIT, ...shared },
    memoryCached: { OPENMATES_CACHE_TTL_S: '300' },
    // Two replicas sharing the Redis cache: what A cached, B answers.
    replicaA: { OPENMATES_CACHE_TTL_S: '300', ...shared },
    replicaB: { OPENMATES_CACHE_TTL_S: '300', ...shared },
    // Asking the replay of recorded fixture answers: what the cleaning proxy's output is checked against.
    checked: { BRAVE_SEARCH_BASE_URL: replayUrl },
  };
}

/** The names of our servers; each runs in a child process of its own (`runServer`). */
export const SERVER_NAMES = Object.keys(settingsOf('', ''));

/**
 * Our server `name` as `openmates serve` builds and runs it, from the tree at `root` (this one, or
 * BENCH_BASELINE), alone in its process, as `openmates serve` runs one (ADR 0111): what a process
 * has loaded costs each of its requests. Beside the servers keeping state in Redis (ioredis loaded),
 * a server's young-generation collections copied about 1.1 MB each instead of 0.14 MB.
 */
export async function runServer(
  root: string,
  name: string,
  baseUrl: string,
  apiKey: string,
  redisUrl: string,
  replayUrl: string,
): Promise<void> {
  const own = settingsOf(redisUrl, replayUrl)[name];
  if (own === undefined) throw new Error(`the benchmark has no server named ${name}`);
  const core = await import(pathToFileURL(`${root}/packages/core/src/index.ts`).href);
  const server = await import(pathToFileURL(`${root}/packages/server/src/index.ts`).href);
  const env = {
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: apiKey,
    BRAVE_SEARCH_BASE_URL: baseUrl,
    OPENMATES_CACHE_TTL_S: '0',
    OPENMATES_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    OPENMATES_RATE_LIMIT_PER_MIN: '0',
    ...own,
  };
  async function start(): Promise<string> {
    const logger = core.createLogger({ level: env.OPENMATES_LOG_LEVEL, redact: (t: string) => t });
    // The server as `openmates serve` builds it; Redis is given 2 s to answer, as `settled()` waits.
    if (server.createServer)
      return (
        await server.createServer(server.loadServerSettings(env), { version: 'bench', logger, redisSettleMs: 2_000 })
      ).url;
    // A baseline tree from before the server factory assembles it the way `openmates serve` then did.
    const config = core.loadConfig(env);
    const redis = config.redis ? await core.connectRedis(config.redis, logger) : undefined;
    await redis?.settled();
    // Metrics on, as `openmates serve` runs them (a baseline tree from before /metrics runs without).
    const metrics = server.createServerMetrics?.();
    const engine = core.createEngine({
      config,
      // The provider as `openmates serve` builds it (an older tree without `createServerProvider`: node:http).
      provider: server.createServerProvider?.(config) ?? core.createConfiguredProvider(config),
      ...(metrics ? { observer: metrics.engine } : {}),
      ...(redis ? { redis } : {}),
    });
    const handler = server.createHandler({
      engine,
      version: 'bench',
      config: server.loadServerConfig(env),
      ...(metrics ? { metrics } : {}),
    });
    return (await server.listen(handler, { host: '127.0.0.1', port: 0 })).url;
  }
  const url = await start();
  answerCpu();
  process.send?.({ urls: { [name]: url } } satisfies Message);
}
