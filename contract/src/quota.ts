import { z } from './zod.ts';

/**
 * Quotas per API key (ADR 0136): what a named key of `OPENMATES_API_KEYS_FILE` may spend in a UTC
 * day and a UTC month, counted in provider calls and in estimated US dollars. Each quota is a
 * policy of its own in the IETF RateLimit fields, beside the per-minute `per-key` one.
 */

/** The quotas a key may carry, by the policy name the RateLimit fields give each. */
export const QUOTA_POLICIES = {
  calls_per_day: { policy: 'calls-per-day', window: 'day' },
  usd_per_month: { policy: 'usd-per-month', window: 'month' },
} as const;
export type QuotaName = keyof typeof QUOTA_POLICIES;
export type QuotaWindow = 'day' | 'month';

/** A dollar amount is counted in micro-dollars (whole numbers, so replicas add them atomically). */
export const MICRO_USD = 1_000_000;

/** One entry of the keys file: a name, the key's SHA-256 (hex; never the key) and its limits. */
export const KeyFileEntrySchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a name of 1 to 64 letters, digits, ".", "_" or "-"'),
  key_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'the key’s SHA-256 as 64 lowercase hex digits'),
  rate_limit_per_min: z.int().min(0).optional(),
  calls_per_day: z.int().min(0).optional(),
  usd_per_month: z.number().min(0).optional(),
});
export type KeyFileEntry = z.infer<typeof KeyFileEntrySchema>;
export const KeysFileSchema = z.array(KeyFileEntrySchema);

/** UTC window boundaries: the start of `at`'s day or month and the start of the next one, in ms. */
export function quotaWindow(window: QuotaWindow, at: number): { start: number; end: number; id: string } {
  const d = new Date(at);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  if (window === 'day') {
    const start = Date.UTC(y, m, d.getUTCDate());
    return { start, end: start + 86_400_000, id: new Date(start).toISOString().slice(0, 10) };
  }
  const start = Date.UTC(y, m, 1);
  return { start, end: Date.UTC(y, m + 1, 1), id: new Date(start).toISOString().slice(0, 7) };
}

/** `"calls-per-day";q=3;w=86400`: a quota as one more item of `RateLimit-Policy`. */
export function quotaPolicyItem(name: QuotaName, limit: number, windowS: number): string {
  return `"${QUOTA_POLICIES[name].policy}";q=${limit};w=${windowS}`;
}

/** `"calls-per-day";r=0;t=3600`: the caller's state under a quota, as one more item of `RateLimit`. */
export function quotaStateItem(name: QuotaName, remaining: number, resetS: number): string {
  return `"${QUOTA_POLICIES[name].policy}";r=${remaining};t=${resetS}`;
}

const Spent = z.strictObject({
  calls: z.int().min(0).openapi({ description: 'Provider calls debited (retries and further pages included).' }),
  billed: z.number().min(0).openapi({ description: "Billed units, in each provider's unit." }),
  cost_usd: z.number().min(0).openapi({ description: 'Estimated cost from the price table, in US dollars.' }),
});

export const UsageWindowSchema = z
  .strictObject({
    window: z.string().openapi({ description: 'The UTC day (`2026-12-07`) or month (`2026-12`).' }),
    reset_seconds: z.int().min(0).openapi({ description: 'Seconds until the window ends.' }),
    ...Spent.shape,
    providers: z.record(z.string(), Spent).openapi({ description: 'The same, per provider id.' }),
  })
  .openapi('UsageWindow');

export const QuotaStateSchema = z
  .strictObject({
    quota: z.enum(['calls_per_day', 'usd_per_month']),
    policy: z.string().openapi({ description: 'Its name in `RateLimit-Policy`.' }),
    limit: z.number().min(0),
    used: z.number().min(0),
    remaining: z.number().min(0),
    reset_seconds: z.int().min(0),
  })
  .openapi('QuotaState');

export const UsageSchema = z
  .strictObject({
    name: z
      .string()
      .optional()
      .openapi({ description: "The calling key's name; absent for a key without one (`OPENMATES_API_KEYS`)." }),
    today: UsageWindowSchema,
    month: UsageWindowSchema,
    quotas: z.array(QuotaStateSchema).openapi({ description: 'What is left of each quota the key has.' }),
  })
  .openapi('Usage', { description: "The calling key's usage today and this month, and what is left of its quotas." });
export type Usage = z.infer<typeof UsageSchema>;
export type UsageWindow = z.infer<typeof UsageWindowSchema>;
