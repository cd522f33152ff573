// Server benchmark (ADR 0054): our server next to a keep-alive node:http proxy in front of the same
// Brave fixture, on loopback. Run with `pnpm bench:server`. It prints rates and ratios, never fails
// a build on them: timing on a shared 2-core machine is for people to read, not for CI to gate.
//
// Four processes, so that nothing measured shares an event loop with anything else: this one runs
// autocannon; a child runs the fixture; a child runs our servers (one is loaded at a time); a child
// runs the references (the proxy, the provider calls alone, the floors). Redis runs as its own `redis-server`.
//
// Compared sides are measured in alternating rounds within one run (ABAB…), so that load drifts on
// a shared machine hit every side alike; the ratios are of the means over the rounds.
//
// BENCH_BASELINE=/path/to/another/checkout adds that tree's server (its `packages/server` and
// `packages/core` sources, dependencies installed) as a further side, alternated with this one.
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PATHS } from '@openmates/contract';
import { startBraveFixture, startRedis } from '@openmates/fixtures';
import autocannon, { type Options } from 'autocannon';

const QUERIES = ['benchmark query one', 'benchmark query two', 'benchmark query three', 'benchmark query four'];
const ONE = JSON.stringify({ requests: [{ query: 'benchmark query' }] });
const FIVE = JSON.stringify({ requests: ['benchmark query', ...QUERIES].map((query) => ({ query })) });
/**
 * The markup variant: the fixture's `marked` scenario puts inline `<strong>` markup in every title
 * and description and varies them with each answer (so no memo of cleaned text helps), the
 * tabloid filter is off, and the proxy asks Brave for the same count as the server (10: without
 * the filter the engine asks for `count` itself).
 */
const MARKED = ['marked benchmark query', ...QUERIES.map((q) => `marked ${q}`)];
const ONE_MARKED = JSON.stringify({ requests: [{ query: MARKED[0], filter_tabloids: false }] });
const FIVE_MARKED = JSON.stringify({ requests: MARKED.map((query) => ({ query, filter_tabloids: false })) });
/** What the server asks Brave for per query: twice `count` (10) with the tabloid filter on, `count` without. */
const PLAIN_COUNT = 20;
const MARKED_COUNT = 10;
/** Seconds of measurement per side (`BENCH_DURATION_S`, default 10), split over `ROUNDS` rounds. */
const SECONDS = Number(process.env.BENCH_DURATION_S ?? 10);
/** Short alternated rounds follow the load of a shared machine more closely than long ones. */
const ROUNDS = 4;
const ROUND_S = Math.max(1, SECONDS / ROUNDS);
const CONNECTIONS = 10;
const RATE = 100;
/**
 * Seconds of a fixed-rate round: three throughput rounds, so that a round's p99 is of 750
 * requests (its eighth-slowest), not of 250 (its third-slowest), which one stall of the machine moves.
 */
const LATENCY_ROUND_S = 3 * ROUND_S;
/**
 * Connections for the fixed-rate runs. autocannon splits the rate over its connections and they
 * tend to fire together, so 10 connections at 10 req/s each arrive as bursts of 10 and measure
 * queueing; two connections keep requests spread out while one slow answer cannot stall the rate.
 */
const RATE_CONNECTIONS = 2;
/** The options of every fixed-rate run. */
const AT_RATE: Partial<Options> = { overallRate: RATE, connections: RATE_CONNECTIONS, duration: LATENCY_ROUND_S };
/** A limit no benchmark reaches: every request is checked and counted, none refused. */
const UNREACHED_LIMIT = '100000000';
const HERE = fileURLToPath(import.meta.url);
const TREE = fileURLToPath(new URL('../../../', import.meta.url));

type Urls = Record<string, string>;
type Message = { fixture: { baseUrl: string; apiKey: string } } | { urls: Urls } | { cpu: NodeJS.CpuUsage };

async function runFixture(): Promise<void> {
  const brave = await startBraveFixture({ latencyMs: 0 });
  process.send?.({ fixture: { baseUrl: brave.baseUrl, apiKey: brave.apiKey } } satisfies Message);
}

