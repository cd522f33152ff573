// `pnpm soak`: a bounded load run against the real `openmates serve` (spawned on 127.0.0.1, port 0)
// over the Brave fixture on loopback. An open-loop schedule at a fixed rate mixes single searches,
// batches with failing groups, 400s, provider errors (500, 503, a reset mid-answer), slow
// providers and clients that give up; it reports throughput, p50/p99, answers by kind, lost
// answers (no complete HTTP answer, or one that does not parse as the contract says), unexpected
// statuses, and the server's RSS and heap (from /metrics) at start, middle and end.
//
//   node packages/cli/scripts/soak.ts [--duration S (60, at most 600)] [--rate N (300 req/s, at most 2000)] [--keep-alive] [--check]
//
// `--check` exits 1 on any lost answer or unexpected 5xx (the test command runs 10 s of it).
// Only loopback: the server is a child process of this script; it stops by itself.
import { fork, spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ErrorResponseSchema, PATHS, SkillInfoSchema, WebSearchResponseSchema } from '@openmates/contract';
import { startBraveFixture } from '@openmates/fixtures';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    rate: { type: 'string', default: '300' },
    check: { type: 'boolean', default: false },
    'keep-alive': { type: 'boolean', default: false },
    'fixture-child': { type: 'boolean', default: false },
  },
});
const durationS = Math.min(600, Math.max(1, Number(values.duration)));
const rate = Math.min(2000, Math.max(1, Number(values.rate)));
/** `--keep-alive`: a pool of 64 kept-alive connections, as an SDK client holds, instead of one per request. */
const agent = values['keep-alive'] ? new Agent({ keepAlive: true, maxSockets: 64 }) : false;
const BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url));

/** A small seeded generator (mulberry32), so every run sends the same mix. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Kind = 'search' | 'batch' | 'invalid' | 'provider-error' | 'slow' | 'client-abort' | 'info';

interface Planned {
  kind: Kind;
  method: 'GET' | 'POST';
  body?: string;
  /** Statuses this request may answer; anything else is unexpected. */
  expect: number[];
  /** The client gives up after this many ms (a client abort). */
  abortAfterMs?: number;
}

/** The mix, by cumulative share: what a busy public server sees, errors included. */
function plan(random: () => number, n: number): Planned {
  const r = random();
  const q = (text: string) => JSON.stringify({ requests: [{ query: text, count: 5 }] });
  if (r < 0.5) return { kind: 'search', method: 'POST', body: q(`soak topic ${n % 400}`), expect: [200] };
  if (r < 0.65) {
    const items = [
      { id: 'a', query: `batch ${n % 97}` },
      { id: 'b', query: n % 2 ? 'error500 batch' : 'unavailable batch' },
      { id: 'c', query: `delay${20 + (n % 5) * 20} batch ${n % 13}`, count: 3 },
    ];
    if (n % 3 === 0) items.push({ id: 'd', query: 'reset batch' });
    return { kind: 'batch', method: 'POST', body: JSON.stringify({ requests: items }), expect: [200] };
  }
  if (r < 0.75) {
    const bodies = [
      JSON.stringify({ requests: [{ query: '   ' }] }),
      JSON.stringify({ requests: [{ query: 'x', max_results: 3 }] }),
      JSON.stringify({ requests: [] }),
      '{"requests": [',
    ];
    return { kind: 'invalid', method: 'POST', body: bodies[n % bodies.length] as string, expect: [400] };
  }
  if (r < 0.83) {
    const query = ['error500 soak', 'unavailable soak', 'reset soak', 'malformed soak'][n % 4] as string;
    return { kind: 'provider-error', method: 'POST', body: q(query), expect: [502] };
  }
  if (r < 0.93)
    return { kind: 'slow', method: 'POST', body: q(`delay${200 + (n % 4) * 200} slow ${n % 7}`), expect: [200] };
  if (r < 0.98)
    return { kind: 'client-abort', method: 'POST', body: q(`delay5000 abandoned ${n}`), expect: [], abortAfterMs: 50 };
  return { kind: 'info', method: 'GET', expect: [200] };
}

