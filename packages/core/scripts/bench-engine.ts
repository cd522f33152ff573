// pnpm bench:engine — engine overhead and fan-out, against the Brave fixture on loopback.
// Prints, in one run: (1) a one-query search through the engine next to a direct fetch of the same
// fixture answer (overhead ratio), and (2) a batch of 5 queries next to one query at 200 ms fixture
// latency (target: at most 1.15×). Bounded: a fixed number of iterations, loopback only.
import { startBraveFixture } from '@openmates/fixtures';
import { createConfiguredProvider, createEngine, createLogger, loadConfig } from '../src/index.ts';

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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function time(iterations: number, run: (i: number) => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await run(i);
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const direct = (q: string) =>
  fetch(`${brave.baseUrl}/web/search?q=${encodeURIComponent(q)}&count=10&text_decorations=false&result_filter=web`, {
    headers: { 'X-Subscription-Token': brave.apiKey, Accept: 'application/json' },
  }).then((r) => r.json());
const one = (q: string) => engine.search({ requests: [{ query: q, count: 10, filter_tabloids: false }] });

// Warm up sockets and JIT.
await time(50, (i) => direct(`warm ${i}`));
await time(50, (i) => one(`warm ${i}`));

const directMs = await time(300, (i) => direct(`query ${i}`));
const engineMs = await time(300, (i) => one(`query ${i}`));

brave.setLatency(200);
const singleMs = await time(10, (i) => one(`latency ${i}`));
const batchMs = await time(10, (i) =>
  engine.search({
    requests: Array.from({ length: 5 }, (_, k) => ({ query: `latency ${i} ${k}`, filter_tabloids: false })),
  }),
);

console.log('engine benchmark (Brave fixture on loopback, medians)');
console.log(`  direct fetch of the fixture           ${directMs.toFixed(2)} ms`);
console.log(`  engine search, 1 query, 10 results    ${engineMs.toFixed(2)} ms`);
console.log(
  `  engine overhead ratio                 ${(engineMs / directMs).toFixed(2)}× (+${(engineMs - directMs).toFixed(2)} ms)`,
);
console.log(`  1 query at 200 ms provider latency    ${singleMs.toFixed(1)} ms`);
console.log(`  5 queries at 200 ms provider latency  ${batchMs.toFixed(1)} ms`);
console.log(`  batch-of-5 ratio                      ${(batchMs / singleMs).toFixed(3)}× (target ≤ 1.15×)`);

await engine.close();
await brave.close();
