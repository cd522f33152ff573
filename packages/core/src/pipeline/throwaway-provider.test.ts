import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProviderId } from '@openmates/contract';
import { type BraveFixture, listenOnLoopback, startBraveFixture } from '@openmates/fixtures';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createEngine } from '../engine.ts';
import { EngineError } from '../engine-error.ts';
import type { Capabilities, SearchProvider } from '../provider.ts';
import { createBraveProvider } from '../providers/brave/provider.ts';
import { createHttpClient } from '../providers/shared/http-client.ts';
import { isRecord } from '../shared/is-record.ts';

// A provider written for this test alone, "Findr", a POST JSON API nobody else speaks, to show
// that a provider is a translator and a capability table: it has no line of its own for timeouts,
// retries, paging, scope, caching or failover, and still gets all of them from the call pipeline.

// ---- Findr: its capability table and translator (what a new provider has to write). ----
const FINDR_CAPABILITIES: Capabilities = {
  honoured: ['count', 'filter_tabloids'],
  refuses: [{ option: 'freshness', applies: (item) => item.freshness !== undefined, reason: 'it has no date filter' }],
  paging: { maxPages: 2, perPage: 5, scopePages: 1 },
  retry: { maxRetries: 1, maxWaitMs: 5_000, unnamed: { retry: false, waitMs: 0, pauseMs: 1_000 } },
};

function createFindr(baseUrl: string): SearchProvider {
  const origin = new URL(baseUrl);
  const client = createHttpClient(origin);
  return {
    id: 'findr' as ProviderId, // a provider the registry does not list
    name: 'Findr',
    recipient: origin.host,
    capabilities: FINDR_CAPABILITIES,
    translator: {
      kind: 'http',
      client: () => client,
      buildRequest: (query, page) => ({
        method: 'POST',
        url: new URL('/find', origin),
        headers: { accept: 'application/json' },
        body: { json: { term: query.query, from: page.page * 5, size: 5 } },
      }),
      parseAnswer(json) {
        if (!isRecord(json) || !Array.isArray(json.hits)) return undefined;
        const candidates = json.hits.filter(isRecord).map((hit) => ({
          format: 'text' as const,
          url: hit.link,
          title: hit.heading,
          description: hit.summary,
        }));
        return { candidates, more: typeof json.next === 'number' };
      },
    },
    close: () => client.close(),
  };
}
// ---- end of Findr ----

/** Findr's fixture: 100 hits per term, every third on docs.example.org; a term's first word picks a scenario. */
interface FindrFixture {
  baseUrl: string;
  terms: string[];
  close(): Promise<void>;
}

async function startFindr(): Promise<FindrFixture> {
  const terms: string[] = [];
  const limitedOnce = new Set<string>();
  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // Findr takes its search as a JSON body of `POST /find`, and refuses anything else.
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    const json = req.headers['content-type'] === 'application/json';
    if (req.method !== 'POST' || req.url !== '/find' || !json || !isRecord(body) || typeof body.term !== 'string')
      return send(res, 400, '{"error":"expected POST /find with a JSON search"}');
    const { term } = body;
    const from = Number(body.from ?? 0);
    terms.push(term);
    const scenario = term.split(' ')[0];
    if (scenario === 'slow') return void req.once('close', () => res.destroy());
    if (scenario === 'broken') return send(res, 500, '{"error":"boom"}');
    if (scenario === 'garbled') return send(res, 200, '{"hits": [');
    if (scenario === 'limited' && !limitedOnce.has(term)) {
      limitedOnce.add(term);
      return send(res, 429, '{}', { 'retry-after': '1' });
    }
    const hits = Array.from({ length: 5 }, (_, k) => from + k).map((i) => ({
      link: `https://${i % 3 === 0 ? 'docs.example.org' : 'other.example.com'}/${encodeURIComponent(term)}/${i}`,
      heading: `${term} ${i}`,
      summary: `Hit ${i} for ${term}`,
    }));
    send(res, 200, JSON.stringify({ hits, next: from + 5 < 100 ? from + 5 : null }));
  };
  const { server, port } = await listenOnLoopback(handle, (res) => send(res, 500, '{}'));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    terms,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let findr: FindrFixture;
let brave: BraveFixture;
beforeAll(async () => {
  [findr, brave] = await Promise.all([startFindr(), startBraveFixture()]);
});
afterAll(() => Promise.all([findr.close(), brave.close()]));
beforeEach(() => {
  findr.terms.length = 0;
  brave.reset();
});

