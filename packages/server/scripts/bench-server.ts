// Server benchmark (SPEC §7): our server next to a bare node:http pass-through proxy in front of
// the same Brave fixture, on loopback. Run with `pnpm bench:server`. It prints ratios, never fails
// a build on them: timing on a shared 2-core machine is for people to read, not for CI to gate.
//
// Three processes keep the load generator from sharing an event loop with what it measures:
// this one runs autocannon, a child runs the fixture, another runs our server and the proxy.
import { type ChildProcess, fork } from 'node:child_process';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { PATHS } from '@openmates/contract';
import { connectRedis, createConfiguredProvider, createEngine, createLogger, loadConfig } from '@openmates/core';
import { startBraveFixture, startRedis } from '@openmates/fixtures';
import autocannon, { type Options } from 'autocannon';
import { createHandler, createServerMetrics, listen, loadServerConfig } from '../src/index.ts';

const QUERY = 'benchmark query';
const BODY = JSON.stringify({ requests: [{ query: QUERY }] });
/** Seconds per measurement (`BENCH_DURATION_S`, default 5; latency runs take twice as long). */
const SECONDS = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = 10;
const RATE = 100;
/**
 * Connections for the fixed-rate runs. autocannon splits the rate over its connections and they
 * tend to fire together, so 10 connections at 10 req/s each arrive as bursts of 10 and measure
 * queueing; two connections keep requests spread out while one slow answer cannot stall the rate.
 */
const RATE_CONNECTIONS = 2;

interface Servers {
  server: string;
  proxy: string;
  /** The same server with the per-key limit on, in process and in Redis. */
  memoryLimited: string;
  redisLimited: string;
  /** Two replicas sharing the Redis cache. */
  replicaA: string;
  replicaB: string;
}
type Message = { fixture: { baseUrl: string; apiKey: string } } | { servers: Servers };

/** A limit no benchmark reaches: every request is checked and counted, none refused. */
const UNREACHED_LIMIT = '100000000';

async function runFixture(): Promise<void> {
  const brave = await startBraveFixture({ latencyMs: 0 });
  process.send?.({ fixture: { baseUrl: brave.baseUrl, apiKey: brave.apiKey } } satisfies Message);
}

async function runServers(baseUrl: string, apiKey: string, redisUrl: string): Promise<void> {
  /** One server as `openmates serve` builds it, with `extra` settings and, when set, the shared Redis. */
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
    const config = loadConfig(env);
    const redis = config.redis
      ? await connectRedis(config.redis, createLogger({ level: 'silent', redact: (t) => t }))
      : undefined;
    await redis?.settled();
    // Metrics on, as `openmates serve` runs: the engine reports to the handler's /metrics.
    const metrics = createServerMetrics();
    const engine = createEngine({
      config,
      provider: createConfiguredProvider(config),
      observer: metrics.engine,
      ...(redis ? { redis } : {}),
    });
    const handler = createHandler({ engine, version: 'bench', config: loadServerConfig(env), metrics });
    return (await listen(handler, { host: '127.0.0.1', port: 0 })).url;
  }
  const shared = {
    OPENMATES_REDIS_URL: redisUrl,
    OPENMATES_REDIS_SECRET: 'benchmark-secret-0123456789',
  };
  const server = await start({});
  const memoryLimited = await start({ OPENMATES_RATE_LIMIT_PER_MIN: UNREACHED_LIMIT });
  const redisLimited = await start({ OPENMATES_RATE_LIMIT_PER_MIN: UNREACHED_LIMIT, ...shared });
  const replicaA = await start({ OPENMATES_CACHE_TTL_S: '300', ...shared });
  const replicaB = await start({ OPENMATES_CACHE_TTL_S: '300', ...shared });

  // The reference: reads the body, asks the fixture what the Brave provider would ask (count 20:
  // tabloid filtering over-fetches), and pipes the answer back untouched.
  const upstream = new URL(`${baseUrl}/web/search`);
  upstream.search = new URLSearchParams({
    q: QUERY,
    count: '20',
    country: 'US',
    safesearch: 'moderate',
    text_decorations: 'false',
    result_filter: 'web',
  }).toString();
  const agent = new Agent({ keepAlive: true });
  const proxy = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const out = httpRequest(upstream, { agent, headers: { 'x-subscription-token': apiKey } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end();
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  process.send?.({
    servers: {
      server,
      proxy: `http://127.0.0.1:${port}`,
      memoryLimited,
      redisLimited,
      replicaA,
      replicaB,
    },
  } satisfies Message);
}

function child(args: string[]): Promise<{ process: ChildProcess; message: Message }> {
  // BENCH_PROFILE_DIR writes a V8 CPU profile of the server process there, to see what dominates.
  const profile = args[0] === 'servers' && process.env.BENCH_PROFILE_DIR;
  const proc = fork(fileURLToPath(import.meta.url), args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [...process.execArgv, ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [])],
  });
  return new Promise((resolve, reject) => {
    proc.once('message', (message) => resolve({ process: proc, message: message as Message }));
    proc.once('exit', (code) => reject(new Error(`benchmark child ${args[0]} exited with ${code}`)));
  });
}

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

