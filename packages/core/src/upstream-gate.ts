import { DEFAULT_PROVIDER_PAUSE_MS } from '@openmates/contract';
import { ProviderError } from './provider.ts';
import type { RedisLink } from './shared/redis-link.ts';

/**
 * The provider's plan as every replica must respect it together (ADR 0048): calls spaced evenly at
 * `OPENMATES_PROVIDER_RATE_PER_S` (no bursts at window edges), and a pause after a provider 429 until
 * the time the provider named. A call whose turn would come after its deadline is refused at once
 * (`provider_rate_limited`, no provider call) rather than waiting only to time out.
 */
export interface UpstreamGate {
  /**
   * Reserves the next turn and waits for it. Throws ProviderError `provider_rate_limited` (with
   * `retryAfterMs`) when the wait would exceed `maxWaitMs`; nothing is reserved then.
   */
  acquire(maxWaitMs: number, signal: AbortSignal): Promise<void>;
  /** The provider answered 429: no replica calls it for `ms` (1 s when it named no time). */
  pause(ms: number | undefined): Promise<void>;
  /** How long the pause a provider 429 set still holds, in ms (0: none); reserves nothing. */
  pausedFor(): Promise<number>;
}

type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export function rateLimitedError(waitMs: number): ProviderError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ProviderError(
    'provider_rate_limited',
    `The search provider's rate limit is reached; retry in ${seconds} s.`,
    { retryAfterMs: waitMs },
  );
}

/**
 * In one process: the next free turn and the end of the pause, as numbers. JavaScript runs each
 * reservation to completion, so two calls can never take the same turn. A turn reserves a place in
 * line; the call then starts only once the spacing since the last actual start has passed too, so
 * a timer that fires late (a busy machine) cannot bunch two calls together.
 */
export function createMemoryUpstreamGate(
  ratePerS: number | undefined,
  now: () => number,
  sleep: Sleep,
): UpstreamGate & {
  /** Reserves the next turn, returning the wait until it (for the Redis gate's fallback). */
  reserve(maxWaitMs: number): number;
  /** What is left of the spacing since the last call started, or 0 and the start recorded. */
  start(): number;
} {
  const interval = ratePerS === undefined ? 0 : 1000 / ratePerS;
  let nextFree = Number.NEGATIVE_INFINITY;
  let pausedUntil = Number.NEGATIVE_INFINITY;
  let lastStart = Number.NEGATIVE_INFINITY;
  function reserve(maxWaitMs: number): number {
    const t = now();
    const start = Math.max(t, pausedUntil, interval > 0 ? nextFree : t);
    const wait = start - t;
    if (wait > maxWaitMs) throw rateLimitedError(wait);
    if (interval > 0) nextFree = start + interval;
    return wait;
  }
  /** The rest of the spacing still to wait now (0: the call starts, and the time is recorded). */
  function start(): number {
    const rest = lastStart + interval - now();
    if (interval > 0 && rest > 0) return rest;
    lastStart = now();
    return 0;
  }
  return {
    reserve,
    start,
    async acquire(maxWaitMs, signal) {
      const wait = reserve(maxWaitMs);
      if (wait > 0) await sleep(wait, signal);
      for (let rest = start(); rest > 0; rest = start()) await sleep(rest, signal);
    },
    async pause(ms) {
      pausedUntil = Math.max(pausedUntil, now() + (ms ?? DEFAULT_PROVIDER_PAUSE_MS));
    },
    async pausedFor() {
      return Math.max(0, pausedUntil - now());
    },
  };
}

// KEYS[1] the next free turn (Redis's own clock, ms), KEYS[2] the pause; ARGV interval and most wait
// in ms. One clock (Redis's TIME) for every replica: no host clocks are compared. Returns
// {0, wait} with the turn reserved, or {1, wait} refused.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wait = redis.call('PTTL', KEYS[2])
if wait < 0 then wait = 0 end
local interval = tonumber(ARGV[1])
if interval > 0 then
  local slot = math.max(now + wait, tonumber(redis.call('GET', KEYS[1]) or '0'))
  wait = slot - now
  if wait > tonumber(ARGV[2]) then return {1, wait} end
  redis.call('SET', KEYS[1], tostring(slot + interval), 'PX', math.ceil(wait + interval) + 1000)
  return {0, wait}
