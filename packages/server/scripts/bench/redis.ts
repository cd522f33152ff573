// The Redis run: the per-key limit kept in Redis against the same limit in process, and a hit on
// replica B of what replica A cached in the shared Redis cache.
import {
  AT_RATE,
  against,
  alternate,
  type Bench,
  CONNECTIONS,
  FIVE,
  LATENCY_ROUND_S,
  LATENCY_ROUNDS,
  ms,
  ONE,
  RATE,
  rate,
  ratio,
  verdict,
} from './shared.ts';

const LIMIT_TARGET = 0.85;
const HIT_P50_TARGET_MS = 1;

export async function redisRun(bench: Bench): Promise<string> {
  const { servers } = bench;
  const limited = { memoryLimited: servers.memoryLimited as string, redisLimited: servers.redisLimited as string };
  const limits = (m: Awaited<ReturnType<typeof alternate>>) =>
    `  per-key limit in process         ${rate(m.memoryLimited)}
  per-key limit in Redis           ${rate(m.redisLimited)}   ${against(m.redisLimited, m.memoryLimited, LIMIT_TARGET, 'the limit in process')}`;
  const one = await alternate(limited, ONE, {});
  const five = await alternate(limited, FIVE, {});
  const hits = await alternate(
    { memoryHit: servers.memoryCached as string, redisHit: servers.replicaB as string },
    ONE,
    {},
  );
  const atRate = await alternate({ redisHit: servers.replicaB as string }, ONE, AT_RATE, LATENCY_ROUNDS);
  const p50 = atRate.redisHit?.p50 ?? Number.NaN;
  return `Redis: the per-key limit (a limit no benchmark reaches, so every request is counted), ${CONNECTIONS} connections
one query a request
${limits(one)}
five queries a request
${limits(five)}
cache hits of replica B on what replica A cached in Redis, ${CONNECTIONS} connections
  server, hit in process           ${rate(hits.memoryHit)}
  server, hit in Redis             ${rate(hits.redisHit)}   ${ratio(hits.redisHit, hits.memoryHit)}x the hit in process
  at ${RATE} req/s (${LATENCY_ROUNDS} rounds of ${LATENCY_ROUND_S} s): p50 ${ms(p50)}, p99 ${ms(atRate.redisHit?.p99 ?? Number.NaN)} (target p50 <= ${HIT_P50_TARGET_MS} ms: ${verdict(p50 <= HIT_P50_TARGET_MS)})`;
}