/** Our servers as `openmates serve` builds them, from the tree at `root` (this one, or BENCH_BASELINE). */
async function runServers(root: string, baseUrl: string, apiKey: string, redisUrl: string): Promise<void> {
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
  };
  answerCpu();
  process.send?.({ urls } satisfies Message);
}

/** Answers the benchmark's question for this process's CPU time around a measured run (BENCH_CPU_RUN). */
function answerCpu(): void {
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() } satisfies Message);
  });
}

/** One result as the proxy maps it: what a minimal API would hand on from Brave's answer. */
interface MappedResult {
  url: string;
  title: string;
  description: string;
}

/**
 * The reference, at the minimum the server's work asks for: reads and parses the request body,
 * asks the fixture what the Brave provider would ask for each query over a keep-alive node:http
 * agent, parses each answer, maps its results and serializes one response. No validation, no
 * text hygiene, no URL checks, no budget, no fitting: the gap to it is what those cost.
 *
 * Beside it, the floor of the HTTP stack: a node:http server answering a fixed JSON body (the
 * server's own cache-hit answer, so of the same size) to every request; and, for comparison, that
 * floor reading and parsing the request body before it answers. And the provider calls alone: the
 * proxy's exchanges with the fixture, each answer read but never parsed, then our server's own
 * answer to that request, as fixed bytes: what every side pays before its own work.
 */
async function runProxy(baseUrl: string, apiKey: string, floorBodies: string): Promise<void> {
  const [floorBody = '', markedFloorBody = '', answers = {}] = JSON.parse(floorBodies) as [
    string,
    string,
    Record<string, string>,
  ];
  const agent = new Agent({ keepAlive: true });
  const upstream = (query: string, count: number) =>
    `${baseUrl}/web/search?${new URLSearchParams({
      q: query,
      count: String(count),
      country: 'US',
      safesearch: 'moderate',
      text_decorations: 'false',
      result_filter: 'web',
    })}`;
  /** A message's whole body as text. */
  function textOf(message: IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      message.on('data', (chunk: Buffer) => chunks.push(chunk));
      message.once('error', reject);
      message.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  }
  /** The fixture's answer to `query`, as text. */
  function fetchAnswer(query: string, count: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const out = httpRequest(
        upstream(query, count),
        { agent, headers: { 'x-subscription-token': apiKey } },
        (answer) => textOf(answer).then(resolve, reject),
      );
      out.once('error', reject);
      out.end();
    });
  }
  async function ask(query: string, count: number): Promise<MappedResult[]> {
    const parsed = JSON.parse(await fetchAnswer(query, count)) as {
      web?: { results?: { url: string; title: string; description?: string }[] };
    };
    return (parsed.web?.results ?? []).map((r) => ({ url: r.url, title: r.title, description: r.description ?? '' }));
  }
  const readJson = async (req: IncomingMessage): Promise<{ requests: { query: string }[] }> =>
    JSON.parse(await textOf(req));
  const send = (res: ServerResponse, status: number, body: string) =>
    res
      .writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      })
      .end(body);
  const proxyAsking = (count: number) =>
    createServer((req, res) => {
      readJson(req)
        .then(async ({ requests }) => {
          const groups = await Promise.all(requests.map(async (r, id) => ({ id, results: await ask(r.query, count) })));
          send(res, 200, JSON.stringify({ results: groups, provider: 'Brave' }));
        })
        .catch(() => send(res, 502, '{"error":"upstream"}'));
    });
  const answerBytes = new Map(Object.entries(answers).map(([request, answer]) => [request, Buffer.from(answer)]));
  const callsAlone = (count: number) =>
    createServer((req, res) => {
      textOf(req)
        .then(async (text) => {
          const { requests } = JSON.parse(text) as { requests: { query: string }[] };
          await Promise.all(requests.map((r) => fetchAnswer(r.query, count)));
          const bytes = answerBytes.get(text);
          if (bytes === undefined) throw new Error('no answer of the server to this request');
          answerFixed(res, bytes);
        })
        .catch(() => send(res, 502, '{"error":"upstream"}'));
    });
  const answerFixed = (res: ServerResponse, bytes: Buffer) =>
    res
      .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length })
      .end(bytes);
  const fixedFloor = (body: string) => {
    const bytes = Buffer.from(body);
    return createServer((req, res) => {
      req.resume();
      req.once('end', () => answerFixed(res, bytes));
    });
  };
  // The floor that reads and parses the request body first: what a cache hit is held to.
  const readingFloorOf = (body: string) => {
    const bytes = Buffer.from(body);
    return createServer((req, res) => {
      readJson(req).then(
        () => answerFixed(res, bytes),
        () => send(res, 400, '{"error":"body"}'),
      );
    });
  };
  // The reading floor answering as the server must: a request id of its own in a header and in the
  // body (so a fresh body per request) and the server's `cache-control`. What any answer costs at least.
  const readingFloorWithIdOf = (body: string) => {
    const key = '"request_id":"';
    const found = body.indexOf(key);
    if (found < 0) throw new Error('the cache-hit body has no request_id to replace');
    const at = found + key.length;
    const [head, tail] = [body.slice(0, at), body.slice(at + randomUUID().length)];
    return createServer((req, res) => {
      readJson(req).then(
        () => {
          const id = randomUUID();
          const bytes = Buffer.from(`${head}${id}${tail}`);
          res
            .writeHead(200, {
              'content-type': 'application/json; charset=utf-8',
              'cache-control': 'no-store',
              'x-request-id': id,
              'content-length': bytes.length,
            })
            .end(bytes);
        },
        () => send(res, 400, '{"error":"body"}'),
      );
    });
  };
  const listening = async (s: ReturnType<typeof createServer>) => {
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
  answerCpu();
  const urls = {
    proxy: await listening(proxyAsking(PLAIN_COUNT)),
    proxyMarked: await listening(proxyAsking(MARKED_COUNT)),
    callsAlone: await listening(callsAlone(PLAIN_COUNT)),
    callsAloneMarked: await listening(callsAlone(MARKED_COUNT)),
    floor: await listening(fixedFloor(floorBody)),
    readingFloor: await listening(readingFloorOf(floorBody)),
    readingFloorWithId: await listening(readingFloorWithIdOf(floorBody)),
    readingFloorMarked: await listening(readingFloorOf(markedFloorBody)),
  };
  process.send?.({ urls } satisfies Message);
}

