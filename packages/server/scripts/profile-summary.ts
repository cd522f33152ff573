// The top self-time entries of a V8 CPU profile (`--cpu-prof`, as `pnpm bench:server` writes it with
// BENCH_PROFILE_DIR), as text: share of busy (not idle) time and µs per request.
//
//   node packages/server/scripts/profile-summary.ts PROFILE.cpuprofile REQUESTS [SECONDS] [TOP]
//
// REQUESTS and SECONDS are what the profiled run printed ("N requests in the last S s"): only the
// profile's last SECONDS are counted, the measured run (the profile ends right after it), so the
// start-up and the warm-up stay out.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, requestsArg, secondsArg = '10', topArg = '20'] = process.argv.slice(2);
if (file === undefined || requestsArg === undefined) {
  console.error('usage: profile-summary.ts PROFILE.cpuprofile REQUESTS [SECONDS] [TOP]');
  process.exit(2);
}
const requests = Number(requestsArg);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const from = profile.endTime - Number(secondsArg) * 1e6;
const self = new Map<string, number>();
let busy = 0;
let idle = 0;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  const spent = profile.timeDeltas[i + 1] ?? 0;
  const frame = nodes.get(id)?.callFrame;
  if (at < from || frame === undefined) return;
  const name = frame.functionName || '(anonymous)';
  if (name === '(idle)') {
    idle += spent;
    return;
  }
  busy += spent;
  const where = frame.url === '' ? '' : ` ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
  self.set(name + where, (self.get(name + where) ?? 0) + spent);
});
console.log(
  `last ${secondsArg} s: busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s; ${requests} requests, ${(busy / requests).toFixed(1)} µs busy per request`,
);
for (const [name, spent] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg)))
  console.log(
    `${((100 * spent) / busy).toFixed(1).padStart(5)} %  ${(spent / requests).toFixed(2).padStart(7)} µs/request  ${name}`,
  );