end
if wait > tonumber(ARGV[2]) then return {1, wait} end
return {0, wait}`;

// KEYS[1] when the last call started; ARGV[1] the spacing in ms. Returns what is left of the
// spacing, or 0 with this start recorded: reserved turns keep their order, and calls still start at
// least the spacing apart when a replica wakes late.
const START = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local rest = tonumber(redis.call('GET', KEYS[1]) or '0') + interval - now
if rest > 0 then return math.ceil(rest) end
redis.call('SET', KEYS[1], tostring(now), 'PX', math.ceil(interval) + 1000)
return 0`;

// KEYS[1] the pause; ARGV[1] its length in ms. Only ever lengthens a pause.
const PAUSE = `
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1`;

interface GateCommands {
  openmatesAcquire(rateKey: string, pauseKey: string, intervalMs: number, maxWaitMs: number): Promise<[number, number]>;
  openmatesPause(pauseKey: string, ms: number): Promise<number>;
  openmatesStart(startKey: string, intervalMs: number): Promise<number>;
}

/**
 * Shared by every replica: `{prefix}rate:{id}` holds the next free turn, `{prefix}started:{id}` when
 * the last call started, and `{prefix}pause:{id}`
 * exists (with a TTL) while the provider asked us to wait, where `id` is the provider and an HMAC of
 * its configuration. While Redis is down, the in-process gate stands in.
 */
export function createRedisUpstreamGate(
  ratePerS: number | undefined,
  providerIdentity: string,
  link: RedisLink,
  now: () => number,
  sleep: Sleep,
): UpstreamGate {
  const local = createMemoryUpstreamGate(ratePerS, now, sleep);
  const interval = ratePerS === undefined ? 0 : 1000 / ratePerS;
  const id = `${providerIdentity.split('\u0000', 1)[0]}:${link.hmac(providerIdentity)}`;
  const rateKey = `${link.prefix}rate:${id}`;
  const pauseKey = `${link.prefix}pause:${id}`;
  const startKey = `${link.prefix}started:${id}`;
  link.client.defineCommand('openmatesAcquire', { numberOfKeys: 2, lua: ACQUIRE });
  link.client.defineCommand('openmatesPause', { numberOfKeys: 1, lua: PAUSE });
  link.client.defineCommand('openmatesStart', { numberOfKeys: 1, lua: START });
  const commands = link.client as unknown as GateCommands;
  return {
    async acquire(maxWaitMs, signal) {
      const answer = await link.attempt(
        () => commands.openmatesAcquire(rateKey, pauseKey, interval, Math.floor(maxWaitMs)),
        undefined,
      );
      let wait: number;
      if (answer === undefined) wait = local.reserve(maxWaitMs);
      else if (answer[0] === 1) throw rateLimitedError(answer[1]);
      else wait = answer[1];
      if (wait > 0) await sleep(wait, signal);
      if (interval === 0) return;
      for (;;) {
        const rest = await link.attempt(() => commands.openmatesStart(startKey, interval), undefined);
        const left = rest ?? local.start();
        if (left <= 0) return;
        await sleep(left, signal);
      }
    },
    async pause(ms) {
      const length = Math.max(1, Math.ceil(ms ?? DEFAULT_PROVIDER_PAUSE_MS));
      await local.pause(length);
      await link.attempt(() => commands.openmatesPause(pauseKey, length), 0);
    },
    async pausedFor() {
      // While Redis is down, this replica's own pause stands in (as for every other command).
      const shared = await link.attempt((redis) => redis.pttl(pauseKey), undefined);
      return shared === undefined ? local.pausedFor() : Math.max(0, shared);
    },
  };
}
