// Streaming benchmark (issue 18): three queries at 50, 300 and 900 ms of fixture latency, sent as an
// event stream and as the plain JSON request, in the same run. Prints the time to the first group
// and to `done` next to the JSON answer, with the ratios the issue targets (first group ≤ 1.2× the
// fastest query, `done` ≤ 1.1× the slowest). Run with `pnpm bench:stream`; it never fails a build.
import { PATHS } from '@openmates/contract';
import { createConfiguredProvider, createEngine, createLogger, loadConfig } from '@openmates/core';
import { startBraveFixture } from '@openmates/fixtures';
import { createParser } from 'eventsource-parser';
import { createHandler, listen, loadServerConfig } from '../src/index.ts';

const LATENCIES = [50, 300, 900] as const;
/** Runs per mode (`BENCH_RUNS`, default 7); the median is printed. */
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

const brave = await startBraveFixture();
const config = loadConfig({
  OPENMATES_PROVIDER: 'brave',
  BRAVE_SEARCH_API_KEY: brave.apiKey,
  BRAVE_SEARCH_BASE_URL: brave.baseUrl,
  OPENMATES_CACHE_TTL_S: '0',
});
const engine = createEngine({
  config,
  provider: createConfiguredProvider(config),
  logger: createLogger({ level: 'silent', redact: (s) => s }),
});
const server = await listen(
  createHandler({ engine, version: 'bench', config: loadServerConfig({ OPENMATES_RATE_LIMIT_PER_MIN: '0' }) }),
  { host: '127.0.0.1', port: 0 },
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

await streamed(); // warm-up: connections, JIT
await plain();
const firsts: number[] = [];
const dones: number[] = [];
const plains: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const { first, done } = await streamed();
  firsts.push(first);
  dones.push(done);
  plains.push(await plain());
}
const [fastest, , slowest] = LATENCIES;
const row = (label: string, ms: number, reference: number) =>
  `${label.padEnd(28)} ${ms.toFixed(1).padStart(8)} ms   ${(ms / reference).toFixed(2)}× of ${reference} ms`;
console.log(`bench:stream: queries at ${LATENCIES.join(', ')} ms fixture latency, median of ${RUNS} runs`);
console.log(row('stream: first group', median(firsts), fastest));
console.log(row('stream: done', median(dones), slowest));
console.log(row('JSON (not streamed)', median(plains), slowest));
console.log('targets: first group ≤ 1.2× the fastest query; done ≤ 1.1× the slowest');

await server.close(1_000);
await engine.close();
await brave.close();
