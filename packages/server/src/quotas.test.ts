import { randomBytes } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type KeyFileEntry, PATHS, ROUTE_TABLE, UsageSchema } from '@openmates/contract';
import { type BraveFixture, type RedisProcess, startBraveFixture, startRedis } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySha256 } from './keys-file.ts';
import { createServer, loadServerSettings, type OpenMatesServer } from './server-factory.ts';

/** A new key and its keys-file entry. */
function newKey(name: string, limits: Partial<KeyFileEntry> = {}): { key: string; entry: KeyFileEntry } {
  const key = `om_${randomBytes(24).toString('base64url')}`;
  return { key, entry: { name, key_sha256: keySha256(key), ...limits } };
}

/** Writes the keys file as `openmates keys add` does: a new file renamed over the old one. */
function writeKeys(path: string, entries: KeyFileEntry[]): void {
  writeFileSync(`${path}.tmp`, JSON.stringify(entries));
  renameSync(`${path}.tmp`, path);
}

async function search(url: string, key: string, query: string): Promise<Response> {
  return fetch(url + PATHS.search, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ requests: [{ query, count: 2 }] }),
  });
}

async function usage(url: string, key: string) {
  const response = await fetch(url + ROUTE_TABLE.usage.path, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  return UsageSchema.parse(await response.json());
}

/**
 * Three replicas' worth of the quota's behaviour, on one store each: in process (one server) and
 * in Redis (two servers sharing it, the fourth search sent to the other replica).
 */
for (const store of ['in process', 'Redis'] as const) {
  describe(`per-key quotas from the keys file (${store})`, () => {
    let brave: BraveFixture;
    let redis: RedisProcess | undefined;
    let replicas: OpenMatesServer[];
    let dir: string;
    let path: string;
    const limited = newKey('agent-a', { calls_per_day: 3 });
    const other = newKey('agent-b');

    beforeAll(async () => {
      brave = await startBraveFixture();
      dir = mkdtempSync(join(tmpdir(), 'openmates-keys-'));
      path = join(dir, 'keys.json');
      writeKeys(path, [limited.entry, other.entry]);
      if (store === 'Redis') redis = await startRedis();
      const env = {
        OPENMATES_PROVIDER: 'brave',
        BRAVE_SEARCH_API_KEY: brave.apiKey,
        BRAVE_SEARCH_BASE_URL: brave.baseUrl,
        OPENMATES_CACHE_TTL_S: '300',
        OPENMATES_API_KEYS_FILE: path,
        OPENMATES_LOG_LEVEL: 'silent',
        ...(redis ? { OPENMATES_REDIS_URL: redis.url, OPENMATES_REDIS_SECRET: 'quota-test-secret-0123456789' } : {}),
      };
      const count = store === 'Redis' ? 2 : 1;
      replicas = await Promise.all(
        Array.from({ length: count }, () => createServer(loadServerSettings(env), { version: '0.0.0-test' })),
      );
    });

    afterAll(async () => {
      await Promise.all(replicas.map((r) => r.close(1_000)));
      await brave.close();
      await redis?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('lets three searches that miss the cache through, refuses the fourth with 429 quota_exceeded, and shows 3 of 3 used', async () => {
      const first = replicas[0] as OpenMatesServer;
      const last = replicas.at(-1) as OpenMatesServer;
      // A cache hit debits nothing: the same search again (before the quota is spent) counts no call.
      for (const query of ['quota one', 'quota two', 'quota one', 'quota three']) {
        const answer = await search(first.url, limited.key, query);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('ratelimit-policy')).toContain('"calls-per-day";q=3;w=86400');
      }
      const refused = await search(last.url, limited.key, 'quota four');
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ code: 'quota_exceeded' });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
      expect(refused.headers.get('ratelimit-policy')).toMatch(/^"per-key";q=60;w=60, "calls-per-day";q=3;w=86400$/);
      expect(refused.headers.get('ratelimit')).toContain('"calls-per-day";r=0;t=');
      expect(brave.requests.filter((r) => r.path.includes('/web/search'))).toHaveLength(3);

      const spent = await usage(last.url, limited.key);
      expect(spent.name).toBe('agent-a');
      expect(spent.today).toMatchObject({ calls: 3, billed: 3, providers: { brave: { calls: 3, billed: 3 } } });
      expect(spent.month.calls).toBe(3);
      expect(spent.quotas).toEqual([
        expect.objectContaining({ quota: 'calls_per_day', policy: 'calls-per-day', limit: 3, used: 3, remaining: 0 }),
      ]);
    });

    it("never shows another key's usage", async () => {
      const mine = await usage((replicas[0] as OpenMatesServer).url, other.key);
      expect(mine.name).toBe('agent-b');
      expect(mine.today.calls).toBe(0);
      expect(mine.quotas).toEqual([]);
    });

    it('authenticates a key written to the file while the server runs, at once, and drops a removed one', async () => {
      const added = newKey('agent-c', { calls_per_day: 5 });
      const url = (replicas[0] as OpenMatesServer).url;
      expect((await usage(url, limited.key)).name).toBe('agent-a');
      const before = await fetch(url + ROUTE_TABLE.usage.path, { headers: { authorization: `Bearer ${added.key}` } });
      expect(before.status).toBe(401);
      writeKeys(path, [limited.entry, other.entry, added.entry]);
      expect((await usage(url, added.key)).name).toBe('agent-c');
      writeKeys(path, [limited.entry, added.entry]);
      const removed = await fetch(url + ROUTE_TABLE.usage.path, { headers: { authorization: `Bearer ${other.key}` } });
      expect(removed.status).toBe(401);
    });
  });
}
