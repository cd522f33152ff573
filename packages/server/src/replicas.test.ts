import { PATHS, WebSearchResponseSchema } from '@openmates/contract';
import { type RedisProcess, type SearxngFixture, startRedis, startSearxngFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, loadServerSettings, type OpenMatesServer } from './server-factory.ts';

// Two replicas share one Redis with the cache on, as a deployment does; each is pointed at its own
// SearXNG instance. The cache key must tell the instances apart, or one replica would answer with
// what the other's instance found.
describe('two replicas on two SearXNG instances behind one Redis', () => {
  let redis: RedisProcess;
  let instances: SearxngFixture[];
  let replicas: OpenMatesServer[];

  beforeAll(async () => {
    redis = await startRedis();
    instances = await Promise.all([
      startSearxngFixture({ resultHost: 'one.example.net' }),
      startSearxngFixture({ resultHost: 'two.example.net' }),
    ]);
    replicas = await Promise.all(
      instances.map((instance) =>
        createServer(
          loadServerSettings({
            OPENMATES_PROVIDER: 'searxng',
            SEARXNG_BASE_URL: instance.baseUrl,
            OPENMATES_CACHE_TTL_S: '300',
            OPENMATES_REDIS_URL: redis.url,
            OPENMATES_REDIS_SECRET: 'replica-test-secret-0123456789',
            OPENMATES_RATE_LIMIT_PER_MIN: '0',
            OPENMATES_LOG_LEVEL: 'silent',
          }),
          { version: '0.0.0-test' },
        ),
      ),
    );
  });

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close(1_000)));
    await Promise.all(instances.map((i) => i.close()));
    await redis.close();
  });

  async function hosts(replica: OpenMatesServer): Promise<string[]> {
    const response = await fetch(replica.url + PATHS.search, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requests: [{ query: 'replica cache identity', count: 3 }] }),
    });
    expect(response.status).toBe(200);
    const body = WebSearchResponseSchema.parse(await response.json());
    return body.results.flatMap((group) => group.results.map((r) => new URL(r.url).host));
  }

  it("answers each replica from its own instance, then from the cache entry of that instance's answer", async () => {
    expect(await hosts(replicas[0] as OpenMatesServer)).toEqual(Array(3).fill('one.example.net'));
    expect(await hosts(replicas[1] as OpenMatesServer)).toEqual(Array(3).fill('two.example.net'));
    // Asked again, each answers from the shared cache: its instance is not called a second time.
    expect(await hosts(replicas[0] as OpenMatesServer)).toEqual(Array(3).fill('one.example.net'));
    expect(await hosts(replicas[1] as OpenMatesServer)).toEqual(Array(3).fill('two.example.net'));
    const searches = instances.map((i) => i.requests.filter((r) => r.path.endsWith('/search')).length);
    expect(searches).toEqual([1, 1]);
  });
});
