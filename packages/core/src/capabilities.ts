import {
  DEFAULT_COUNT,
  DEFAULT_COUNTRY,
  DEFAULT_SAFESEARCH,
  type Issue,
  issueMessage,
  MAX_COUNT,
  type NormalizedRequestItem,
  type SkillInfo,
} from '@openmates/contract';
import { lastReachablePage } from './pipeline/window.ts';
import type { Capabilities, SearchProvider } from './provider.ts';

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/** True when `q` is within the provider's limits on words and characters. */
function withinLimits(q: string, limits: NonNullable<Capabilities['query']>): boolean {
  return wordCount(q) <= limits.maxWords && [...q].length <= limits.maxLength;
}

/**
 * The query limit issues: too many words in the query itself, else the domain field whose
 * operators push the query as sent over the limits.
 */
function queryIssues(provider: SearchProvider, item: NormalizedRequestItem, index: number): Issue[] {
  const limits = provider.capabilities.query;
  if (limits === undefined) return [];
  const words = wordCount(item.query);
  if (words > limits.maxWords)
    return [
      {
        path: `requests[${index}].query`,
        message: issueMessage('providerQueryWords', { provider: provider.name, max: limits.maxWords, words }),
      },
    ];
  const q = limits.sent(item);
  if (withinLimits(q, limits)) return [];
  const field =
    item.include_domains === undefined || withinLimits(limits.sent({ ...item, exclude_domains: undefined }), limits)
      ? 'exclude_domains'
      : 'include_domains';
  return [
    {
      path: `requests[${index}].${field}`,
      message: issueMessage('providerOption', {
        option: field,
        provider: provider.name,
        reason: `with its site: operators the query has ${wordCount(q)} words and ${[...q].length} characters, where ${provider.name} takes at most ${limits.maxWords} words and ${limits.maxLength} characters`,
      }),
    },
  ];
}

/**
 * A result page past the provider's reach: its window's first provider page lies beyond the last
 * page the provider serves (ADR 0103), for this item's count and options.
 */
function reachIssues(provider: SearchProvider, item: NormalizedRequestItem, index: number): Issue[] {
  const page = item.page;
  if (page === undefined) return [];
  const last = lastReachablePage(provider.capabilities, item);
  if (page <= last) return [];
  const tabloids = item.filter_tabloids ? ', tabloids filtered' : '';
  return [
    {
      path: `requests[${index}].page`,
      message: issueMessage('providerOption', {
        option: `page ${page}`,
        provider: provider.name,
        reason: `with count ${item.count}${tabloids} and these options it serves results up to page ${last}`,
      }),
    },
  ];
}

/**
 * What `provider` refuses of `item`, each issue naming the field and the provider: its query
 * limits, a `search_lang` it does not support, a page past its reach, and every refusal of its
 * capability table. Runs before any call; failover skips a provider for which it is not empty.
 */
export function providerIssues(provider: SearchProvider, item: NormalizedRequestItem, index: number): Issue[] {
  const { capabilities } = provider;
  const issues = [...queryIssues(provider, item, index), ...reachIssues(provider, item, index)];
  const { languages } = capabilities;
  if (item.search_lang !== undefined && languages !== undefined && !languages.includes(item.search_lang))
    issues.push({
      path: `requests[${index}].search_lang`,
      message: issueMessage('providerLanguage', {
        provider: provider.name,
        value: item.search_lang,
        supported: languages.join(', '),
      }),
    });
  for (const refusal of capabilities.refuses ?? [])
    if (refusal.applies(item))
      issues.push({
        path: `requests[${index}].${refusal.option}`,
        message: issueMessage('providerOption', {
          option: refusal.label ?? refusal.option,
          provider: provider.name,
          reason: refusal.reason,
        }),
      });
  return issues;
}

/** Skill info's rule for the pages a provider that stops somewhere reaches, with the default and the largest count. */
function pageReachRule(provider: SearchProvider): string | undefined {
  const { capabilities } = provider;
  if (capabilities.paging?.reach === undefined) return undefined;
  const last = (count: number) =>
    lastReachablePage(capabilities, {
      id: 1,
      query: 'q',
      count,
      country: DEFAULT_COUNTRY,
      safesearch: DEFAULT_SAFESEARCH,
      filter_tabloids: true,
    });
  return `page is refused past what ${provider.name} serves: with tabloids filtered, count ${DEFAULT_COUNT} reaches page ${last(DEFAULT_COUNT)} and count ${MAX_COUNT} page ${last(MAX_COUNT)} (a domain or time scope reaches fewer).`;
}

/** Skill info's option lists, from the capability table. */
export function optionLists(provider: SearchProvider): SkillInfo['options'] {
  const { capabilities } = provider;
  const unsupported: SkillInfo['options']['unsupported'] = [];
  if (capabilities.languages !== undefined)
    unsupported.push({
      option: 'search_lang',
      rule: `${provider.name} supports only these search_lang codes: ${capabilities.languages.join(', ')}`,
    });
  for (const { option, rule } of capabilities.refuses ?? []) if (rule !== undefined) unsupported.push({ option, rule });
  const reachRule = pageReachRule(provider);
  if (reachRule !== undefined) unsupported.push({ option: 'page', rule: reachRule });
  return {
    honoured: [...capabilities.honoured],
    unsupported,
    ...(capabilities.conditional ? { conditional: [...capabilities.conditional] } : {}),
  };
}

/** True when the provider applies `freshness` itself (honoured, or honoured in some cases). */
export function appliesFreshness(provider: Pick<SearchProvider, 'capabilities'>): boolean {
  const { honoured, conditional } = provider.capabilities;
  return honoured.includes('freshness') || (conditional ?? []).some((entry) => entry.option === 'freshness');
}

/** Most calls one query may make with this provider (its pages). */
export function maxCallsPerQuery(provider: Pick<SearchProvider, 'capabilities'>): number {
  return provider.capabilities.paging?.maxPages ?? 1;
}
