import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_FREE_CHAIN_RATE_LIMIT_PER_MIN, DEFAULT_RATE_LIMIT_PER_MIN, PATHS } from '@openmates/contract';
import { type BraveFixture, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig } from './env.ts';
import { startTestServer } from './testing/index.ts';

// The keyless default limit fits the deployment (ADR 0115): on a chain that costs nothing one
// person never meets it; on a paid provider it stays at the default.

let brave: BraveFixture;
let folder: string;
beforeAll(async () => {
  brave = await startBraveFixture();
  folder = mkdtempSync(join(tmpdir(), 'openmates-rate-default-'));
});
afterAll(async () => {
  await brave.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A keyless server with the limit unset (blank is unset), on `engineEnv`'s chain. */
const keyless = (engineEnv: Record<string, string>) =>
  startTestServer(brave, { env: { OPENMATES_RATE_LIMIT_PER_MIN: '' }, engineEnv });

const search = (url: string, query: string) =>
  fetch(url + PATHS.search, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ requests: [{ query }] }),
  });

describe('the keyless default rate limit', () => {
  it('tells an unset limit from a set one', () => {
    expect(loadServerConfig({}).rateLimitDefaulted).toBe(true);
    expect(loadServerConfig({ OPENMATES_RATE_LIMIT_PER_MIN: '60' }).rateLimitDefaulted).toBe(false);
  });

  it('lets one loopback caller make 100 searches in a minute on the local index', async () => {
    const server = await keyless({ OPENMATES_PROVIDER: 'local', OPENMATES_INDEX: join(folder, 'index.sqlite') });
    try {
      const statuses: number[] = [];
      let limit: string | null = null;
      for (let i = 0; i < 100; i++) {
        const answer = await search(server.url, `fetch abort ${i % 5}`);
        statuses.push(answer.status);
        limit ??= answer.headers.get('ratelimit-policy');
        await answer.arrayBuffer();
      }
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect(limit).toContain(`${DEFAULT_FREE_CHAIN_RATE_LIMIT_PER_MIN};`);
    } finally {
      await server.close();
    }
  });

  it('holds on Brave, and its refusal names the client', async () => {
    const server = await keyless({});
    try {
      for (let i = 0; i < DEFAULT_RATE_LIMIT_PER_MIN; i++) {
        const answer = await search(server.url, `rust ${i}`);
        expect(answer.status).toBe(200);
        await answer.arrayBuffer();
      }
      const refused = await search(server.url, 'rust again');
      expect(refused.status).toBe(429);
      const body = (await refused.json()) as { error: string };
      expect(body.error).toMatch(/^Too many requests from this client; retry in \d+ s\.$/);
    } finally {
      await server.close();
    }
  });
});
