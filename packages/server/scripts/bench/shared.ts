// What every part of the server benchmark shares: the request bodies, the round lengths, one
// autocannon run, alternated rounds, the children it forks and how it prints a figure.
import { type ChildProcess, fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { PATHS } from '@openmates/contract';
import autocannon, { type Options } from 'autocannon';

const QUERIES = ['benchmark query one', 'benchmark query two', 'benchmark query three', 'benchmark query four'];
export const ONE = JSON.stringify({ requests: [{ query: 'benchmark query' }] });
export const FIVE = JSON.stringify({ requests: ['benchmark query', ...QUERIES].map((query) => ({ query })) });
/**
 * The markup variant: the fixture's `marked` scenario puts inline `<strong>` markup in every title
 * and description and varies them with each answer (so no memo of cleaned text helps), the
 * tabloid filter is off, and the proxies ask Brave for the same count as the server (10: without
 * the filter the engine asks for `count` itself).
 */
export const MARKED_QUERIES = ['marked benchmark query', ...QUERIES.map((q) => `marked ${q}`)];
export const ONE_MARKED = JSON.stringify({ requests: [{ query: MARKED_QUERIES[0], filter_tabloids: false }] });
export const FIVE_MARKED = JSON.stringify({
  requests: MARKED_QUERIES.map((query) => ({ query, filter_tabloids: false })),
});
/** What the server asks Brave for per query: twice `count` (10) with the tabloid filter on, `count` without. */
export const PLAIN_COUNT = 20;
export const MARKED_COUNT = 10;
/** Seconds of measurement per side (`BENCH_DURATION_S`, default 10), split over `ROUNDS` rounds. */
export const SECONDS = Number(process.env.BENCH_DURATION_S ?? 10);
/** Short alternated rounds follow the load of a shared machine more closely than long ones (`BENCH_ROUNDS`). */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
/**
 * Seconds of warm-up at full rate per side before its rounds (`BENCH_WARMUP_S`, default 3): the
 * server's first second or two run slower than its steady state (its code is still being
 * optimized: a marked query's CPU per request was about 1.7 times the later rounds' after a 1 s
 * warm-up), and every side gets the same.
 */
export const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 3);
export const ROUND_S = Math.max(1, SECONDS / ROUNDS);
export const CONNECTIONS = 10;
export const RATE = 100;
/**
 * Fixed-rate rounds: five, so that the median of their p99s is one round's; each of three
 * throughput rounds, so that a round's p99 is of 750 requests (its eighth-slowest), not of 250.
 */
export const LATENCY_ROUNDS = 5;
export const LATENCY_ROUND_S = 3 * ROUND_S;
/**
 * Connections for the fixed-rate runs. autocannon splits the rate over its connections and they
 * tend to fire together, so 10 connections at 10 req/s each arrive as bursts of 10 and measure
 * queueing; two connections keep requests spread out while one slow answer cannot stall the rate.
 */
export const RATE_CONNECTIONS = 2;
/** The options of every fixed-rate run. */
export const AT_RATE: Partial<Options> = {
  overallRate: RATE,
  connections: RATE_CONNECTIONS,
  duration: LATENCY_ROUND_S,
};

export type Urls = Record<string, string>;
export type Message = { fixture: { baseUrl: string; apiKey: string } } | { urls: Urls } | { cpu: NodeJS.CpuUsage };

/** The benchmark's entry: every child is this file again, with its role as the first argument. */
const ENTRY = fileURLToPath(new URL('../bench-server.ts', import.meta.url));

/** Forks a child of the benchmark in `role` and waits for its first message (its URLs). */
export function child(args: string[], profile = false): Promise<{ process: ChildProcess; message: Message }> {
  const dir = process.env.BENCH_PROFILE_DIR;
  const proc = fork(ENTRY, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [...process.execArgv, ...(profile && dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [])],
  });
  return new Promise((resolve, reject) => {
    proc.once('message', (message) => resolve({ process: proc, message: message as Message }));
    proc.once('exit', (code) => reject(new Error(`benchmark child ${args[0]} exited with ${code}`)));
  });
}

/** Answers the benchmark's question for this process's CPU time around a measured run (BENCH_CPU_RUN). */
export function answerCpu(): void {
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() } satisfies Message);
  });
}

/** The CPU time (µs) a child has used so far, user and system apart. */
export function cpuOf(proc: ChildProcess): Promise<NodeJS.CpuUsage> {
  return new Promise((resolve) => {
    const answer = (message: Message) => {
      if (!('cpu' in message)) return;
      proc.off('message', answer);
      resolve(message.cpu);
    };
    proc.on('message', answer);
    proc.send('cpu');
  });
}

