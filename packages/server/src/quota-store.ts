import { type QuotaName, type QuotaWindow, quotaWindow } from '@openmates/contract';
import type { RedisLink } from '@openmates/core';

/** A key's quotas as the store checks them: calls per UTC day, micro-dollars per UTC month. */
export interface QuotaLimits {
  readonly callsPerDay?: number | undefined;
  readonly microUsdPerMonth?: number | undefined;
}

/** One call to debit: its provider and its estimated cost in micro-dollars. */
export interface Debit {
  readonly provider: string;
  readonly microUsd: number;
}

export type DebitOutcome = { readonly ok: true } | { readonly ok: false; readonly quota: QuotaName };

/**
 * The counters of one window: `calls`, `billed`, `cost` (micro-dollars), and the same per provider
 * as `<provider>|calls`, `<provider>|billed`, `<provider>|cost`.
 */
export type Counters = Readonly<Record<string, number>>;

/**
 * Where the calls of each key are counted, per UTC day and UTC month (ADR 0136): in process, or in
 * the Redis the replicas share. A debit checks every quota and adds to both windows in one atomic
 * step: either everything is counted or nothing is.
 */
export interface QuotaStore {
  debit(id: string, call: Debit, limits: QuotaLimits, now: number): Promise<DebitOutcome>;
  read(id: string, now: number): Promise<{ day: Counters; month: Counters }>;
}

const FIELDS = ['calls', 'billed', 'cost'] as const;

/** What one debit adds to a window's counters. */
function increments(call: Debit): [string, number][] {
  const amounts = [1, 1, call.microUsd];
  return FIELDS.flatMap((field, i) => [
    [field, amounts[i] as number],
    [`${call.provider}|${field}`, amounts[i] as number],
  ]);
}

/** The quota a debit would overrun, given the counters before it; undefined when it fits. */
function overrun(day: Counters, month: Counters, call: Debit, limits: QuotaLimits): QuotaName | undefined {
  if (limits.callsPerDay !== undefined && (day.calls ?? 0) + 1 > limits.callsPerDay) return 'calls_per_day';
  if (limits.microUsdPerMonth !== undefined && (month.cost ?? 0) + call.microUsd > limits.microUsdPerMonth)
    return 'usd_per_month';
  return undefined;
}

/** Counts in this process: JavaScript runs each debit to completion, so a debit is atomic here. */
export function createMemoryQuotaStore(): QuotaStore {
  const windows = new Map<string, { id: string; counters: Map<string, number> }>();
  const counters = (id: string, window: QuotaWindow, now: number) => {
    const { id: windowId } = quotaWindow(window, now);
    const key = `${window}|${id}`;
    let entry = windows.get(key);
    if (entry?.id !== windowId) {
      entry = { id: windowId, counters: new Map() };
      windows.set(key, entry);
    }
    return entry.counters;
  };
  return {
    async debit(id, call, limits, now) {
      const day = counters(id, 'day', now);
      const month = counters(id, 'month', now);
      const quota = overrun(Object.fromEntries(day), Object.fromEntries(month), call, limits);
      if (quota) return { ok: false, quota };
      for (const map of [day, month])
        for (const [field, amount] of increments(call)) map.set(field, (map.get(field) ?? 0) + amount);
      return { ok: true };
    },
    async read(id, now) {
      return {
        day: Object.fromEntries(counters(id, 'day', now)),
        month: Object.fromEntries(counters(id, 'month', now)),
      };
    },
  };
}

/**
 * One Lua script checks both quotas and adds to both windows' hashes: Redis runs it alone, so two
 * replicas debiting the last call of a quota at once cannot both pass, and a debit is never half
 * written. KEYS: the day's hash, the month's. ARGV: calls per day (-1: none), micro-dollars per
 * month (-1: none), the call's micro-dollars, the expiry of each hash (ms since the epoch), then
 * field/amount pairs. Returns 0 (debited), 1 (calls per day spent) or 2 (dollars per month spent).
 */
const DEBIT_SCRIPT = `
local calls = tonumber(redis.call('HGET', KEYS[1], 'calls') or '0')
local perDay = tonumber(ARGV[1])
if perDay >= 0 and calls + 1 > perDay then return 1 end
local cost = tonumber(redis.call('HGET', KEYS[2], 'cost') or '0')
local perMonth = tonumber(ARGV[2])
if perMonth >= 0 and cost + tonumber(ARGV[3]) > perMonth then return 2 end
for k = 1, 2 do
  for i = 6, #ARGV, 2 do redis.call('HINCRBY', KEYS[k], ARGV[i], ARGV[i + 1]) end
  redis.call('PEXPIREAT', KEYS[k], ARGV[3 + k])
end
return 0
`;

/** Hashes outlive their window by a day, so a usage read just after midnight still finds yesterday's. */
const KEEP_MS = 86_400_000;

/**
 * Counts in the shared Redis, under an HMAC of the key's id (neither keys nor names are stored).
 * While Redis is unreachable the in-process store stands in, as the rate limiter's does: a Redis
 * fault never lifts a quota, it only makes it per replica for that time.
 */
export function createRedisQuotaStore(redis: RedisLink, fallback: QuotaStore = createMemoryQuotaStore()): QuotaStore {
  const keys = (id: string, now: number) => {
    const who = redis.hmac('quota', id);
    const day = quotaWindow('day', now);
    const month = quotaWindow('month', now);
    return {
      day: `${redis.prefix}quota:${who}:${day.id}`,
      month: `${redis.prefix}quota:${who}:${month.id}`,
      dayExpiry: day.end + KEEP_MS,
      monthExpiry: month.end + KEEP_MS,
    };
  };
  const DOWN = Symbol('down');
  return {
    async debit(id, call, limits, now) {
      const k = keys(id, now);
      const args = [
        String(limits.callsPerDay ?? -1),
        String(limits.microUsdPerMonth ?? -1),
        String(call.microUsd),
        String(k.dayExpiry),
        String(k.monthExpiry),
        ...increments(call).flatMap(([field, amount]) => [field, String(amount)]),
      ];
      const answer = await redis.attempt<number | typeof DOWN>(
        async (client) => Number(await client.eval(DEBIT_SCRIPT, 2, k.day, k.month, ...args)),
        DOWN,
      );
      if (answer === DOWN) return fallback.debit(id, call, limits, now);
      if (answer === 1) return { ok: false, quota: 'calls_per_day' };
      if (answer === 2) return { ok: false, quota: 'usd_per_month' };
      return { ok: true };
    },
    async read(id, now) {
      const k = keys(id, now);
      const answer = await redis.attempt<[Record<string, string>, Record<string, string>] | typeof DOWN>(
        async (client) => Promise.all([client.hgetall(k.day), client.hgetall(k.month)]),
        DOWN,
      );
      if (answer === DOWN) return fallback.read(id, now);
      const numbers = (hash: Record<string, string>) =>
        Object.fromEntries(Object.entries(hash).map(([field, value]) => [field, Number(value)]));
      return { day: numbers(answer[0]), month: numbers(answer[1]) };
    },
  };
}