function child(args: string[], profile = false): Promise<{ process: ChildProcess; message: Message }> {
  const dir = process.env.BENCH_PROFILE_DIR;
  const proc = fork(HERE, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [...process.execArgv, ...(profile && dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [])],
  });
  return new Promise((resolve, reject) => {
    proc.once('message', (message) => resolve({ process: proc, message: message as Message }));
    proc.once('exit', (code) => reject(new Error(`benchmark child ${args[0]} exited with ${code}`)));
  });
}

/** The CPU time (user + system, µs) a servers child has used so far. */
function cpuOf(proc: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const answer = (message: Message) => {
      if (!('cpu' in message)) return;
      proc.off('message', answer);
      resolve(message.cpu.user + message.cpu.system);
    };
    proc.on('message', answer);
    proc.send('cpu');
  });
}

function urlsOf(message: Message): Urls {
  if (!('urls' in message)) throw new Error('unexpected message from a benchmark child');
  return message.urls;
}

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

/** One autocannon run; latencies come from its per-response times (sub-millisecond), not its histogram. */
function measure(url: string, body: string, options: Partial<Options>): Promise<Measurement> {
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: url + PATHS.search,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        connections: CONNECTIONS,
        duration: ROUND_S,
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

let failures = 0;

/**
 * Measures every side in alternating rounds (a 1 s warm-up each first) and returns the mean rate
 * and the mean of the rounds' p50 and p99 per side.
 */
async function alternate(sides: Urls, body: string, options: Partial<Options>): Promise<Record<string, Measurement>> {
  for (const url of Object.values(sides)) await measure(url, body, { ...options, duration: 1 });
  const runs: Record<string, Measurement[]> = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round += 1)
    for (const [name, url] of Object.entries(sides)) {
      const m = await measure(url, body, options);
      failures += m.failures;
      runs[name]?.push(m);
    }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return Object.fromEntries(
    Object.entries(runs).map(([name, ms]) => [
      name,
      {
        rps: mean(ms.map((m) => m.rps)),
        p50: mean(ms.map((m) => m.p50)),
        p99: mean(ms.map((m) => m.p99)),
        failures: ms.reduce((n, m) => n + m.failures, 0),
      },
    ]),
  );
}

