import { MAX_PAGE, MIN_PAGE, type NormalizedRequestItem } from '@openmates/contract';
import type { Capabilities } from '../provider.ts';

/**
 * The size of the provider window a query's pages are drawn from (ADR 0100): twice `count` when
 * tabloids will be filtered out, so `count` can still be met when half the window is tabloids,
 * else `count`. It sets the page sizes asked for and the window's last page; paging itself stops
 * as soon as `count` candidates pass admission.
 */
export function fetchCountFor(item: NormalizedRequestItem): number {
  return item.filter_tabloids ? item.count * 2 : item.count;
}

/** True when the item has a domain or time scope (its provider pages are then full ones). */
export function isScoped(item: Pick<NormalizedRequestItem, 'freshness' | 'include_domains' | 'exclude_domains'>) {
  return item.freshness !== undefined || item.include_domains !== undefined || item.exclude_domains !== undefined;
}

/**
 * How many provider pages one result page may take: enough for `fetchCount` at the provider's page
 * size (every page it allows, when it sets none), and with a scope up to `scopePages` more, at most
 * `maxPages`.
 */
export function lastPage(capabilities: Capabilities, fetchCount: number, scoped: boolean): number {
  const paging = capabilities.paging;
  if (paging === undefined) return 1;
  const planned = paging.perPage === undefined ? paging.maxPages : Math.ceil(Math.max(fetchCount, 1) / paging.perPage);
  return Math.min(planned + (scoped ? (paging.scopePages ?? 0) : 0), paging.maxPages);
}

/**
 * The provider pages (0-based) result page `item.page` asks for (ADR 0103): with W the pages one
 * result page takes (`lastPage`), page N's window is W pages from (N − 1)·W. It depends on the
 * item's page, count and options alone, never on what earlier pages gathered, so the windows of two
 * result pages never overlap.
 */
export function pageWindow(
  capabilities: Capabilities,
  item: NormalizedRequestItem,
  fetchCount = fetchCountFor(item),
): { first: number; size: number } {
  const size = lastPage(capabilities, fetchCount, isScoped(item));
  return { first: ((item.page ?? MIN_PAGE) - 1) * size, size };
}

/** The last result page whose window's first provider page the provider can reach, for this item's count and options. */
export function lastReachablePage(
  capabilities: Capabilities,
  item: NormalizedRequestItem,
  fetchCount = fetchCountFor(item),
): number {
  const reach = capabilities.paging?.reach;
  if (reach === undefined) return MAX_PAGE;
  const { size } = pageWindow(capabilities, item, fetchCount);
  return Math.min(MAX_PAGE, Math.floor(reach / size) + 1);
}
