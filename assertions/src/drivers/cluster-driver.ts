import { fileURLToPath } from 'node:url';
import { ErrorResponseSchema, PATHS, WebSearchResponseSchema } from '@openmates/contract';
import { connectRedis, createLogger, type RedisLink } from '@openmates/core';
import {
  type NginxProcess,
  type RedisProcess,
  type Replica,
  startNginx,
  startRedis,
  startReplica,
} from '@openmates/fixtures';
import type { CaseEnvironment, DriverResult, ParityCase, SurfaceDriver } from '../case.ts';
import { canonicalOutcome, type Outcome, outcomeOfError, outcomeOfResponse } from '../outcome.ts';
import { transcriptOf } from './case-engine.ts';

const BIN = fileURLToPath(new URL('../../../packages/cli/bin/run.js', import.meta.url));
const SECRET = 'parity-cluster-redis-secret-0001';

/** Two `openmates serve` replicas for one environment, behind their own site of the shared nginx. */
interface Pair {
  url: string;
  replicas: [Replica, Replica];
}

/**
 * Polls each 10 ms until `test` holds: log lines reach us through a pipe, after the answer, and on a
 * loaded machine that can take a while. No deadline of its own: the test's timeout bounds it.
 */
async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * A deployment of several replicas (docs/deploy.md, ADR 0050): nginx (round-robin, HTTP/1.1 keep-alive upstream,
 * no buffering) in front of two real `openmates serve` processes sharing one Redis, with the cache
 * on. Each case is sent twice through the proxy: the first answer comes from one replica, the same
 * request then from the other. Both must be the same answer, and when the first succeeded whole the
 * second must come from the shared cache, with no new provider call.
 *
 * Replicas are long-lived, one pair per distinct environment (a few across the suite); each case
 * starts from an empty Redis, which holds every piece of state they share.
 */
export function createClusterDriver(): SurfaceDriver {
  let redis: RedisProcess | undefined;
  let link: RedisLink | undefined;
  let nginx: NginxProcess | undefined;
  const pairs = new Map<string, Promise<Pair>>();

  async function shared(): Promise<{ redis: RedisProcess; link: RedisLink }> {
    if (!redis || !link) {
      redis = await startRedis();
      link = await connectRedis(
        { url: redis.url, secret: SECRET, timeoutMs: 2_000, prefix: 'openmates:' },
        createLogger({ level: 'silent', redact: (s) => s }),
      );
      await link.settled();
    }
    return { redis, link };
  }

  async function startPair(env: Record<string, string>): Promise<Pair> {
    const { redis } = await shared();
    const replicaEnv = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...env,
      OPENMATES_CACHE_TTL_S: '300',
      OPENMATES_REDIS_URL: redis.url,
      OPENMATES_REDIS_SECRET: SECRET,
      OPENMATES_REDIS_TIMEOUT_MS: '2000',
    };
    const replicas = (await Promise.all([startReplica(BIN, replicaEnv), startReplica(BIN, replicaEnv)])) as [
      Replica,
      Replica,
    ];
    const site = { upstreams: replicas.map((r) => r.hostPort) };
    let url: string;
    if (nginx) url = await nginx.addSite(site);
    else {
      nginx = await startNginx([site]);
      url = nginx.urls[0] as string;
    }
    return { url, replicas };
  }

  function pairFor(env: Record<string, string>): Promise<Pair> {
    const key = JSON.stringify(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)));
    let pair = pairs.get(key);
    if (!pair) {
      pair = startPair(env);
      pairs.set(key, pair);
    }
    return pair;
  }

  async function send(url: string, testCase: ParityCase) {
    const response = await fetch(`${url}${PATHS.search}`, {
      method: 'POST',
      headers: { 'content-type': testCase.http?.contentType ?? 'application/json' },
      body: testCase.http?.body ?? JSON.stringify(testCase.request),
    });
    const { text, transcript } = await transcriptOf(response);
    const document: unknown = JSON.parse(text);
    // 200 and 502 carry a WebSearchResponse; every other status an ErrorResponse.
    const outcome =
      response.status === 200 || response.status === 502
        ? outcomeOfResponse(WebSearchResponseSchema.parse(document))
        : outcomeOfError(ErrorResponseSchema.parse(document));
    return {
      status: response.status,
      requestId: response.headers.get('x-request-id') ?? '',
      document,
      outcome,
      transcript,
    };
  }

  /** An outcome without its groups' usage. */
  const withoutUsage = (outcome: Outcome): Outcome => ({
    ...outcome,
    groups: outcome.groups.map(({ usage: _, ...group }) => group),
  });

  return {
    surface: 'cluster',
    supports: () => true,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const pair = await pairFor(environment.env);
      const { link } = await shared();
      await link.attempt((r) => r.flushall(), 'OK');
      const logStart = pair.replicas.map((r) => r.output.length);
      const first = await send(pair.url, testCase);
      const callsAfterFirst = environment.providerCalls?.();
      const second = await send(pair.url, testCase);
      const callsAfterSecond = environment.providerCalls?.();

      // Round-robin: the two answers came from different replicas (each logs its request ids).
      const logs = () => pair.replicas.map((r, i) => r.output.slice(logStart[i]).join(''));
      const replicaOf = (requestId: string) => logs().findIndex((text) => text.includes(requestId));
      await until(() => replicaOf(first.requestId) >= 0 && replicaOf(second.requestId) >= 0);
      if (replicaOf(first.requestId) === replicaOf(second.requestId))
        throw new Error(
          `${testCase.name}: replica ${replicaOf(first.requestId) + 1} answered both requests; round-robin sends one to each`,
        );
      // The second answer says where it came from (the shared cache): the rest of it is the first's.
      if (canonicalOutcome(withoutUsage(first.outcome)) !== canonicalOutcome(withoutUsage(second.outcome)))
        throw new Error(
          `${testCase.name}: the replicas disagree\nfirst:  ${canonicalOutcome(first.outcome)}\nsecond: ${canonicalOutcome(second.outcome)}`,
        );
      const whole = first.status === 200 && first.outcome.groups.every((g) => g.errorCode === undefined);
      const notCached = second.outcome.groups.find(
        (g) => g.usage !== undefined && (g.usage.source !== 'cache' || g.usage.calls !== 0),
      );
      if (whole && notCached)
        throw new Error(
          `${testCase.name}: the second replica's group ${JSON.stringify(notCached.id)} says ${JSON.stringify(notCached.usage)}, not the shared cache with no call`,
        );
      if (whole && callsAfterFirst !== undefined && callsAfterSecond !== callsAfterFirst)
        throw new Error(
          `${testCase.name}: the second replica called the provider again (${callsAfterFirst} then ${callsAfterSecond} calls) instead of answering from the shared cache`,
        );
      return {
        outcome: first.outcome,
        document: first.document,
        transcript: [first.transcript, second.transcript, ...logs()].join('\n'),
      };
    },
    async close() {
      const started = await Promise.allSettled(pairs.values());
      await Promise.all(
        started.flatMap((p) => (p.status === 'fulfilled' ? p.value.replicas.map((r) => r.close()) : [])),
      );
      await nginx?.close();
      await link?.close();
      await redis?.close();
    },
  };
}