interface Outcome {
  kind: Kind;
  status?: number;
  ms: number;
  lost?: string;
  unexpected?: string;
  aborted?: boolean;
}

/**
 * One request on a connection of its own (`agent: false`): a kept-alive connection that the
 * server closes as idle while the client reuses it is a client-side race, which would read as a
 * lost answer without saying anything about the server.
 */
function exchange(origin: string, planned: Planned, signal: AbortSignal): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (planned.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(planned.body);
    }
    const req = httpRequest(origin + PATHS.search, { method: planned.method, agent, headers, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () => {
        if (res.complete) resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        else reject(new Error('the answer ended before its declared length'));
      });
    });
    req.once('error', reject);
    req.end(planned.body);
  });
}

async function send(origin: string, planned: Planned): Promise<Outcome> {
  const started = performance.now();
  const controller = new AbortController();
  const timer =
    planned.abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), planned.abortAfterMs);
  try {
    const { status, text } = await exchange(origin, planned, controller.signal);
    const ms = performance.now() - started;
    const outcome: Outcome = { kind: planned.kind, status, ms };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { ...outcome, lost: `HTTP ${status} with a body that is not JSON` };
    }
    const schema =
      planned.method === 'GET' && status === 200
        ? SkillInfoSchema
        : status === 200 || status === 502
          ? WebSearchResponseSchema
          : ErrorResponseSchema;
    const parsed = schema.safeParse(json);
    if (!parsed.success) return { ...outcome, lost: `HTTP ${status} whose body breaks the contract` };
    if (!planned.expect.includes(status))
      outcome.unexpected = `${planned.kind} answered ${status}${status >= 500 ? ` (${(json as { code?: string }).code})` : ''}`;
    return outcome;
  } catch (error) {
    const ms = performance.now() - started;
    if (controller.signal.aborted) return { kind: planned.kind, ms, aborted: true };
    const code = (error as NodeJS.ErrnoException).code;
    return { kind: planned.kind, ms, lost: `no complete answer (${code ?? (error as Error).message})` };
  } finally {
    clearTimeout(timer);
  }
}

/** The server's resident memory and heap, from its /metrics (NaN when the scrape fails). */
async function memory(origin: string): Promise<{ rss: number; heap: number }> {
  const text = await fetch(origin + PATHS.metrics).then(
    (response) => response.text(),
    () => '',
  );
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return { rss: read('process_resident_memory_bytes'), heap: read('nodejs_heap_size_used_bytes') };
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The Brave fixture runs in a child process, so the load generator has an event loop of its own. */
async function startFixtureProcess(): Promise<{ baseUrl: string; apiKey: string; close(): void }> {
  const child = fork(fileURLToPath(import.meta.url), ['--fixture-child'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const fixture = await new Promise<{ baseUrl: string; apiKey: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { baseUrl: string; apiKey: string }));
    child.once('exit', (code) => reject(new Error(`the fixture process exited with ${code}`)));
  });
  return { ...fixture, close: () => child.kill() };
}

