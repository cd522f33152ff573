// The benchmark's fixture and servers, each in a child process of its own.
import { pathToFileURL } from 'node:url';
import { startBraveFixture } from '@openmates/fixtures';
import { answerCpu, type Message, type Urls } from './shared.ts';

/** A limit no benchmark reaches: every request is checked and counted, none refused. */
const UNREACHED_LIMIT = '100000000';

export async function runFixture(): Promise<void> {
  const brave = await startBraveFixture({ latencyMs: 0 });
  answerCpu();
  process.send?.({ fixture: { baseUrl: brave.baseUrl, apiKey: brave.apiKey } } satisfies Message);
}

/** Our servers as `openmates serve` builds them, from the tree at `root` (this one, or BENCH_BASELINE). */
export async function runServers(
  root: string,
  baseUrl: string,
  apiKey: string,
  redisUrl: string,
  replayUrl: string,
): Promise<void> {
  const core = await import(pathToFileURL(`${root}/packages/core/src/index.ts`).href);
  const server = await import(pathToFileURL(`${root}/packages/server/src/index.ts`).href);
  async function start(extra: Record<string, string>): Promise<string> {
    const env = {
      OPENMATES_PROVIDER: 'brave',
      BRAVE_SEARCH_API_KEY: apiKey,
      BRAVE_SEARCH_BASE_URL: baseUrl,
      OPENMATES_CACHE_TTL_S: '0',
      OPENMATES_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
      OPENMATES_RATE_LIMIT_PER_MIN: '0',
      ...extra,
    };
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
  const shared = { OPENMATES_REDIS_URL: redisUrl, OPENMATES_REDIS_SECRET: 'benchmark-secret-0123456789' };
  const urls: Urls = {
    server: await start({}),
    memoryLimited: await start({ OPENMATES_RATE_LIMIT_PER_MIN: UNREACHED_LIMIT }),
    redisLimited: await start({ OPENMATES_RATE_LIMIT_PER_MIN: UNREACHED_LIMIT, ...shared }),
    memoryCached: await start({ OPENMATES_CACHE_TTL_S: '300' }),
    // Two replicas sharing the Redis cache: what A cached, B answers.
    replicaA: await start({ OPENMATES_CACHE_TTL_S: '300', ...shared }),
    replicaB: await start({ OPENMATES_CACHE_TTL_S: '300', ...shared }),
    // Asking the replay of recorded fixture answers: what the cleaning proxy's output is checked against.
    checked: await start({ BRAVE_SEARCH_BASE_URL: replayUrl }),
  };
  answerCpu();
  process.send?.({ urls } satisfies Message);
}