/** One autocannon run; latencies come from its per-response times (sub-millisecond), not its histogram. */
function measure(url: string, options: Partial<Options>): Promise<Measurement> {
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: url + PATHS.search,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: BODY,
        connections: CONNECTIONS,
        duration: SECONDS,
        ...options,
      },
      (error, result) => {
        if (error) return reject(error);
        times.sort((a, b) => a - b);
        const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
        resolve({
          rps: result.requests.total / result.duration,
          p50: at(0.5),
          p99: at(0.99),
          failures: result.errors + result.timeouts + result.non2xx,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status === 200) times.push(responseTime);
    });
  });
}

/**
 * What metrics add to one search, in µs: the updates a one-query search makes (its HTTP request,
 * its group, its provider call), timed in this process over many repetitions.
 */
function metricsCostUs(): number {
  const metrics = createServerMetrics();
  const rounds = 200_000;
  const once = () => {
    metrics.request(PATHS.search, 200);
    metrics.engine.group('ok');
    metrics.engine.providerCall('brave', 'ok', 0.0012);
  };
  for (let i = 0; i < 10_000; i += 1) once();
  const started = performance.now();
  for (let i = 0; i < rounds; i += 1) once();
  return ((performance.now() - started) * 1000) / rounds;
}

async function main(): Promise<void> {
  const fixture = await child(['fixture']);
  if (!('fixture' in fixture.message)) throw new Error('unexpected message from the fixture process');
  const { baseUrl, apiKey } = fixture.message.fixture;
  // Redis runs beside them as its own process, as in a deployment (scripts/setup.d/redis-nginx.sh).
  const redis = await startRedis();
  const servers = await child(['servers', baseUrl, apiKey, redis.url]);
  if (!('servers' in servers.message)) throw new Error('unexpected message from the server process');
  const { server, proxy, memoryLimited, redisLimited, replicaA, replicaB } = servers.message.servers;
  try {
    const check = await fetch(server + PATHS.search, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: BODY,
    });
    if (check.status !== 200) throw new Error(`the server answered ${check.status} to the benchmark request`);
    await check.arrayBuffer();

    console.log(
      `Server benchmark: POST ${PATHS.search} (one query), Brave fixture at latency 0, loopback; cache, rate limit off; logs ${process.env.BENCH_LOG_LEVEL ?? 'silent'}`,
    );
    // Warm-up: JIT, keep-alive pools.
    await measure(proxy, { duration: 2 });
    await measure(server, { duration: 2 });
    if (process.env.BENCH_PROFILE_DIR) {
      // A profile of the saturated server alone, without the proxy's or the idle runs' samples.
      const profiled = await measure(server, {});
      console.log(`profiled: server ${profiled.rps.toFixed(0)} req/s; profile in ${process.env.BENCH_PROFILE_DIR}`);
      return;
    }

    const proxyMax = await measure(proxy, {});
    const serverMax = await measure(server, {});
    const fixed = { overallRate: RATE, connections: RATE_CONNECTIONS, duration: SECONDS * 2 };
    const proxyRate = await measure(proxy, fixed);
    const serverRate = await measure(server, fixed);

    // The per-key limit on, in process and in Redis, alternated so that load drifts hit both alike.
    await measure(memoryLimited, { duration: 2 });
    await measure(redisLimited, { duration: 2 });
    const memoryRuns: Measurement[] = [];
    const redisRuns: Measurement[] = [];
    for (let round = 0; round < 2; round += 1) {
      memoryRuns.push(await measure(memoryLimited, { duration: Math.max(1, SECONDS / 2) }));
      redisRuns.push(await measure(redisLimited, { duration: Math.max(1, SECONDS / 2) }));
    }
    const mean = (runs: Measurement[]) => runs.reduce((n, m) => n + m.rps, 0) / runs.length;
    const memoryRps = mean(memoryRuns);
    const redisRps = mean(redisRuns);
    const limitRatio = redisRps / memoryRps;

    // A response cached in Redis by replica A, then served by replica B: every request to B a hit.
    const primed = await fetch(replicaA + PATHS.search, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: BODY,
    });
    if (primed.status !== 200) throw new Error(`replica A answered ${primed.status}`);
    await primed.arrayBuffer();
    const hit = await measure(replicaB, fixed);

    const failures = [proxyMax, serverMax, proxyRate, serverRate, ...memoryRuns, ...redisRuns, hit].reduce(
      (n, m) => n + m.failures,
      0,
    );
    const ratio = serverMax.rps / proxyMax.rps;
    const addedP50 = serverRate.p50 - proxyRate.p50;
    const addedP99 = serverRate.p99 - proxyRate.p99;
    const verdict = (ok: boolean) => (ok ? 'meets target' : 'MISSES target');
    const ms = (n: number) => `${n.toFixed(2)} ms`;
    const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(2)} ms`;
    console.log(`
