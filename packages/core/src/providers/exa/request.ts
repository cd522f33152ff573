import { closedRange, parseFreshness } from '@openmates/contract';
import type { Capabilities, PageRequest, ProviderQuery } from '../../provider.ts';

// What an Exa search is sent, and what of a request Exa can apply (ADR 0126). Exa's reference:
// `POST /search` (exa-py `Exa.search`, its OpenAPI specification).

/** Most results one Exa search returns: its documented `numResults` maximum for the `auto`/`neural` types. */
export const EXA_MAX_NUM_RESULTS = 100;
/** The search type sent: Exa's default, which routes between its neural and keyword search. */
export const EXA_SEARCH_TYPE = 'auto';
/**
 * Characters of page text asked for each result: the description's bound (MAX_DESCRIPTION_LENGTH);
 * more would be paid for and cut away.
 */
export const EXA_TEXT_CHARACTERS = 1_000;
/** Characters of highlights asked for each result with `extra_snippets` (MAX_EXTRA_SNIPPETS of 300). */
export const EXA_HIGHLIGHT_CHARACTERS = 1_500;

const DAY_MS = 86_400_000;
const PERIOD_DAYS = { day: 1, week: 7, month: 31, year: 365 } as const;

/**
 * Exa's `startPublishedDate` and `endPublishedDate` (ISO 8601) for a normalized `freshness` at wall
 * time `now`: a period starts its days before now and has no end; a date range covers its first day
 * from midnight to its last day's end (UTC), an open end sends no end.
 */
export function exaPublishedDates(
  freshness: string | undefined,
  now: number,
): { startPublishedDate?: string; endPublishedDate?: string } {
  const parsed = freshness === undefined ? undefined : parseFreshness(freshness);
  if (parsed === undefined) return {};
  if ('period' in parsed)
    return { startPublishedDate: new Date(now - PERIOD_DAYS[parsed.period] * DAY_MS).toISOString() };
  const { from, to } = closedRange(parsed, now);
  return {
    ...(parsed.from === undefined ? {} : { startPublishedDate: `${from}T00:00:00.000Z` }),
    ...(parsed.to === undefined ? {} : { endPublishedDate: `${to}T23:59:59.999Z` }),
  };
}

/** The JSON body of one Exa search for `query`. */
export function exaSearchBody(query: ProviderQuery, page: Pick<PageRequest, 'wallClock'>): Record<string, unknown> {
  const body: Record<string, unknown> = {
    query: query.query,
    type: EXA_SEARCH_TYPE,
    numResults: Math.min(Math.max(query.fetchCount, 1), EXA_MAX_NUM_RESULTS),
    contents: {
      text: { maxCharacters: EXA_TEXT_CHARACTERS },
      ...(query.extra_snippets === true ? { highlights: { maxCharacters: EXA_HIGHLIGHT_CHARACTERS } } : {}),
    },
  };
  if (query.topic === 'news') body.category = 'news';
  Object.assign(body, exaPublishedDates(query.freshness, page.wallClock));
  if (query.include_domains !== undefined && query.include_domains.length > 0)
    body.includeDomains = [...query.include_domains];
  if (query.exclude_domains !== undefined && query.exclude_domains.length > 0)
    body.excludeDomains = [...query.exclude_domains];
  if (query.country !== 'ALL') body.userLocation = query.country;
  if (query.safesearch === 'strict') body.moderation = true;
  return body;
}

const both = (list: readonly string[] | undefined) => list !== undefined && list.length > 0;

/** What Exa can do (ADR 0126): one call a query, no pages, no language, one of the two domain lists. */
export const EXA_CAPABILITIES: Capabilities = {
  honoured: ['count', 'country', 'topic', 'freshness', 'include_domains', 'extra_snippets', 'filter_tabloids'],
  conditional: [
    {
      option: 'exclude_domains',
      rule: 'Honoured alone (Exa’s excludeDomains); with include_domains it is refused: Exa takes one of the two lists, not both.',
    },
    {
      option: 'safesearch',
      rule: 'strict is sent as Exa’s moderation: true; off and moderate send nothing (Exa’s results are unmoderated unless asked).',
    },
  ],
  refuses: [
    {
      option: 'page',
      applies: (item) => item.page !== undefined,
      reason: 'its search answers one set of results and has no pages past it',
      rule: 'page is refused past 1: Exa answers one set of up to 100 results without pages; ask for a larger count instead.',
    },
    {
      option: 'search_lang',
      applies: (item) => item.search_lang !== undefined,
      reason: 'its search has no language control',
      rule: 'search_lang is refused: Exa’s search has no language control; omit it.',
    },
    {
      option: 'exclude_domains',
      label: 'include_domains with exclude_domains',
      applies: (item) => both(item.include_domains) && both(item.exclude_domains),
      reason: 'it takes either a list of domains to search or one to leave out, not both',
    },
  ],
  retry: { maxRetries: 2, maxWaitMs: 5_000, unnamed: { retry: true, waitMs: 1_000, pauseMs: 1_000 } },
};