export function urlsOf(message: Message): Urls {
  if (!('urls' in message)) throw new Error('unexpected message from a benchmark child');
  return message.urls;
}

export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  /** Each round's p99, in the order run (one entry for a single run). */
  p99s: number[];
  failures: number;
}

/** One autocannon run; latencies come from its per-response times (sub-millisecond), not its histogram. */
export function measure(url: string, body: string, options: Partial<Options>): Promise<Measurement> {
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
          p99s: [at(0.99)],
          failures: result.errors + result.timeouts + result.non2xx,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status === 200) times.push(responseTime);
    });
  });
}

/** Requests that failed or answered non-2xx in any run so far: the figures are void when any did. */
export const tally = { failures: 0 };

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[half] as number)
    : ((sorted[half - 1] as number) + (sorted[half] as number)) / 2;
}

/**
 * Measures every side in alternating rounds (a warm-up of WARMUP_S each first): per side the mean rate,
 * the mean of the rounds' p50s, and the median of the rounds' p99s (one stall of a shared machine
 * moves one round's p99 by milliseconds, and a mean with it), each round's p99 kept.
 */
export async function alternate(
  sides: Urls,
  body: string,
  options: Partial<Options>,
  rounds = ROUNDS,
): Promise<Record<string, Measurement>> {
  for (const url of Object.values(sides)) await measure(url, body, { ...options, duration: WARMUP_S });
  const runs: Record<string, Measurement[]> = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1)
    for (const [name, url] of Object.entries(sides)) {
      const m = await measure(url, body, options);
      tally.failures += m.failures;
      runs[name]?.push(m);
    }
  return Object.fromEntries(
    Object.entries(runs).map(([name, ms]) => [
      name,
      {
        rps: mean(ms.map((m) => m.rps)),
        p50: mean(ms.map((m) => m.p50)),
        p99: median(ms.map((m) => m.p99)),
        p99s: ms.map((m) => m.p99),
        failures: ms.reduce((n, m) => n + m.failures, 0),
      },
    ]),
  );
}

/** The server's answer to `body` (a 200, or the benchmark stops). */
export async function post(url: string, body: string): Promise<string> {
  const answer = await fetch(url + PATHS.search, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`${url} answered ${answer.status} to the benchmark request`);
  return text;
}

export const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
export const rate = (m: Measurement | undefined) => `${(m?.rps ?? Number.NaN).toFixed(0).padStart(7)} req/s`;
export const rpsRatio = (a: Measurement | undefined, b: Measurement | undefined) =>
  (a?.rps ?? Number.NaN) / (b?.rps ?? Number.NaN);
export const ratio = (a: Measurement | undefined, b: Measurement | undefined) => rpsRatio(a, b).toFixed(2);
export const verdict = (ok: boolean) => (ok ? 'meets target' : 'MISSES target');
export const ms = (n: number) => `${n.toFixed(2)} ms`;
export const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(2)} ms`;
/** `a`'s rate over `b`'s, held to `target`: `0.83x the proxy   (target >= 0.70x: meets target)`. */
export const against = (a: Measurement | undefined, b: Measurement | undefined, target: number, of = '') =>
  `${ratio(a, b)}x${of ? ` ${of}` : ''}   (target >= ${target.toFixed(2)}x: ${verdict(rpsRatio(a, b) >= target)})`;

/** Everything a part of the benchmark measures against: the children and the URLs each serves. */
export interface Bench {
  /** The Brave fixture's process. */
  fixture: ChildProcess;
  /** This tree's servers (`servers.ts`) and each one's process, by name. */
  servers: Urls;
  ours: Record<string, ChildProcess>;
  /** The references (`references.ts`) and their process. */
  refs: Urls;
  reference: ChildProcess;
  /** BENCH_BASELINE's servers, when given. */
  baseline?: { urls: Urls; processes: Record<string, ChildProcess>; tree: string };
  /** The server's answers to the plain and the markup cache-hit request. */
  hitBody: string;
  markedHitBody: string;
}

/** `sides` with BENCH_BASELINE's server `pick` beside them, when there is a baseline. */
export function withBaseline(bench: Bench, sides: Urls, pick: string): Urls {
  const url = bench.baseline?.urls[pick];
  return url ? { ...sides, baseline: url } : sides;
}

/** The request body of a named run (BENCH_CPU_RUN, BENCH_PROFILE_RUN). */
export function bodyOf(run: string): string {
  return ({ five: FIVE, marked: ONE_MARKED, 'marked-five': FIVE_MARKED, 'marked-hit': ONE_MARKED } as Urls)[run] ?? ONE;
}
