import { PATHS } from '@openmates/contract';
import { connectRedis, createLogger, type RedisLink } from '@openmates/core';
import {
  type BraveFixture,
  type RedisProcess,
  type Replica,
  startBraveFixture,
  startRedis,
  startReplica,
} from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, baseEnv, requireBuild, runCli } from './run-cli.ts';

// Two real `openmates serve` replicas sharing one real Redis (docs/deploy.md), as a deployment runs them.
// Each describe block has its own pair, configured for what it proves; Redis is flushed between tests.

const SECRET = 'cluster-test-secret-0123456789';
const KEYS = [
  'cluster-key-limit-000001',
  'cluster-key-cache-000002',
  'cluster-key-down-0000003',
  'cluster-key-back-0000004',
];
const [LIMIT_KEY, CACHE_KEY, DOWN_KEY, BACK_KEY] = KEYS as [string, string, string, string];

let brave: BraveFixture;
let redis: RedisProcess;
let link: RedisLink;

beforeAll(async () => {
  requireBuild();
  [brave, redis] = await Promise.all([startBraveFixture(), startRedis()]);
  link = await connectRedis(
    { url: redis.url, secret: SECRET, timeoutMs: 1_000, prefix: 'openmates:' },
    createLogger({ level: 'silent', redact: (s) => s }),
  );
  await link.settled();
});
afterAll(async () => {
  await link?.close();
  await Promise.all([brave?.close(), redis?.close()]);
});
beforeEach(async () => {
  brave.reset();
  await link.attempt((r) => r.flushall(), 'OK');
});

function replicaEnv(extra: Record<string, string>): Record<string, string> {
  return baseEnv({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    OPENMATES_CACHE_TTL_S: '300',
    OPENMATES_REDIS_URL: redis.url,
    OPENMATES_REDIS_SECRET: SECRET,
    OPENMATES_LOG_LEVEL: 'info',
    // Two cores shared by many jobs stall an event loop past the 100 ms default now and then; a
    // timed-out command falls back to in-process state, which is right in production but would
    // make these tests prove the fallback instead of the sharing (the fallback has its own test).
    OPENMATES_REDIS_TIMEOUT_MS: '2000',
    ...extra,
  });
}