/** An engine on Findr alone, or Findr then Brave; its sleeps are recorded and move its clock on at once. */
function engineOn(options: { withBrave?: boolean; env?: Record<string, string> } = {}) {
  const config = loadConfig({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    OPENMATES_CACHE_TTL_S: '0',
    OPENMATES_LOG_LEVEL: 'silent',
    ...options.env,
  });
  const chain = [createFindr(findr.baseUrl)];
  if (options.withBrave) chain.push(createBraveProvider({ apiKey: brave.apiKey, baseUrl: brave.baseUrl }));
  const sleeps: number[] = [];
  let clock = 0;
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    clock += ms;
  };
  const engine = createEngine({ config, provider: chain, now: () => clock, sleep });
  return { engine, sleeps };
}

const one = (query: string, extra: Record<string, unknown> = {}) => ({
  requests: [{ id: 'q', query, count: 3, filter_tabloids: false, ...extra }],
});

describe('a provider that is only a translator and a capability table', () => {
  it('answers a query', async () => {
    const { response } = await engineOn().engine.search(one('rust vec'));
    expect(response.results[0]?.results.map((r) => r.title)).toEqual(['rust vec 0', 'rust vec 1', 'rust vec 2']);
    expect(response.provider).toBe('Findr');
  });

  it('times out', async () => {
    const { engine } = engineOn({ env: { OPENMATES_PROVIDER_TIMEOUT_MS: '100' } });
    const { response } = await engine.search(one('slow rust'));
    expect(response.results[0]?.error?.code).toBe('provider_timeout');
    expect(findr.terms).toEqual(['slow rust']);
  });

  it('waits out a 429 with Retry-After, then answers', async () => {
    const { engine, sleeps } = engineOn();
    const { response } = await engine.search(one('limited rust'));
    expect(response.results[0]?.results).toHaveLength(3);
    expect(sleeps).toEqual([1000]);
    expect(findr.terms).toEqual(['limited rust', 'limited rust']);
  });

  it('fails a 500 as provider_error, once', async () => {
    const { response } = await engineOn().engine.search(one('broken rust'));
    expect(response.results[0]?.error?.code).toBe('provider_error');
    expect(response.results[0]?.error?.message).toBe('Findr failed (HTTP 500).');
    expect(findr.terms).toHaveLength(1);
  });

  it('fails malformed JSON as provider_error', async () => {
    const { response } = await engineOn().engine.search(one('garbled rust'));
    expect(response.results[0]?.error).toEqual({ code: 'provider_error', message: 'Findr sent malformed JSON.' });
  });

  it('pages until count, within its call budget of 2', async () => {
    const { engine } = engineOn();
    const eight = (await engine.search(one('paged', { count: 8 }))).response;
    expect(eight.results[0]?.results).toHaveLength(8);
    expect(eight.budget?.calls_used).toBe(2);
    findr.terms.length = 0;
    const twelve = (await engine.search(one('paged more', { count: 12 }))).response;
    expect(twelve.results[0]?.results).toHaveLength(10);
    expect(findr.terms).toHaveLength(2);
  });

  it('asks for a second page when an include-domain scope leaves too few', async () => {
    const { response } = await engineOn().engine.search(one('scoped', { include_domains: ['docs.example.org'] }));
    expect(response.results[0]?.results.map((r) => r.url)).toEqual([
      'https://docs.example.org/scoped/0',
      'https://docs.example.org/scoped/3',
      'https://docs.example.org/scoped/6',
    ]);
    expect(findr.terms).toHaveLength(2);
  });

  it('answers a repeat from the cache', async () => {
    const { engine } = engineOn({ env: { OPENMATES_CACHE_TTL_S: '60' } });
    const first = (await engine.search(one('cached rust'))).response;
    const again = (await engine.search(one('cached rust'))).response;
    expect(again.results.map((g) => g.results)).toEqual(first.results.map((g) => g.results));
    expect(again.results[0]?.usage).toMatchObject({ source: 'cache', calls: 0, billed: 0 });
    expect(findr.terms).toHaveLength(1);
  });

  it('fails over to Brave when it fails', async () => {
    const { response } = await engineOn({ withBrave: true }).engine.search(one('broken rust'));
    expect(response.results[0]?.provider).toBe('Brave Search');
    expect(response.results[0]?.results).toHaveLength(3);
    expect(brave.requests).toHaveLength(1);
  });

  it('refuses, with a 400 naming the field and the provider, an option its table says it cannot apply', async () => {
    const error = await engineOn()
      .engine.search(one('rust', { freshness: 'week' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).status).toBe(400);
    expect((error as EngineError).issues).toEqual([
      {
        path: 'requests[0].freshness',
        message: 'freshness is not supported by the Findr provider: it has no date filter',
      },
    ]);
    expect(findr.terms).toHaveLength(0);
  });
});
