// Server benchmark (ADR 0054): our server next to references in front of the same Brave fixture, on
// loopback. Run with `pnpm bench:server`. It prints rates, ratios and verdicts, never fails a build
// on them: timing on a shared 2-core machine is for people to read, not for CI to gate.
//
// Processes apart, so that nothing measured shares an event loop or a heap with anything else: this
// one runs autocannon; a child runs the fixture; each of our servers runs in a child of its own
// (`bench/servers.ts`, one loaded at a time), as `openmates serve` runs one; a child runs the
// references (`bench/references.ts`: the bare and the cleaning proxy, the provider calls alone, the
// floors). Redis runs as its own `redis-server`.
//
// Compared sides are measured in alternating rounds within one run (ABAB…, `bench/shared.ts`), so
// that load drifts on a shared machine hit every side alike. What is measured: `bench/variants.ts`
// (the plain and the markup variant), `bench/redis.ts` (the Redis run), `bench/cpu.ts` (CPU time
// per request and profiles).
//
// BENCH_BASELINE=/path/to/another/checkout adds that tree's server (its `packages/server` and
// `packages/core` sources, dependencies installed) as a further side, alternated with this one.
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PATHS } from '@openmates/contract';
import { startRedis } from '@openmates/fixtures';
import { checkCleaning } from './bench/cleaning-proxy.ts';
import { cpuRun, measuredServer, profileRun } from './bench/cpu.ts';
import { redisRun } from './bench/redis.ts';
import { runReferences, type ServerBodies } from './bench/references.ts';
import { startReplay } from './bench/replay.ts';
import { runFixture, runServer, SERVER_NAMES } from './bench/servers.ts';
import {
  type Bench,
  child,
  FIVE,
  FIVE_MARKED,
  LATENCY_ROUND_S,
  LATENCY_ROUNDS,
  load,
  MARKED_COUNT,
  MARKED_QUERIES,
  ONE,
  ONE_MARKED,
  post,
  ROUND_S,
  ROUNDS,
  tally,
  type Urls,
  urlsOf,
} from './bench/shared.ts';
import { markupVariant, plainVariant } from './bench/variants.ts';

const TREE = fileURLToPath(new URL('../../../', import.meta.url));

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

/** Starts the servers (this tree's, the baseline's) and the references; checks the cleaning proxy. */
async function setUp(
  fixture: ChildProcess,
  baseUrl: string,
  apiKey: string,
  redisUrl: string,
  replayUrl: string,
  children: ChildProcess[],
) {
  // BENCH_PROFILE_DIR writes V8 CPU profiles of our server's and the references' processes there.
  const profiling = process.env.BENCH_PROFILE_DIR !== undefined;
  // Each server of a tree in a process of its own, started together; a profile run profiles the one
  // it measures.
  const measured = measuredServer(process.env.BENCH_PROFILE_RUN ?? 'one');
  const serversOf = async (tree: string, profiled: boolean) => {
    const started = await Promise.all(
      SERVER_NAMES.map((name) =>
        child(['server', tree, name, baseUrl, apiKey, redisUrl, replayUrl], profiled && name === measured),
      ),
    );
    children.push(...started.map((one) => one.process));
    const urls: Urls = Object.assign({}, ...started.map((one) => urlsOf(one.message)));
    const processes = Object.fromEntries(started.map((one, i) => [SERVER_NAMES[i], one.process]));
    return { urls, processes };
  };
  const ours = await serversOf(TREE, profiling);
  const servers = ours.urls;
  const tree = process.env.BENCH_BASELINE;
  let baseline: Bench['baseline'];
  if (tree) baseline = { ...(await serversOf(tree, false)), tree };
  const server = servers.server as string;
  await post(server, ONE);
  // The floors answer the server's own cache-hit bodies, byte for byte.
  const hitBody = await post(servers.memoryCached as string, ONE);
  const markedHitBody = await post(servers.memoryCached as string, ONE_MARKED);
  await post(servers.replicaA as string, ONE);
  // The provider calls alone answer with our server's own answer to the same request.
  const answers: Record<string, string> = {};
  for (const body of [ONE, FIVE, ONE_MARKED, FIVE_MARKED]) answers[body] = await post(server, body);
  const bodies: ServerBodies = { hit: hitBody, markedHit: markedHitBody, answers };
  const reference = await child(['references', baseUrl, apiKey, replayUrl, JSON.stringify(bodies)], profiling);
  children.push(reference.process);
  const refs = urlsOf(reference.message);
  // Over the same recorded provider answers, the cleaning proxy answers what the server answers.
  const compared = checkCleaning(
    await post(servers.checked as string, FIVE_MARKED),
    await post(refs.cleaningChecked as string, FIVE_MARKED),
  );
  const bench: Bench = {
    fixture,
    servers,
    ours: ours.processes,
    refs,
    reference: reference.process,
    hitBody,
    markedHitBody,
  };
  if (baseline) bench.baseline = baseline;
  return { bench, compared, profiling };
}

