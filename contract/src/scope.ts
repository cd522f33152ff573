// Time and domain scope of a query: the forms `freshness`, `include_domains` and `exclude_domains`
// take, how they are normalized, and how a result is judged against them. The engine enforces the
// scope on every result with these functions, whatever the provider did.
import { issueMessage } from './issue-messages.ts';
import { MAX_PUBLISHED_AHEAD_MS, MAX_SCOPE_DOMAINS, MIN_SCOPE_DOMAINS } from './limits.ts';
import { once } from './once.ts';
import { z } from './zod.ts';

/** The named time ranges, each the last N days up to now (UTC). */
export const FRESHNESS_PERIODS = { day: 1, week: 7, month: 31, year: 365 } as const;
export type FreshnessPeriod = keyof typeof FRESHNESS_PERIODS;

/** A time range: a named period, or calendar dates (inclusive, UTC) with at most one end open. */
export type Freshness = { readonly period: FreshnessPeriod } | { readonly from?: string; readonly to?: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD`. */
function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Reads a `freshness` value: `day`, `week`, `month` or `year` (any case), or `FROM..TO` with real
 * calendar dates, either end (not both) left open, FROM ≤ TO. `undefined` when it is none of these.
 */
export function parseFreshness(text: string): Freshness | undefined {
  const lower = text.trim().toLowerCase();
  if (Object.hasOwn(FRESHNESS_PERIODS, lower)) return { period: lower as FreshnessPeriod };
  const parts = lower.split('..');
  if (parts.length !== 2) return undefined;
  const [from = '', to = ''] = parts;
  if (from === '' && to === '') return undefined;
  if ((from !== '' && !isCalendarDate(from)) || (to !== '' && !isCalendarDate(to))) return undefined;
  if (from !== '' && to !== '' && from > to) return undefined;
  return { ...(from === '' ? {} : { from }), ...(to === '' ? {} : { to }) };
}

/** The normalized form of a valid `freshness`: a period in lowercase, a range as given. */
export function normalizeFreshness(text: string): string {
  return text.trim().toLowerCase();
}

const DAY_MS = 86_400_000;

/**
 * The instants a time range covers, `[start, end)` in milliseconds since the epoch: a period starts
 * its days before now; a date range runs from the start of its first day to the end of its last (an
 * open start is the epoch). A period, an open end and an end on today all end at now plus
 * MAX_PUBLISHED_AHEAD_MS, that instant included, so a date that far ahead of this clock counts as
 * now; a range whose last day is over ends with that day.
 */
export function freshnessWindow(freshness: Freshness, now: number): { start: number; end: number } {
  const ahead = now + MAX_PUBLISHED_AHEAD_MS + 1;
  if ('period' in freshness) return { start: now - FRESHNESS_PERIODS[freshness.period] * DAY_MS, end: ahead };
  const start = freshness.from === undefined ? 0 : Date.parse(`${freshness.from}T00:00:00Z`);
  if (freshness.to === undefined) return { start, end: ahead };
  const lastDayEnd = Date.parse(`${freshness.to}T00:00:00Z`) + DAY_MS;
  const endsToday = freshness.to === new Date(now).toISOString().slice(0, 10);
  return { start, end: endsToday ? Math.max(lastDayEnd, ahead) : lastDayEnd };
}

/** A date range's two ends for a provider that needs both: an open start is 1970-01-01, an open end today (UTC). */
export function closedRange(freshness: { from?: string; to?: string }, now: number): { from: string; to: string } {
  return {
    from: freshness.from ?? '1970-01-01',
    to: freshness.to ?? new Date(now).toISOString().slice(0, 10),
  };
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d+(\.\d+){3}$/;

/**
 * A domain name as the scope fields take it, in lowercase ASCII (an internationalized name in its
 * punycode form), or `undefined` when `text` is not a bare host name of at least two labels: no
 * scheme, port, path, user info, wildcard or IP address. `URL` does the IDNA mapping, as a browser does.
 */
export function normalizeDomain(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || /[\s/:@*?#[\]\\%]/.test(trimmed)) return undefined;
  let host: string;
  try {
    host = new URL(`http://${trimmed}/`).hostname;
  } catch {
    return undefined;
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (IPV4.test(host)) return undefined;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return undefined;
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return undefined;
  return host;
}

/** True when `host` is `domain` or one of its subdomains (`a.docs.example.org` of `docs.example.org`). */
export function hostInDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** A list of domains normalized: lowercase ASCII, duplicates collapsed, sorted. */
export function normalizeDomains(list: readonly string[]): string[] {
  return [...new Set(list.map((entry) => normalizeDomain(entry) ?? entry))].sort();
}

/** The schema of `include_domains` / `exclude_domains`: 1–10 host names, each checked on its own. */
export function domainListSchema(field: string) {
  const entry = z
    .string({ error: issueMessage('domain', { field }) })
    .refine((text) => normalizeDomain(text) !== undefined, {
      error: issueMessage('domain', { field }),
    });
  const size = issueMessage('domainCount', { field, min: MIN_SCOPE_DOMAINS, max: MAX_SCOPE_DOMAINS });
  return z
    .array(entry, { error: size })
    .min(MIN_SCOPE_DOMAINS, { error: size })
    .max(MAX_SCOPE_DOMAINS, { error: size });
}

/**
 * Why `text` is no `freshness` value, in the contract's words: a date range that only misses by a
 * date that does not exist, or by its order, says so; anything else gets the form's whole rule.
 * Undefined when it is a value.
 */
export function freshnessProblem(text: string): string | undefined {
  if (parseFreshness(text) !== undefined) return undefined;
  const parts = text.trim().toLowerCase().split('..');
  const [from = '', to = ''] = parts;
  const ends = [from, to].filter((end) => end !== '');
  if (parts.length !== 2 || ends.length === 0 || !ends.every((end) => DATE.test(end))) return issueMessage('freshness');
  const missing = ends.find((end) => !isCalendarDate(end));
  if (missing !== undefined) return issueMessage('freshnessDate', { date: missing });
  return issueMessage('freshnessOrder', { from, to });
}

/** The schema of `freshness`, built at its first use. */
export const freshnessSchema = once(() =>
  z.string({ error: issueMessage('freshness') }).superRefine((text, ctx) => {
    const problem = freshnessProblem(text);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

/**
 * The conflicts between an item's two domain lists: each excluded entry equal to, or covering, an
 * included one. Returned as the index of the excluded entry and the included domain it covers.
 */
export function scopeConflicts(
  include: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
): { index: number; excluded: string; included: string }[] {
  if (include === undefined || exclude === undefined) return [];
  const included = include.map((entry) => normalizeDomain(entry)).filter((d): d is string => d !== undefined);
  const conflicts: { index: number; excluded: string; included: string }[] = [];
  exclude.forEach((entry, index) => {
    const domain = normalizeDomain(entry);
    if (domain === undefined) return;
    const covered = included.find((inc) => hostInDomain(inc, domain));
    if (covered !== undefined) conflicts.push({ index, excluded: domain, included: covered });
  });
  return conflicts;
}
