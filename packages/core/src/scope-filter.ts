import { freshnessWindow, hostInDomain, type NormalizedRequestItem, parseFreshness } from '@openmates/contract';

/**
 * A query's scope as the engine enforces it on every result, whatever the provider did: the
 * domains a result's host must (or must not) be in, and the instants its publication date must lie
 * in. Built from caller text: never logged, never a metric label.
 */
export interface ResultScope {
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  /** `[start, end)` in milliseconds since the epoch. */
  readonly window?: { readonly start: number; readonly end: number };
  /** True when a result without a readable date is kept: the provider applied the time range itself. */
  readonly keepUndated: boolean;
}

/** Why a result is outside its query's scope, or `undefined` when it is inside. */
export type ScopeMiss = 'domain' | 'date' | undefined;

/** The scope of `item` at wall time `now` (ms since the epoch), or `undefined` when it has none. */
export function scopeOf(item: NormalizedRequestItem, now: number, keepUndated: boolean): ResultScope | undefined {
  const freshness = item.freshness === undefined ? undefined : parseFreshness(item.freshness);
  if (freshness === undefined && item.include_domains === undefined && item.exclude_domains === undefined)
    return undefined;
  return {
    ...(item.include_domains === undefined ? {} : { include: item.include_domains }),
    ...(item.exclude_domains === undefined ? {} : { exclude: item.exclude_domains }),
    ...(freshness === undefined ? {} : { window: freshnessWindow(freshness, now) }),
    keepUndated,
  };
}

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * A machine-readable publication date in ms since the epoch, or `undefined` when `value` is not an
 * ISO 8601 date or date-time. A date alone is its first instant in UTC; a time without an offset
 * (Brave's `page_age`, `2025-01-05T12:00:00`) is read as UTC too, never as this machine's zone.
 */
export function publishedAt(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = ISO_DATE.exec(value.trim());
  if (match === null) return undefined;
  const [, date, time = '00:00:00', zone = 'Z'] = match;
  const ms = Date.parse(`${date}T${time}${zone.toUpperCase()}`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A URL's host as the domain lists compare it: lowercase ASCII (punycode), without a trailing dot. */
export function scopeHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.$/, '');
}

/** Where a result with host `host` and publication date `published` misses `scope`, if it does. */
export function scopeMiss(scope: ResultScope, host: string, published: unknown): ScopeMiss {
  if (scope.include !== undefined && !scope.include.some((domain) => hostInDomain(host, domain))) return 'domain';
  if (scope.exclude?.some((domain) => hostInDomain(host, domain))) return 'domain';
  if (scope.window !== undefined) {
    const at = publishedAt(published);
    if (at === undefined) return scope.keepUndated ? undefined : 'date';
    if (at < scope.window.start || at >= scope.window.end) return 'date';
  }
  return undefined;
}
