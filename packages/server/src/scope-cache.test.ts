import { PATHS } from '@openmates/contract';
import { type BraveFixture, type RedisProcess, startBraveFixture, startRedis } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, loadServerSettings, type OpenMatesServer } from './server-factory.ts';

// The scope of a search (its time range and domain lists) changes what it may return, so two
// requests that differ only in scope must never share a cache entry, in process or in Redis; the
// same scope written differently (case, order) is one entry.
const BASE = { query: 'scoped cache identity', count: 3 };
const SCOPES: Record<string, object> = {
  none: {},
  include: { include_domains: ['docs.example.org'] },
  exclude: { exclude_domains: ['docs.example.org'] },
  both: { include_domains: ['example.net'], exclude_domains: ['docs.example.org'] },
  week: { freshness: 'week' },
  year: { freshness: 'year' },
  range: { freshness: '2025-01-01..2025-12-31' },
};

function settings(brave: BraveFixture, redisUrl?: string) {
  return loadServerSettings({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    OPENMATES_CACHE_TTL_S: '300',
    OPENMATES_RATE_LIMIT_PER_MIN: '0',
    OPENMATES_LOG_LEVEL: 'silent',
    ...(redisUrl
      ? { OPENMATES_REDIS_URL: redisUrl, OPENMATES_REDIS_SECRET: 'scope-cache-test-secret-0123456789' }
      : {}),
  });
}

/** How many calls the provider got for one search through `server` (0: the cache answered). */
async function callsFor(brave: BraveFixture, server: OpenMatesServer, item: object): Promise<number> {
  const before = brave.requests.length;
  const response = await fetch(server.url + PATHS.search, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ requests: [{ ...BASE, ...item }] }),
  });
  expect(response.status).toBe(200);
  await response.json();
  return brave.requests.length - before;
}

describe('the cache key holds the scope', () => {
  let brave: BraveFixture;
  let redis: RedisProcess;
  let alone: OpenMatesServer;
  let replicas: OpenMatesServer[];

  beforeAll(async () => {
    [brave, redis] = await Promise.all([startBraveFixture(), startRedis()]);
    alone = await createServer(settings(brave), { version: '0.0.0-test' });
    replicas = await Promise.all([0, 1].map(() => createServer(settings(brave, redis.url), { version: '0.0.0-test' })));
  });

  afterAll(async () => {
    await Promise.all([alone, ...replicas].map((server) => server?.close(1_000)));
    await Promise.all([brave?.close(), redis?.close()]);
  });

  it('in process: each scope misses every other, then hits its own entry', async () => {
    for (const [name, scope] of Object.entries(SCOPES))
      expect(await callsFor(brave, alone, scope), `${name}, first time`).toBeGreaterThan(0);
    for (const [name, scope] of Object.entries(SCOPES))
      expect(await callsFor(brave, alone, scope), `${name}, again`).toBe(0);
    // The same scope written another way is the same entry: case and order normalize away.
    expect(await callsFor(brave, alone, { freshness: 'WEEK' })).toBe(0);
    expect(
      await callsFor(brave, alone, { include_domains: ['Example.NET'], exclude_domains: ['DOCS.example.org'] }),
    ).toBe(0);
  });

  it('on Redis: a scope cached by one replica is a miss for another scope on the other replica', async () => {
    const [first, second] = replicas as [OpenMatesServer, OpenMatesServer];
    const two = { include_domains: ['example.net', 'docs.example.org'] };
    const swapped = { include_domains: ['Docs.Example.ORG', 'example.net'] };
    expect(await callsFor(brave, first, two)).toBeGreaterThan(0);
    // The other replica answers the same scope, written in another order, from Redis.
    expect(await callsFor(brave, second, swapped)).toBe(0);
    for (const [name, scope] of Object.entries(SCOPES))
      expect(await callsFor(brave, second, scope), `${name} on the second replica`).toBeGreaterThan(0);
    for (const [name, scope] of Object.entries(SCOPES))
      expect(await callsFor(brave, first, scope), `${name} from Redis on the first replica`).toBe(0);
  });
});
