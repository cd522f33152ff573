// The two variants of the server benchmark, each against the references asking the same count:
// the plain one (the fixture's ordinary results, the tabloid filter on) and the markup one (the
// `marked` scenario, the filter off), with their latency at a fixed rate and their cache hits.
import {
  AT_RATE,
  against,
  alternate,
  type Bench,
  CONNECTIONS,
  FIVE,
  FIVE_MARKED,
  LATENCY_ROUND_S,
  LATENCY_ROUNDS,
  MARKED_COUNT,
  type Measurement,
  ms,
  ONE,
  ONE_MARKED,
  PLAIN_COUNT,
  RATE,
  RATE_CONNECTIONS,
  rate,
  ratio,
  signed,
  verdict,
  withBaseline,
} from './shared.ts';

/** A cache hit is held to the floor answering as the server must (`readingFloorWithId`). */
const HIT_TARGET = 0.6;
const P50_TARGET_MS = 0.5;
const P99_TARGET_MS = 2;

const baselineLine = (bench: Bench, m: Record<string, Measurement>, over: Measurement | undefined) =>
  m.baseline
    ? `\n  baseline server (${bench.baseline?.tree})  ${rate(m.baseline)}   ${ratio(m.baseline, over)}x; this tree ${ratio(m.server, m.baseline)}x the baseline`
    : '';

const roundsOf = (m: Measurement | undefined) => (m?.p99s ?? []).map((n) => n.toFixed(1)).join(' / ');

/** The added p50 (mean of the rounds') and p99 (median of the rounds'), each with its verdict and the rounds' p99s. */
async function latency(bench: Bench, proxy: string, body: string): Promise<string> {
  const m = await alternate(
    withBaseline(bench, { proxy, server: bench.servers.server as string }, 'server'),
    body,
    AT_RATE,
    LATENCY_ROUNDS,
  );
  const p50 = (m.server?.p50 ?? 0) - (m.proxy?.p50 ?? 0);
  const p99 = (m.server?.p99 ?? 0) - (m.proxy?.p99 ?? 0);
  const row = (name: string, x: Measurement | undefined) =>
    `  ${name.padEnd(28)} ${ms(x?.p50 ?? Number.NaN).padEnd(10)} ${ms(x?.p99 ?? Number.NaN).padEnd(10)} (rounds' p99s: ${roundsOf(x)} ms)`;
  return `latency at ${RATE} req/s, one query, ${RATE_CONNECTIONS} connections, ${LATENCY_ROUNDS} rounds of ${LATENCY_ROUND_S} s; p50 (mean of the rounds'), p99 (median of the rounds')
${row('proxy', m.proxy)}
${row('server', m.server)}${m.baseline ? `\n${row('baseline server', m.baseline)}` : ''}
  added by the server          ${signed(p50).padEnd(10)} ${signed(p99)}
  (targets: p50 <= +${P50_TARGET_MS} ms: ${verdict(p50 <= P50_TARGET_MS)}; p99 <= +${P99_TARGET_MS} ms: ${verdict(p99 <= P99_TARGET_MS)})`;
}

/** Hits of the in-process cache, held to the floor answering as the server must. */
async function hits(
  bench: Bench,
  refs: { readingFloor: string; withId: string; floor?: string },
  body: string,
  size: number,
) {
  const sides = {
    ...(refs.floor ? { floor: refs.floor } : {}),
    readingFloor: refs.readingFloor,
    withId: refs.withId,
    memoryHit: bench.servers.memoryCached as string,
  };
  const m = await alternate(withBaseline(bench, sides, 'memoryCached'), body, {});
  return `cache hits, the same request repeated, ${CONNECTIONS} connections (body ${size} bytes)${
    m.floor ? `\n  node:http, fixed body (floor)   ${rate(m.floor)}` : ''
  }
  node:http reading the body       ${rate(m.readingFloor)}   (the floor reading and parsing the request first)
  node:http reading, with an id    ${rate(m.withId)}   ${ratio(m.withId, m.readingFloor)}x the reading floor   (answering as the server must: a fresh body with its own request id, the server's headers)
  server, hit in process           ${rate(m.memoryHit)}   ${against(m.memoryHit, m.withId, HIT_TARGET, 'the floor with an id')}; ${ratio(m.memoryHit, m.readingFloor)}x the reading floor${
    m.baseline
      ? `\n  baseline, hit in process         ${rate(m.baseline)}   ${ratio(m.baseline, m.withId)}x the floor with an id`
      : ''
  }`;
}

/** The plain variant: throughput against the bare proxy (>= 0.7x one query, >= 0.8x five), latency, hits. */
export async function plainVariant(bench: Bench): Promise<string> {
  const proxy = bench.refs.proxy as string;
  const sides = withBaseline(bench, { proxy, server: bench.servers.server as string }, 'server');
  const throughput = (m: Record<string, Measurement>, target: number) =>
    `  proxy asking ${PLAIN_COUNT}                  ${rate(m.proxy)}
  server                           ${rate(m.server)}   ${against(m.server, m.proxy, target, 'the proxy')}${baselineLine(bench, m, m.proxy)}`;
  const one = await alternate(sides, ONE, {});
  const five = await alternate(sides, FIVE, {});
  return `plain variant: the fixture's ordinary results, the tabloid filter on
throughput, one query a request, ${CONNECTIONS} connections
${throughput(one, 0.7)}
throughput, five queries a request, ${CONNECTIONS} connections
${throughput(five, 0.8)}
${await latency(bench, proxy, ONE)}
${await hits(bench, { floor: bench.refs.floor as string, readingFloor: bench.refs.readingFloor as string, withId: bench.refs.readingFloorWithId as string }, ONE, Buffer.byteLength(bench.hitBody))}`;
}

/**
 * The markup variant: throughput against the cleaning proxy (>= 1.0x, one and five queries), the
 * bare proxy's ratio beside it as the distance to the limit; latency; hits.
 */
export async function markupVariant(bench: Bench): Promise<string> {
  const { refs } = bench;
  const sides = {
    proxy: refs.proxyMarked as string,
    cleaning: refs.cleaning as string,
    server: bench.servers.server as string,
  };
  const throughput = (m: Record<string, Measurement>) =>
    `  proxy asking ${MARKED_COUNT} (bare)           ${rate(m.proxy)}
  cleaning proxy asking ${MARKED_COUNT}         ${rate(m.cleaning)}   ${ratio(m.cleaning, m.proxy)}x the bare proxy
  server                           ${rate(m.server)}   ${against(m.server, m.cleaning, 1, 'the cleaning proxy')}; ${ratio(m.server, m.proxy)}x the bare proxy`;
  const one = await alternate(sides, ONE_MARKED, {});
  const five = await alternate(sides, FIVE_MARKED, {});
  return `markup variant: every title and description with inline <strong>, varied with each answer; filter_tabloids false
throughput, one query a request, ${CONNECTIONS} connections
${throughput(one)}
throughput, five queries a request, ${CONNECTIONS} connections
${throughput(five)}
${await latency(bench, refs.proxyMarked as string, ONE_MARKED)}
${await hits(bench, { readingFloor: refs.readingFloorMarked as string, withId: refs.readingFloorWithIdMarked as string }, ONE_MARKED, Buffer.byteLength(bench.markedHitBody))}`;
}