async function search(
  replica: Replica,
  query: string,
  key?: string,
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(`${replica.url}${PATHS.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ requests: [{ id: 'caller-id-7f3e', query, count: 3 }] }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

async function health(replica: Replica): Promise<Record<string, unknown>> {
  return (await (await fetch(`${replica.url}${PATHS.health}`)).json()) as Record<string, unknown>;
}

/** Polls `/healthz` of every replica (each 50 ms, at most 10 s) until each reports `redis: state`. */
async function untilRedis(replicas: readonly Replica[], state: 'ok' | 'down'): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await Promise.all(replicas.map(health))).every((h) => h.redis === state)) {
    if (Date.now() > deadline) throw new Error(`/healthz never said redis: ${state}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const callsFor = (text: string) => brave.requests.filter((r) => r.query.q === text).length;

describe('openmates doctor with OPENMATES_REDIS_URL', () => {
  it('reports redis ok when it answers, down (with the fix) when nothing listens, never the password', async () => {
    const up = await runCli(['doctor', '--json'], replicaEnv({}));
    expect(JSON.parse(up.stdout).redis).toBe('ok');
    const closed = replicaEnv({ OPENMATES_REDIS_URL: 'redis://:door-password-0123@127.0.0.1:1' });
    const down = await runCli(['doctor', '--json'], closed);
    const report = JSON.parse(down.stdout) as { redis: string; checks: { name: string; ok: boolean; fix?: string }[] };
    expect(report.redis).toBe('down');
    expect(report.checks.find((c) => c.name === 'redis')).toMatchObject({
      ok: false,
      fix: expect.stringContaining('OPENMATES_REDIS_URL'),
    });
    expect(down.stdout + down.stderr).not.toContain('door-password-0123');
  });
});

describe('two replicas with a per-key limit of 5 a minute', () => {
  let a: Replica;
  let b: Replica;
  beforeAll(async () => {
    const env = replicaEnv({ OPENMATES_API_KEYS: KEYS.join(','), OPENMATES_RATE_LIMIT_PER_MIN: '5' });
    [a, b] = await Promise.all([startReplica(BIN, env), startReplica(BIN, env)]);
    await untilRedis([a, b], 'ok');
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('gives a key exactly 5 successes across both replicas, then 429 with Retry-After', async () => {
    const answers = [];
    for (let i = 0; i < 8; i += 1) answers.push(await search(i % 2 === 0 ? a : b, `empty limit ${i}`, LIMIT_KEY));
    expect(answers.map((x) => x.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const refused = answers[5];
    expect(refused?.body.code).toBe('rate_limited');
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('serves a response cached by one replica from the other, with no second provider call', async () => {
    const first = await search(a, 'badurls zebracanary', CACHE_KEY);
    const second = await search(b, 'badurls zebracanary', CACHE_KEY);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(callsFor('badurls zebracanary')).toBe(1);
    // The same results; only what each answer says it cost differs: the second came from the cache.
    const groups = (body: Record<string, unknown>) =>
      (body.results as { results: unknown[] }[]).map(({ results }) => results);
    expect(groups(second.body)).toEqual(groups(first.body));
    expect(second.body.provider).toEqual(first.body.provider);
    const usage = (body: Record<string, unknown>) => (body.results as { usage?: unknown }[])[0]?.usage;
    expect(usage(first.body)).toMatchObject({ source: 'provider', calls: 1 });
    expect(usage(second.body)).toMatchObject({ source: 'cache', calls: 0 });
    expect((first.body.results as { results: unknown[] }[])[0]?.results.length).toBeGreaterThan(0);
  });

  it('keeps no API key, client address, caller id or query text in Redis', async () => {
    await search(a, 'badurls zebracanary', CACHE_KEY);
    await search(b, 'badurls zebracanary', CACHE_KEY);
    await search(a, 'empty quagga', LIMIT_KEY);
    const keys = await link.client.keys('*');
    expect(keys.some((k) => k.startsWith('openmates:cache:'))).toBe(true);
    expect(keys.some((k) => k.startsWith('openmates:limit:'))).toBe(true);
    const dump: string[] = [...keys];
    for (const key of keys) {
      const type = await link.client.type(key);
      if (type === 'string') dump.push((await link.client.get(key)) ?? '');
      else dump.push(JSON.stringify(await link.client.hgetall(key)));
    }
    const everything = dump.join('\n');
    for (const forbidden of [...KEYS, brave.apiKey, SECRET, '127.0.0.1', 'caller-id-7f3e', 'zebracanary', 'quagga'])
      expect(everything).not.toContain(forbidden);
  });

  it('keeps answering while Redis is down (limits per replica, /healthz down), and shares again once it is back', async () => {
    await redis.kill();
    await untilRedis([a, b], 'down');
    const during = [];
    for (let i = 0; i < 6; i += 1) during.push(await search(a, `empty down ${i}`, DOWN_KEY));
    // The in-process stand-in limits this replica alone: 5 here, and the other replica still has its own 5.
    expect(during.map((x) => x.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await search(b, 'empty down b', DOWN_KEY)).status).toBe(200);
    expect((await search(b, 'badurls yakcanary', CACHE_KEY)).status).toBe(200);

    await redis.start();
    await untilRedis([a, b], 'ok');
    brave.reset();
    await search(a, 'badurls okapicanary', CACHE_KEY);
    const fromB = await search(b, 'badurls okapicanary', CACHE_KEY);
    expect(fromB.status).toBe(200);
    expect(callsFor('badurls okapicanary')).toBe(1);
    const shared = [];
    for (let i = 0; i < 6; i += 1) shared.push((await search(i % 2 === 0 ? a : b, `empty back ${i}`, BACK_KEY)).status);
    expect(shared).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('two replicas sharing the provider plan (2 calls a second)', () => {
  let a: Replica;
  let b: Replica;
  beforeAll(async () => {
    const env = replicaEnv({
      OPENMATES_RATE_LIMIT_PER_MIN: '0',
      OPENMATES_PROVIDER_RATE_PER_S: '2',
      OPENMATES_PROVIDER_TIMEOUT_MS: '3000',
    });
    [a, b] = await Promise.all([startReplica(BIN, env), startReplica(BIN, env)]);
    await untilRedis([a, b], 'ok');
    // One search each first, as a running deployment has served before: a cold replica's first call
    // (its first connection to the provider, code loading) can leave seconds after its turn.
    for (const replica of [a, b]) expect((await search(replica, `warm up ${replica.url}`)).status).toBe(200);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('spaces 20 concurrent searches at the shared rate; the rest fail provider_rate_limited without a call', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => search(i % 2 === 0 ? a : b, `plan query ${i}`)),
    );
    const succeeded = answers.filter((x) => x.status === 200);
    const refused = answers.filter((x) => x.status !== 200);
    expect(succeeded.length).toBeGreaterThanOrEqual(4);
    for (const answer of refused) {
      expect(answer.status).toBe(502);
      expect(answer.body.code).toBe('provider_rate_limited');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Every call that reached the fixture was a success: the refused ones never called.
    expect(brave.requests).toHaveLength(succeeded.length);
    const times = brave.requests.map((r) => r.receivedAt).sort((x, y) => x - y);
    const busiest = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length));
    expect(busiest).toBeLessThanOrEqual(3);
  });

  it('a provider 429 on one replica keeps the other from calling until the named time has passed', async () => {
    const first = await search(a, 'ratelimit-3s pause');
    expect(first.status).toBe(502);
    expect(first.body.code).toBe('provider_rate_limited');
    expect(brave.requests).toHaveLength(1);
    // Retry-After: 3 ends after B's last moment to start a call (3 s timeout, a quarter kept for the
    // call): B refuses at once, without calling.
    const fromB = await search(b, 'plan after pause');
    expect(fromB.status).toBe(502);
    expect(fromB.body.code).toBe('provider_rate_limited');
    expect(Number(fromB.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(brave.requests).toHaveLength(1);
    // Once the pause key has expired in Redis, B calls again.
    const pauseKeys = await link.client.keys('openmates:pause:*');
    expect(pauseKeys).toHaveLength(1);
    while ((await link.client.exists(pauseKeys[0] as string)) === 1) await new Promise((r) => setTimeout(r, 50));
    const later = await search(b, 'plan after pause');
    expect(later.status).toBe(200);
    expect(callsFor('plan after pause')).toBe(1);
  });
});
