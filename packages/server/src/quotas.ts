import {
  MICRO_USD,
  QUOTA_POLICIES,
  type QuotaName,
  quotaPolicyItem,
  quotaStateItem,
  quotaWindow,
  type Usage,
  type UsageWindow,
} from '@openmates/contract';
import type { CallMeter, Engine } from '@openmates/core';
import type { KeyIdentity } from './keys-file.ts';
import type { ServerMetrics } from './metrics.ts';
import { type Counters, createMemoryQuotaStore, createRedisQuotaStore, type QuotaLimits } from './quota-store.ts';
import { Refusal } from './refusal.ts';

/** The caller whose calls are counted: a key's identity, or the server's own when no keys are configured. */
const KEYLESS: KeyIdentity = { id: 'keyless', name: null, entry: undefined };

/**
 * What each key spends and may spend (ADR 0136): the search routes' check before a search starts,
 * the meter the engine debits each provider call through, the quota items of the RateLimit
 * fields, and `GET /v1/usage`. The store is chosen once at start: the shared Redis when the
 * replicas have one, else this process.
 */
export interface Quotas {
  /**
   * Before a search: throws the 429 `quota_exceeded` refusal when a quota of the caller is spent
   * (with `Retry-After` and the quota in the RateLimit fields); otherwise the RateLimit items of
   * the caller's quotas (none when it has none).
   */
  check(caller: KeyIdentity | null): Promise<{ policy: string[]; state: string[] }>;
  /** The meter a search of `caller` debits its provider calls through. */
  meter(caller: KeyIdentity | null): CallMeter;
  /** The caller's usage today and this month, and what is left of its quotas. */
  usage(caller: KeyIdentity | null): Promise<Usage>;
}

function limitsOf(caller: KeyIdentity): QuotaLimits {
  const entry = caller.entry;
  return {
    callsPerDay: entry?.calls_per_day,
    microUsdPerMonth: entry?.usd_per_month === undefined ? undefined : Math.round(entry.usd_per_month * MICRO_USD),
  };
}

const WINDOW_OF: Record<QuotaName, 'day' | 'month'> = {
  calls_per_day: QUOTA_POLICIES.calls_per_day.window,
  usd_per_month: QUOTA_POLICIES.usd_per_month.window,
};

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
const dollars = (micro: number) => Math.round(micro) / MICRO_USD;

export function createQuotas(engine: Engine, metrics: ServerMetrics, now: () => number = Date.now): Quotas {
  const store = engine.redis ? createRedisQuotaStore(engine.redis) : createMemoryQuotaStore();
  const { registry } = engine.config;
  /** Micro-dollars per call of a provider, from its module's price (nothing when it costs nothing). */
  const microUsdOf = (provider: string): number => {
    const price = registry[provider]?.price;
    return price?.costs === 'per-unit' ? Math.round(price.usd * MICRO_USD) : 0;
  };

  /** Each quota of the caller: its limit, what is used, what is left, seconds until its window ends. */
  async function states(caller: KeyIdentity) {
    const limits = limitsOf(caller);
    const at = now();
    const { day, month } = await store.read(caller.id, at);
    const rows: { quota: QuotaName; limit: number; used: number; resetMs: number; windowS: number }[] = [];
    const reset = (name: QuotaName) => {
      const window = quotaWindow(WINDOW_OF[name], at);
      return { resetMs: window.end - at, windowS: Math.round((window.end - window.start) / 1000) };
    };
    if (limits.callsPerDay !== undefined)
      rows.push({ quota: 'calls_per_day', limit: limits.callsPerDay, used: day.calls ?? 0, ...reset('calls_per_day') });
    if (limits.microUsdPerMonth !== undefined)
      rows.push({
        quota: 'usd_per_month',
        limit: limits.microUsdPerMonth,
        used: month.cost ?? 0,
        ...reset('usd_per_month'),
      });
    return { rows, day, month, at };
  }

  /** A quota's amounts as clients read them: calls as counted, dollars from micro-dollars. */
  const shown = (quota: QuotaName, amount: number) => (quota === 'usd_per_month' ? dollars(amount) : amount);

  function refusal(quota: QuotaName, resetMs: number, headers: Record<string, string>): Refusal {
    metrics.quotaExceeded();
    const policy = QUOTA_POLICIES[quota].policy;
    const wait = seconds(resetMs);
    return new Refusal(
      'quota_exceeded',
      `This API key's ${policy} quota is spent; it renews when the UTC ${WINDOW_OF[quota]} ends, in ${wait} s.`,
      { headers: { 'retry-after': String(wait), ...headers } },
    );
  }

  return {
    async check(caller) {
      if (!caller?.entry || (caller.entry.calls_per_day === undefined && caller.entry.usd_per_month === undefined))
        return { policy: [], state: [] };
      const { rows } = await states(caller);
      const policy = rows.map((r) => quotaPolicyItem(r.quota, shown(r.quota, r.limit), r.windowS));
      const state = rows.map((r) =>
        quotaStateItem(r.quota, Math.floor(shown(r.quota, Math.max(0, r.limit - r.used))), seconds(r.resetMs)),
      );
      const spent = rows.find((r) => r.used >= r.limit);
      if (spent)
        throw refusal(spent.quota, spent.resetMs, {
          'ratelimit-policy': policy.join(', '),
          ratelimit: state.join(', '),
        });
      return { policy, state };
    },
    meter(caller) {
      const who = caller ?? KEYLESS;
      const limits = limitsOf(who);
      return {
        async debit(provider) {
          const microUsd = microUsdOf(provider);
          const at = now();
          const outcome = await store.debit(who.id, { provider, microUsd }, limits, at);
          if (outcome.ok) {
            metrics.debited(provider, 1, dollars(microUsd));
            return undefined;
          }
          metrics.quotaExceeded();
          const window = quotaWindow(WINDOW_OF[outcome.quota], at);
          return {
            message: `This API key's ${QUOTA_POLICIES[outcome.quota].policy} quota is spent: this query's call was not sent.`,
            retryAfterMs: window.end - at,
          };
        },
      };
    },
    async usage(caller) {
      const who = caller ?? KEYLESS;
      const { rows, day, month, at } = await states(who);
      const windowOf = (counters: Counters, kind: 'day' | 'month'): UsageWindow => {
        const window = quotaWindow(kind, at);
        const providers: UsageWindow['providers'] = {};
        for (const [field, value] of Object.entries(counters)) {
          const [provider, part] = field.split('|');
          if (provider === undefined || part === undefined) continue;
          providers[provider] ??= { calls: 0, billed: 0, cost_usd: 0 };
          const spent = providers[provider];
          if (part === 'calls') spent.calls = value;
          else if (part === 'billed') spent.billed = value;
          else if (part === 'cost') spent.cost_usd = dollars(value);
        }
        return {
          window: window.id,
          reset_seconds: seconds(window.end - at),
          calls: counters.calls ?? 0,
          billed: counters.billed ?? 0,
          cost_usd: dollars(counters.cost ?? 0),
          providers,
        };
      };
      return {
        ...(who.name === null ? {} : { name: who.name }),
        today: windowOf(day, 'day'),
        month: windowOf(month, 'month'),
        quotas: rows.map((r) => ({
          quota: r.quota,
          policy: QUOTA_POLICIES[r.quota].policy,
          limit: shown(r.quota, r.limit),
          used: shown(r.quota, r.used),
          remaining: shown(r.quota, Math.max(0, r.limit - r.used)),
          reset_seconds: seconds(r.resetMs),
        })),
      };
    },
  };
}