async function main(): Promise<number> {
  const brave = await startFixtureProcess();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-gui'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      OPENMATES_PROVIDER: 'brave',
      BRAVE_SEARCH_API_KEY: brave.apiKey,
      BRAVE_SEARCH_BASE_URL: brave.baseUrl,
      OPENMATES_RATE_LIMIT_PER_MIN: '0',
      // The provider path on every search (a warm cache would hide it), and logs kept to warnings.
      OPENMATES_CACHE_TTL_S: '0',
      OPENMATES_LOG_LEVEL: 'warn',
      // The server's own settings may be tried out from the caller's environment.
      ...Object.fromEntries(
        ['OPENMATES_HEADERS_TIMEOUT_MS', 'OPENMATES_BODY_TIMEOUT_MS', 'OPENMATES_PROVIDER_TIMEOUT_MS']
          .filter((name) => process.env[name] !== undefined)
          .map((name) => [name, process.env[name] as string]),
      ),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Whatever happens to this script, its children go with it.
  process.once('exit', () => {
    child.kill('SIGKILL');
    brave.close();
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const origin = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match?.[1] && stdout.includes('Press Ctrl+C')) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  if (new URL(origin).hostname !== '127.0.0.1') throw new Error('the soak only runs against loopback');

  const random = seeded(20);
  const outcomes: Promise<Outcome>[] = [];
  const readings: { label: string; rss: number; heap: number }[] = [];
  // A short warm-up so the start reading is of a server that has loaded its code paths.
  for (let i = 0; i < 20; i += 1) await send(origin, plan(random, i));
  readings.push({ label: 'start', ...(await memory(origin)) });
  const total = Math.round(durationS * rate);
  const started = performance.now();
  let middleTaken = false;
  for (let n = 0; n < total; n += 1) {
    const due = started + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    outcomes.push(send(origin, plan(random, n)));
    if (!middleTaken && n >= total / 2) {
      middleTaken = true;
      void memory(origin).then((m) => readings.push({ label: 'middle', ...m }));
    }
  }
  const results = await Promise.all(outcomes);
  const elapsedS = (performance.now() - started) / 1000;
  readings.push({ label: 'end', ...(await memory(origin)) });
  child.kill('SIGTERM');
  const exitCode = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 15_000))]);
  if (exitCode === 'timeout') child.kill('SIGKILL');
  brave.close();

  const answered = results.filter((o) => o.status !== undefined && o.lost === undefined);
  const lost = results.filter((o) => o.lost !== undefined);
  const unexpected = results.filter((o) => o.unexpected !== undefined);
  const unexpected5xx = unexpected.filter((o) => (o.status ?? 0) >= 500);
  const latencies = answered.map((o) => o.ms).sort((a, b) => a - b);
  const byKind = new Map<string, Map<string, number>>();
  for (const o of results) {
    const row = byKind.get(o.kind) ?? new Map<string, number>();
    const key = o.aborted ? 'aborted by client' : o.lost ? 'LOST' : String(o.status);
    row.set(key, (row.get(key) ?? 0) + 1);
    byKind.set(o.kind, row);
  }
  const middle = readings.find((r) => r.label === 'middle');
  const end = readings.find((r) => r.label === 'end');
  const rssDrift = middle && end ? (end.rss - middle.rss) / middle.rss : Number.NaN;

  const lines = [
    `soak: ${results.length} requests in ${elapsedS.toFixed(1)} s at ${rate} req/s scheduled against openmates serve (Brave fixture, cache off)`,
    `  throughput: ${(answered.length / elapsedS).toFixed(0)} answers/s; latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    '  answers by kind:',
    ...[...byKind].map(
      ([kind, row]) =>
        `    ${kind.padEnd(15)} ${[...row]
          .sort()
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}`,
    ),
    `  lost answers: ${lost.length}${lost.length ? ` (${[...new Set(lost.map((o) => o.lost))].slice(0, 5).join('; ')})` : ''}`,
    `  unexpected statuses: ${unexpected.length} (5xx: ${unexpected5xx.length})${unexpected.length ? ` ${[...new Set(unexpected.map((o) => o.unexpected))].slice(0, 5).join('; ')}` : ''}`,
    `  memory (server):  ${readings
      .sort((a, b) => ['start', 'middle', 'end'].indexOf(a.label) - ['start', 'middle', 'end'].indexOf(b.label))
      .map((r) => `${r.label} RSS ${mb(r.rss)} heap ${mb(r.heap)}`)
      .join(' | ')}`,
    `  RSS end vs middle: ${(rssDrift * 100).toFixed(1)} %`,
    `  server exit on SIGTERM: ${exitCode}`,
  ];
  console.log(lines.join('\n'));
  if (exitCode !== 0) console.log(`  server stderr (tail):\n${stderr.slice(-2000)}`);
  const failed = lost.length > 0 || unexpected5xx.length > 0 || exitCode !== 0;
  if (values.check && failed) console.log('soak: FAILED (lost answers, unexpected 5xx, or an unclean exit)');
  return values.check && failed ? 1 : 0;
}

if (values['fixture-child']) {
  const brave = await startBraveFixture();
  process.send?.({ baseUrl: brave.baseUrl, apiKey: brave.apiKey });
  process.on('disconnect', () => void brave.close().then(() => process.exit(0)));
} else process.exit(await main());
