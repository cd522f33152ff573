// The benchmark's CPU and profile modes: CPU time per request of each side (BENCH_CPU_RUN), which
// holds much better than rates on a loaded machine, or a V8 CPU profile of the server
// (BENCH_PROFILE_DIR with BENCH_PROFILE_RUN).
import type { ChildProcess } from 'node:child_process';
import { type Bench, bodyOf, cpuOf, load, mean, measure, ROUND_S, ROUNDS, SECONDS, tally, WARMUP_S } from './shared.ts';

/** The server (by name) that a CPU or profile run `run` measures: the cached one for hits. */
export const measuredServer = (run: string) => (run.endsWith('hit') ? 'memoryCached' : 'server');

/** The sides of a CPU run, the reference first: [name, its process, its URL]. */
function sidesOf(bench: Bench, run: string): [string, ChildProcess, string][] {
  const { refs, servers, ours, reference } = bench;
  const hit = run.endsWith('hit');
  const marked = run.startsWith('marked');
  const pick = measuredServer(run);
  const sides: [string, ChildProcess, string][] = hit
    ? [['floor w/ id', reference, (marked ? refs.readingFloorWithIdMarked : refs.readingFloorWithId) as string]]
    : marked
      ? [
          ['proxy', reference, refs.proxyMarked as string],
          ['cleaning', reference, refs.cleaning as string],
          ['calls alone', reference, refs.callsAloneMarked as string],
        ]
      : [
          ['proxy', reference, refs.proxy as string],
          ['calls alone', reference, refs.callsAlone as string],
        ];
  sides.push(['this tree', ours[pick] as ChildProcess, servers[pick] as string]);
  if (bench.baseline)
    sides.push(['baseline', bench.baseline.processes[pick] as ChildProcess, bench.baseline.urls[pick] as string]);
  return sides;
}

/** The CPU time (µs, user and system) spent between two readings of one process. */
const spent = (begun: NodeJS.CpuUsage, ended: NodeJS.CpuUsage) => ended.user + ended.system - begun.user - begun.system;

/**
 * CPU time per request of the reference, the provider calls alone (not for hits), this tree and
 * BENCH_BASELINE's, alternated: a saturated single-threaded server's rate is about the inverse of
 * it, so the ratio of CPU per request reads like the throughput ratio. Printed with its user and
 * system parts, each side's own work above the calls alone, and what each side's requests cost the
 * fixture and this process (autocannon), which share the two cores with it.
 */
export async function cpuRun(bench: Bench, run: string): Promise<void> {
  const body = bodyOf(run);
  const sides = sidesOf(bench, run);
  for (const [, , url] of sides) await measure(url, body, { duration: WARMUP_S });
  const cpu = new Map<string, Record<'total' | 'user' | 'fixture' | 'generator' | 'rps', number[]>>(
    sides.map(([name]) => [name, { total: [], user: [], fixture: [], generator: [], rps: [] }]),
  );
  for (let round = 0; round < ROUNDS; round += 1)
    for (const [name, proc, url] of sides) {
      const [begun, fixtureBegun, loadBegun] = [await cpuOf(proc), await cpuOf(bench.fixture), process.cpuUsage()];
      const m = await measure(url, body, {});
      const [ended, fixtureEnded, loadEnded] = [await cpuOf(proc), await cpuOf(bench.fixture), process.cpuUsage()];
      const requests = m.rps * ROUND_S;
      const side = cpu.get(name);
      side?.total.push(spent(begun, ended) / requests);
      side?.user.push((ended.user - begun.user) / requests);
      side?.fixture.push(spent(fixtureBegun, fixtureEnded) / requests);
      side?.generator.push(spent(loadBegun, loadEnded) / requests);
      side?.rps.push(m.rps);
      tally.failures += m.failures;
    }
  const first = cpu.get(sides[0]?.[0] as string);
  const [reference, referenceRate] = [mean(first?.total ?? []), mean(first?.rps ?? [])];
  console.log(`CPU per request (${run}), ${ROUNDS} alternated rounds; load average ${load()}`);
  for (const [name, { total, user, rps }] of cpu)
    console.log(
      `  ${name.padEnd(11)} ${mean(total).toFixed(0).padStart(6)} µs (user ${mean(user).toFixed(0)}, system ${(mean(total) - mean(user)).toFixed(0)}; rounds ${total.map((n) => n.toFixed(0)).join(' / ')}); the reference's CPU / this: ${(reference / mean(total)).toFixed(2)}; ${mean(rps).toFixed(0)} req/s, ${(mean(rps) / referenceRate).toFixed(2)}x the reference's`,
    );
  console.log(
    `  what each side's requests cost the fixture and the load generator: ${[...cpu].map(([name, { fixture, generator }]) => `${name} ${mean(fixture).toFixed(0)} and ${mean(generator).toFixed(0)} µs`).join(', ')}`,
  );
  const calls = cpu.get('calls alone');
  if (calls) {
    const own = [...cpu].filter(([name]) => name !== 'calls alone');
    console.log(
      `  own work above the calls alone: ${own.map(([name, { total }]) => `${name} ${(mean(total) - mean(calls.total)).toFixed(0)} µs`).join(', ')}`,
    );
  }
}

/**
 * Profiles this tree's server over one measured run of `run` (BENCH_PROFILE_RUN) after the
 * warm-up, or, with BENCH_PROFILE_REFERENCE naming one (`cleaning`, `proxyMarked`…), that
 * reference, whose process writes its profile beside the server's.
 */
export async function profileRun(bench: Bench, run: string): Promise<void> {
  const reference = process.env.BENCH_PROFILE_REFERENCE;
  const server = measuredServer(run);
  const target = (reference === undefined ? bench.servers[server] : bench.refs[reference]) as string;
  if (target === undefined) throw new Error(`no reference named ${reference}`);
  const body = bodyOf(run);
  await measure(target, body, { duration: WARMUP_S });
  const who = reference === undefined ? (bench.ours[server] as ChildProcess) : bench.reference;
  const begun = await cpuOf(who);
  const profiled = await measure(target, body, { duration: SECONDS });
  const ended = await cpuOf(who);
  const served = profiled.rps * SECONDS;
  const cpuUs = spent(begun, ended) / served;
  console.log(
    `profiled (${run}${reference === undefined ? '' : `, the ${reference} reference`}): ${profiled.rps.toFixed(0)} req/s, ${served.toFixed(0)} requests in the last ${SECONDS} s, ${cpuUs.toFixed(0)} µs of CPU per request (profiler included); profile in ${process.env.BENCH_PROFILE_DIR}`,
  );
}