throughput, ${CONNECTIONS} connections, ${SECONDS} s each
  server  ${serverMax.rps.toFixed(0).padStart(7)} req/s
  proxy   ${proxyMax.rps.toFixed(0).padStart(7)} req/s
  ratio   ${ratio.toFixed(2)}x   (target >= 0.70x: ${verdict(ratio >= 0.7)})

latency at ${RATE} req/s, ${RATE_CONNECTIONS} connections, ${SECONDS * 2} s each
                                  p50          p99
  server                          ${ms(serverRate.p50).padEnd(12)} ${ms(serverRate.p99)}
  proxy                           ${ms(proxyRate.p50).padEnd(12)} ${ms(proxyRate.p99)}
  added by the server             ${signed(addedP50).padEnd(12)} ${signed(addedP99)}
  (targets: p50 <= +0.5 ms: ${verdict(addedP50 <= 0.5)}; p99 <= +2 ms: ${verdict(addedP99 <= 2)})

shared state in Redis (a private redis-server on loopback), ${CONNECTIONS} connections, alternated runs
  per-key limit in process     ${memoryRps.toFixed(0).padStart(7)} req/s
  per-key limit in Redis       ${redisRps.toFixed(0).padStart(7)} req/s
  ratio                        ${limitRatio.toFixed(2)}x   (target >= 0.85x: ${verdict(limitRatio >= 0.85)})
  cache hit on replica B of what replica A cached, ${RATE} req/s: p50 ${ms(hit.p50)}, p99 ${ms(hit.p99)}
  (target p50 <= 1 ms: ${verdict(hit.p50 <= 1)})
metrics (on above): ${metricsCostUs().toFixed(2)} µs of updates per search, ${((metricsCostUs() * serverMax.rps) / 10_000).toFixed(2)} % of a core at ${serverMax.rps.toFixed(0)} req/s
`);
    if (failures > 0) {
      console.error(`${failures} requests failed or answered non-2xx: the numbers above are not valid.`);
      process.exitCode = 1;
    }
  } finally {
    // SIGINT lets a profiled child write its profile before it exits.
    servers.process.kill('SIGINT');
    fixture.process.kill();
    await redis.close();
  }
}

const [role, ...args] = process.argv.slice(2);
if (role === 'fixture') await runFixture();
else if (role === 'servers') {
  process.once('SIGINT', () => process.exit(0));
  await runServers(args[0] ?? '', args[1] ?? '', args[2] ?? '');
} else await main();