/** The benchmark's parts, in the order they run. */
const PARTS = ['plain', 'markup', 'redis'];

async function main(): Promise<void> {
  const started = Date.now();
  // BENCH_PARTS (all of PARTS by default) runs some of the parts only.
  const parts = new Set(process.env.BENCH_PARTS?.split(',') ?? PARTS);
  const unknown = [...parts].filter((part) => !PARTS.includes(part));
  if (unknown.length > 0) {
    console.error(`BENCH_PARTS names no part ${unknown.join(', ')}; the parts are ${PARTS.join(', ')}.`);
    process.exit(2);
  }
  const fixture = await child(['fixture']);
  if (!('fixture' in fixture.message)) throw new Error('unexpected message from the fixture process');
  const { baseUrl, apiKey } = fixture.message.fixture;
  // Redis runs beside them as its own process, as in a deployment (scripts/setup.d/redis-nginx.sh).
  const redis = await startRedis();
  const replay = await startReplay(baseUrl, apiKey, MARKED_QUERIES, MARKED_COUNT);
  const children: ChildProcess[] = [fixture.process];
  try {
    const { bench, compared, profiling } = await setUp(
      fixture.process,
      baseUrl,
      apiKey,
      redis.url,
      replay.url,
      children,
    );
    const cpu = process.env.BENCH_CPU_RUN;
    if (cpu) return await cpuRun(bench, cpu);
    if (profiling) return await profileRun(bench, process.env.BENCH_PROFILE_RUN ?? 'one');
    console.log(`Server benchmark: POST ${PATHS.search}, Brave fixture at latency 0, loopback; cache off unless said;
logs ${process.env.BENCH_LOG_LEVEL ?? 'silent'}; ${ROUNDS} alternated rounds of ${ROUND_S} s per side (fixed-rate runs: ${LATENCY_ROUNDS} of ${LATENCY_ROUND_S} s); load average ${load()} at the start
the cleaning proxy's answers equal the server's, request ids aside: ${compared} results compared over the same provider answers
`);
    if (parts.has('plain')) console.log(`${await plainVariant(bench)}\n\nload average ${load()}\n`);
    if (parts.has('markup')) console.log(`${await markupVariant(bench)}\n\nload average ${load()}\n`);
    if (parts.has('redis')) console.log(`${await redisRun(bench)}\n`);
    console.log(`metrics (on above): ${(await metricsCostUs()).toFixed(2)} µs of updates per search, measured in this process

load average ${load()} at the end; ${((Date.now() - started) / 1000).toFixed(0)} s in all`);
    if (tally.failures > 0) {
      console.error(`${tally.failures} requests failed or answered non-2xx: the numbers above are not valid.`);
      process.exitCode = 1;
    }
  } finally {
    // SIGINT lets a profiled child write its profile before it exits.
    for (const proc of children) proc.kill('SIGINT');
    await replay.close();
    await redis.close();
  }
}

const [role, ...args] = process.argv.slice(2);
if (role === 'fixture') await runFixture();
else if (role === 'server' || role === 'references') {
  process.once('SIGINT', () => process.exit(0));
  const [a = '', b = '', c = '', d = '', e = '', f = ''] = args;
  if (role === 'server') await runServer(a, b, c, d, e, f);
  else await runReferences(a, b, c, d);
} else await main();
