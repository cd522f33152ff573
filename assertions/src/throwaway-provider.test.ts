import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PATHS, type WebSearchResponse } from '@openmates/contract';
import {
  createConfiguredProviders,
  createEngine,
  createLogger,
  type Engine,
  loadConfig,
  PROVIDER_MODULES,
} from '@openmates/core';
import { type BraveFixture, expectedBraveResults, startBraveFixture } from '@openmates/fixtures';
import { createServer, loadServerConfig, type OpenMatesServer } from '@openmates/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as throwaway from './throwaway-provider/index.ts';

// A provider that exists in one folder (./throwaway-provider) and the one registry line below: the
// configuration, the engine and the REST server take it from the registry they are given, and it
// fails over to Brave and Brave to it, with nothing else in the repository naming it (ADR 0114).

const registry = { ...PROVIDER_MODULES, [throwaway.providerModule.id]: throwaway.providerModule };

const id = throwaway.providerModule.id;
let fixture: Awaited<ReturnType<typeof throwaway.startFixture>>;
let brave: BraveFixture;
const open: Array<Engine | OpenMatesServer> = [];

beforeAll(async () => {
  [fixture, brave] = await Promise.all([throwaway.startFixture(), startBraveFixture()]);
});
afterEach(async () => {
  for (const it of open.splice(0)) await it.close();
  fixture.terms.length = 0;
  brave.reset();
});
afterAll(() => Promise.all([fixture.close(), brave.close()]));

/** The configuration of `chain`, read against the registry with the throwaway provider in it. */
function configOf(chain: readonly string[]) {
  return loadConfig(
    {
      OPENMATES_PROVIDER: chain.join(','),
      BRAVE_SEARCH_API_KEY: brave.apiKey,
      BRAVE_SEARCH_BASE_URL: brave.baseUrl,
      OPENMATES_CACHE_TTL_S: '0',
      OPENMATES_LOG_LEVEL: 'silent',
      ...throwaway.fixtureEnvironment(fixture),
    },
    registry,
  );
}

const silent = () => createLogger({ level: 'silent', redact: (text) => text });

/** A search through an engine built here on `chain`. */
async function engineSearch(chain: readonly string[], query: string): Promise<WebSearchResponse> {
  const config = configOf(chain);
  const engine = createEngine({
    config,
    provider: createConfiguredProviders(config),
    logger: silent(),
    sleep: async () => {},
  });
  open.push(engine);
  return (await engine.search(one(query))).response;
}

/** A search through the REST server built here on `chain`. */
async function restSearch(chain: readonly string[], query: string): Promise<WebSearchResponse> {
  const server = await createServer(
    { engine: configOf(chain), server: loadServerConfig({ OPENMATES_RATE_LIMIT_PER_MIN: '0' }) },
    { version: '0.0.0-test', logger: silent(), sleep: async () => {} },
  );
  open.push(server);
  const answer = await fetch(new URL(PATHS.search, server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(one(query)),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as WebSearchResponse;
}

const one = (query: string) => ({ requests: [{ id: 'q', query, count: 3, filter_tabloids: false }] });
const titles = (response: WebSearchResponse) => response.results[0]?.results.map((r) => r.title);
const braveTitles = (query: string) => expectedBraveResults(query, 3).map((r) => r.title);

describe.each([
  ['the engine', engineSearch],
  ['the REST server', restSearch],
])('a provider from a registry of a test’s own, through %s', (_, search) => {
  it('answers as the first provider of the chain', async () => {
    const response = await search([id], 'rust vec');
    expect(titles(response)).toEqual(throwaway.expectedTitles('rust vec', 3));
    expect(fixture.terms).toEqual(['rust vec']);
  });

  it('fails over to Brave when it fails a query', async () => {
    const response = await search([id, 'brave'], 'down rust');
    expect(fixture.terms).toEqual(['down rust']);
    expect(response.results[0]?.error).toBeUndefined();
    expect(titles(response)).toEqual(braveTitles('down rust'));
    expect(response.results[0]?.provider).toBe('Brave Search');
  });

  it('answers when Brave, first in the chain, fails a query', async () => {
    const response = await search(['brave', id], 'error500 rust');
    expect(response.results[0]?.error).toBeUndefined();
    expect(titles(response)).toEqual(throwaway.expectedTitles('error500 rust', 3));
    expect(response.results[0]?.provider).toBe(throwaway.providerModule.name);
  });
});

describe('the throwaway provider', () => {
  it('is unknown to the production registry, which reads only the contract’s ids', () => {
    expect(() => loadConfig({ OPENMATES_PROVIDER: id })).toThrow(/^OPENMATES_PROVIDER must be one of local, brave/);
  });

  it('is named only in its folder and the one registry line', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const files = execFileSync('git', ['grep', '--untracked', '-il', '-e', id], { cwd: root, encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(files.filter((file) => !file.startsWith('assertions/src/throwaway-provider/'))).toEqual([]);
  });
});