async function post(url: string, body: string): Promise<string> {
  const answer = await fetch(url + PATHS.search, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status} to the benchmark request`);
  return text;
}

/**
 * What metrics add to one search, in µs: the updates a one-query search makes (its HTTP request,
 * its group, its provider call), timed in this process over many repetitions.
 */
async function metricsCostUs(): Promise<number> {
  const { createServerMetrics } = await import('../src/metrics.ts');
  const metrics = createServerMetrics();
  const rounds = 200_000;
  const once = () => {
    metrics.request(PATHS.search, 200);
    metrics.engine.group('ok');
    metrics.engine.providerCall('brave', 'ok', 0.0012);
  };
  for (let i = 0; i < 10_000; i += 1) once();
  const begun = performance.now();
  for (let i = 0; i < rounds; i += 1) once();
  return ((performance.now() - begun) * 1000) / rounds;
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
const rate = (m: Measurement | undefined) => `${(m?.rps ?? Number.NaN).toFixed(0).padStart(7)} req/s`;
const ratio = (a: Measurement | undefined, b: Measurement | undefined) =>
  ((a?.rps ?? Number.NaN) / (b?.rps ?? Number.NaN)).toFixed(2);
const verdict = (ok: boolean) => (ok ? 'meets target' : 'MISSES target');
const ms = (n: number) => `${n.toFixed(2)} ms`;
const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(2)} ms`;

async function main(): Promise<void> {
  const started = Date.now();
  const fixture = await child(['fixture']);
  if (!('fixture' in fixture.message)) throw new Error('unexpected message from the fixture process');
  const { baseUrl, apiKey } = fixture.message.fixture;
  // Redis runs beside them as its own process, as in a deployment (scripts/setup.d/redis-nginx.sh).
  const redis = await startRedis();
  const children: ChildProcess[] = [fixture.process];
  try {
    // BENCH_PROFILE_DIR writes a V8 CPU profile of our server's process there, to see what dominates.
    const profiling = process.env.BENCH_PROFILE_DIR !== undefined;
    const ours = await child(['servers', TREE, baseUrl, apiKey, redis.url], profiling);
    children.push(ours.process);
    const servers = urlsOf(ours.message);
    const baselineTree = process.env.BENCH_BASELINE;
    let baseline: Urls | undefined;
    let baselineProcess: ChildProcess | undefined;
    if (baselineTree) {
      const theirs = await child(['servers', baselineTree, baseUrl, apiKey, redis.url]);
      children.push(theirs.process);
      baselineProcess = theirs.process;
      baseline = urlsOf(theirs.message);
    }
    const server = servers.server as string;
    await post(server, ONE);
    // The floor answers the server's own cache-hit body, byte for byte.
    const hitBody = await post(servers.memoryCached as string, ONE);
    const markedHitBody = await post(servers.memoryCached as string, ONE_MARKED);
    await post(servers.replicaA as string, ONE);
    // The provider calls alone answer with our server's own answer to the same request.
    const answers: Record<string, string> = {};
    for (const body of [ONE, FIVE, ONE_MARKED, FIVE_MARKED]) answers[body] = await post(server, body);
    const reference = await child(['proxy', baseUrl, apiKey, JSON.stringify([hitBody, markedHitBody, answers])]);
    children.push(reference.process);
    const {
      proxy,
      proxyMarked,
      callsAlone,
      callsAloneMarked,
      floor,
      readingFloor,
      readingFloorWithId,
      readingFloorMarked,
    } = urlsOf(reference.message) as {
      proxy: string;
      proxyMarked: string;
      callsAlone: string;
      callsAloneMarked: string;
      floor: string;
      readingFloor: string;
      readingFloorWithId: string;
      readingFloorMarked: string;
    };

    const cpuRun = process.env.BENCH_CPU_RUN;
    if (cpuRun) {
      // CPU time per request of the reference (the proxy, or the floor for hits), our server and
      // BENCH_BASELINE's, alternated: on a shared machine rates swing with the load, the CPU a
      // request costs much less, and a saturated single-threaded server's rate is about the
      // inverse of it, so the ratio of CPU per request reads like the throughput ratio.
      const hit = cpuRun === 'hit';
      const pick = hit ? 'memoryCached' : 'server';
      const marked = cpuRun.startsWith('marked');
      const body = { five: FIVE, marked: ONE_MARKED, 'marked-five': FIVE_MARKED }[cpuRun] ?? ONE;
      const sides: [string, ChildProcess, string][] = [
        [hit ? 'floor' : 'proxy', reference.process, hit ? floor : marked ? proxyMarked : proxy],
        ['this tree', ours.process, servers[pick] as string],
      ];
      // The provider calls alone, beside a search: what is left above them is each side's own work.
      if (!hit) sides.splice(1, 0, ['calls alone', reference.process, marked ? callsAloneMarked : callsAlone]);
      if (baseline && baselineProcess) sides.push(['baseline', baselineProcess, baseline[pick] as string]);
      for (const [, , url] of sides) await measure(url, body, { duration: 1 });
      const cpu = new Map(sides.map(([name]) => [name, [] as number[]]));
      for (let round = 0; round < ROUNDS; round += 1)
        for (const [name, proc, url] of sides) {
          const begun = await cpuOf(proc);
          const m = await measure(url, body, {});
          cpu.get(name)?.push(((await cpuOf(proc)) - begun) / (m.rps * ROUND_S));
          failures += m.failures;
        }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const reference0 = mean(cpu.get(sides[0]?.[0] as string) ?? []);
      console.log(`CPU per request (${cpuRun}), ${ROUNDS} alternated rounds; load average ${load()}`);
      for (const [name, us] of cpu)
        console.log(
          `  ${name.padEnd(11)} ${mean(us).toFixed(0).padStart(6)} µs (rounds ${us.map((n) => n.toFixed(0)).join(' / ')}); the reference's CPU / this: ${(reference0 / mean(us)).toFixed(2)}`,
        );
      const calls = cpu.get('calls alone');
      if (calls) {
        const own = [...cpu].filter(([name]) => name !== 'calls alone');
        console.log(
          `  own work above the calls alone: ${own.map(([name, us]) => `${name} ${(mean(us) - mean(calls)).toFixed(0)} µs`).join(', ')}`,
        );
      }
      return;
    }

    if (profiling) {
      // BENCH_PROFILE_RUN=hit profiles cache hits in process, =five requests of five queries,
      // =marked and =marked-five the markup variant's.
      const run = process.env.BENCH_PROFILE_RUN ?? 'one';
      const target = run === 'hit' ? (servers.memoryCached as string) : server;
      const body = { five: FIVE, marked: ONE_MARKED, 'marked-five': FIVE_MARKED }[run] ?? ONE;
      await measure(target, body, { duration: 2 });
      const begun = await cpuOf(ours.process);
      const profiled = await measure(target, body, { duration: SECONDS });
      const served = profiled.rps * SECONDS;
      const cpuUs = ((await cpuOf(ours.process)) - begun) / served;
      console.log(
        `profiled (${run}): ${profiled.rps.toFixed(0)} req/s, ${served.toFixed(0)} requests in the last ${SECONDS} s, ${cpuUs.toFixed(0)} µs of CPU per request (profiler included); profile in ${process.env.BENCH_PROFILE_DIR}`,
      );
      return;
    }

    const before = load();
    const withBaseline = (sides: Urls, pick: string): Urls =>
      baseline?.[pick] ? { ...sides, baseline: baseline[pick] as string } : sides;
    const throughputSides = (pickBaseline: string) =>
      withBaseline(
        {
          proxy,
          server,
          memoryLimited: servers.memoryLimited as string,
          redisLimited: servers.redisLimited as string,
        },
        pickBaseline,
      );
    const one = await alternate(throughputSides('server'), ONE, {});
    const five = await alternate(throughputSides('server'), FIVE, {});
    const latency = await alternate(withBaseline({ proxy, server }, 'server'), ONE, AT_RATE);
    const hits = await alternate(
      withBaseline(
        {
          floor,
          readingFloor,
          readingFloorWithId,
          memoryHit: servers.memoryCached as string,
          redisHit: servers.replicaB as string,
        },
        'memoryCached',
      ),
      ONE,
      {},
    );
    const hitLatency = await alternate({ redisHit: servers.replicaB as string }, ONE, AT_RATE);
    // The markup variant, against the proxy asking the same count.
    const markedSides = { proxy: proxyMarked, server };
    const oneMarked = await alternate(markedSides, ONE_MARKED, {});
    const fiveMarked = await alternate(markedSides, FIVE_MARKED, {});
    const latencyMarked = await alternate(markedSides, ONE_MARKED, AT_RATE);
    const hitsMarked = await alternate(
      { readingFloor: readingFloorMarked, memoryHit: servers.memoryCached as string },
      ONE_MARKED,
      {},
    );

    const throughputTable = (
      m: Record<string, Measurement>,
      target: number,
    ) => `  proxy                         ${rate(m.proxy)}
  server                        ${rate(m.server)}   ${ratio(m.server, m.proxy)}x   (target >= ${target.toFixed(2)}x: ${verdict((m.server?.rps ?? 0) / (m.proxy?.rps ?? 1) >= target)})
  server, per-key limit in process ${rate(m.memoryLimited).slice(3)}   ${ratio(m.memoryLimited, m.proxy)}x
  server, per-key limit in Redis   ${rate(m.redisLimited).slice(3)}   ${ratio(m.redisLimited, m.proxy)}x   (${ratio(m.redisLimited, m.memoryLimited)}x the limit in process; target >= 0.85x)${
    m.baseline
      ? `
  baseline server (${baselineTree}) ${rate(m.baseline)}   ${ratio(m.baseline, m.proxy)}x; this tree ${ratio(m.server, m.baseline)}x the baseline`
      : ''
  }`;
    const latencyTable = (m: Record<string, Measurement>) => {
      const p50 = (m.server?.p50 ?? 0) - (m.proxy?.p50 ?? 0);
      const p99 = (m.server?.p99 ?? 0) - (m.proxy?.p99 ?? 0);
      return `  proxy                                                 ${ms(m.proxy?.p50 ?? Number.NaN).padEnd(12)} ${ms(m.proxy?.p99 ?? Number.NaN)}
  server                                                ${ms(m.server?.p50 ?? Number.NaN).padEnd(12)} ${ms(m.server?.p99 ?? Number.NaN)}
  added by the server                                   ${signed(p50).padEnd(12)} ${signed(p99)}
  (targets: p50 <= +0.5 ms: ${verdict(p50 <= 0.5)}; p99 <= +2 ms: ${verdict(p99 <= 2)})`;
    };
    const hitRatio = (hits.memoryHit?.rps ?? 0) / (hits.readingFloor?.rps ?? 1);
    const markedHitRatio = (hitsMarked.memoryHit?.rps ?? 0) / (hitsMarked.readingFloor?.rps ?? 1);
    const markedTable = (
      m: Record<string, Measurement>,
      target: number,
    ) => `  proxy asking ${MARKED_COUNT}               ${rate(m.proxy)}
  server                        ${rate(m.server)}   ${ratio(m.server, m.proxy)}x   (target >= ${target.toFixed(2)}x: ${verdict((m.server?.rps ?? 0) / (m.proxy?.rps ?? 1) >= target)})`;
    console.log(`Server benchmark: POST ${PATHS.search}, Brave fixture at latency 0, loopback; cache off unless said;
logs ${process.env.BENCH_LOG_LEVEL ?? 'silent'}; ${ROUNDS} alternated rounds of ${ROUND_S} s per side; load average ${before} at the start

throughput, one query a request, ${CONNECTIONS} connections
${throughputTable(one, 0.7)}

throughput, five queries a request, ${CONNECTIONS} connections
${throughputTable(five, 0.8)}

latency at ${RATE} req/s, one query, ${RATE_CONNECTIONS} connections, rounds of ${LATENCY_ROUND_S} s  p50          p99
${latencyTable(latency)}

cache hits, the same request repeated, ${CONNECTIONS} connections (body ${Buffer.byteLength(hitBody)} bytes)
  node:http, fixed body (floor) ${rate(hits.floor)}
  node:http reading the body    ${rate(hits.readingFloor)}   ${ratio(hits.readingFloor, hits.floor)}x   (the floor, reading and parsing the request first: the reading floor)
  node:http reading, with an id  ${rate(hits.readingFloorWithId)}   ${ratio(hits.readingFloorWithId, hits.readingFloor)}x the reading floor   (answering as the server must: a fresh body with its own request id, the server's headers)
  server, hit in process        ${rate(hits.memoryHit)}   ${ratio(hits.memoryHit, hits.floor)}x; ${hitRatio.toFixed(2)}x the reading floor   (target >= 0.85x: ${verdict(hitRatio >= 0.85)})
  server, hit in Redis          ${rate(hits.redisHit)}   ${ratio(hits.redisHit, hits.floor)}x   (replica B answering what replica A cached)${
    hits.baseline
      ? `
  baseline, hit in process      ${rate(hits.baseline)}   ${ratio(hits.baseline, hits.floor)}x`
      : ''
  }
  hit in Redis at ${RATE} req/s: p50 ${ms(hitLatency.redisHit?.p50 ?? Number.NaN)}, p99 ${ms(hitLatency.redisHit?.p99 ?? Number.NaN)} (target p50 <= 1 ms: ${verdict((hitLatency.redisHit?.p50 ?? 9) <= 1)})

markup variant: every title and description with inline <strong>, varied with each answer; filter_tabloids false
throughput, one query a request, ${CONNECTIONS} connections
${markedTable(oneMarked, 0.7)}
throughput, five queries a request, ${CONNECTIONS} connections
${markedTable(fiveMarked, 0.8)}
latency at ${RATE} req/s, one query, ${RATE_CONNECTIONS} connections, rounds of ${LATENCY_ROUND_S} s  p50          p99
${latencyTable(latencyMarked)}
cache hits (body ${Buffer.byteLength(markedHitBody)} bytes)
  node:http reading the body    ${rate(hitsMarked.readingFloor)}
  server, hit in process        ${rate(hitsMarked.memoryHit)}   ${markedHitRatio.toFixed(2)}x the reading floor   (target >= 0.85x: ${verdict(markedHitRatio >= 0.85)})

metrics (on above): ${(await metricsCostUs()).toFixed(2)} µs of updates per search, measured in this process

load average ${load()} at the end; ${((Date.now() - started) / 1000).toFixed(0)} s in all
`);
    if (failures > 0) {
      console.error(`${failures} requests failed or answered non-2xx: the numbers above are not valid.`);
      process.exitCode = 1;
    }
  } finally {
    // SIGINT lets a profiled child write its profile before it exits.
    for (const proc of children) proc.kill('SIGINT');
    await redis.close();
  }
}

const [role, ...args] = process.argv.slice(2);
if (role === 'fixture') await runFixture();
else if (role === 'servers' || role === 'proxy') {
  process.once('SIGINT', () => process.exit(0));
  const [a = '', b = '', c = '', d = ''] = args;
  if (role === 'servers') await runServers(a, b, c, d);
  else await runProxy(a, b, c);
} else await main();
