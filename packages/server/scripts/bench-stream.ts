// Streaming benchmark (issue 18): three queries at 50, 300 and 900 ms of fixture latency, sent as an
// event stream and as the plain JSON request, in the same run. Prints the time to the first group
// and to `done` next to the JSON answer, with the ratios the issue targets (first group ≤ 1.2× the
// fastest query, `done` ≤ 1.1× the slowest). A query's latency is what the provider takes to answer
// it: the fixture asked directly for that query alone, in the same run (its delay plus making and
// sending the answer, a few ms on a loopback socket); the ratio to the bare delay is printed too.
// Run with `pnpm bench:stream`; it never fails a build.
import { PATHS } from '@openmates/contract';
import { createLogger } from '@openmates/core';
import { startBraveFixture } from '@openmates/fixtures';
import { createParser } from 'eventsource-parser';
import { createServer, loadServerSettings } from '../src/index.ts';

const LATENCIES = [50, 300, 900] as const;
/** Runs per mode (`BENCH_RUNS`, default 7); the median is printed. */
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

const brave = await startBraveFixture();
const server = await createServer(
  loadServerSettings({
    OPENMATES_PROVIDER: 'brave',
    BRAVE_SEARCH_API_KEY: brave.apiKey,
    BRAVE_SEARCH_BASE_URL: brave.baseUrl,
    OPENMATES_CACHE_TTL_S: '0',
    OPENMATES_RATE_LIMIT_PER_MIN: '0',
  }),
  { version: 'bench', logger: createLogger({ level: 'silent', redact: (s) => s }) },
);

let run = 0;
/** A fresh batch each time (the cache is off; distinct words keep every answer its own). */
function body(): string {
  run += 1;
  return JSON.stringify({ requests: LATENCIES.map((ms) => ({ query: `delay${ms} stream bench ${run}` })) });
}

async function streamed(): Promise<{ first: number; done: number }> {
  const started = performance.now();
  const response = await fetch(server.url + PATHS.search, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: body(),
  });
  let first = Number.NaN;
  let done = Number.NaN;
  const parser = createParser({
    onEvent: ({ event }) => {
      const at = performance.now() - started;
      if (event === 'group' && Number.isNaN(first)) first = at;
      if (event === 'done') done = at;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body as ReadableStream<Uint8Array>)
    parser.feed(decoder.decode(chunk, { stream: true }));
  return { first, done };
}

async function plain(): Promise<number> {
  const started = performance.now();
  const response = await fetch(server.url + PATHS.search, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body(),
  });
  await response.json();
  return performance.now() - started;
}

/** The provider's latency for one query at `ms` of delay: the fixture asked directly, as the engine asks it. */
async function direct(ms: number): Promise<number> {
  run += 1;
  const started = performance.now();
  const response = await fetch(`${brave.baseUrl}/web/search?q=${encodeURIComponent(`delay${ms} direct ${run}`)}`, {
    headers: { accept: 'application/json', 'x-subscription-token': brave.apiKey },
  });
  if (!response.ok) throw new Error(`the fixture answered ${response.status}`);
  await response.json();
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const [fastest, , slowest] = LATENCIES;
await streamed(); // warm-up: connections, JIT
await plain();
await direct(fastest);
const firsts: number[] = [];
const dones: number[] = [];
const plains: number[] = [];
const fastestAlone: number[] = [];
const slowestAlone: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const { first, done } = await streamed();
  firsts.push(first);
  dones.push(done);
  plains.push(await plain());
  fastestAlone.push(await direct(fastest));
  slowestAlone.push(await direct(slowest));
}
const fastestMs = median(fastestAlone);
const slowestMs = median(slowestAlone);
const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
const row = (label: string, value: number, alone: number, delay: number) =>
  `${label.padEnd(22)} ${ms(value)}   ${(value / alone).toFixed(2)}× of the query alone (${alone.toFixed(1)} ms)   ${(value / delay).toFixed(2)}× of its ${delay} ms delay`;
console.log(`bench:stream: queries at ${LATENCIES.join(', ')} ms fixture delay, median of ${RUNS} runs`);
console.log(
  `the fixture asked directly: ${ms(fastestMs)} for the ${fastest} ms query, ${ms(slowestMs)} for the ${slowest} ms one`,
);
console.log(row('stream: first group', median(firsts), fastestMs, fastest));
console.log(row('stream: done', median(dones), slowestMs, slowest));
console.log(row('JSON (not streamed)', median(plains), slowestMs, slowest));
console.log('targets: first group ≤ 1.2× the fastest query; done ≤ 1.1× the slowest');

await server.close(1_000);
await brave.close();
