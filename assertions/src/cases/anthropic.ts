import { ANTHROPIC_CANARY_API_KEY, expectedBraveResults } from '@openmates/fixtures';
import type { ParityCase, ProviderRequest } from '../case.ts';
import type { Outcome } from '../outcome.ts';
import { check } from './check.ts';

// Cases against the Anthropic Messages fixture (hosted web search, ADR 0129), on the columns ADR
// 0131 names: one per option it honours (asserting the request it was sent), one per option it
// refuses, one per error class, its receipt rule, its key, and failover with it first and second.

const provider = 'anthropic' as const;
const surfaces = ['core', 'rest', 'cli', 'sdk', 'mcp'] as const;
const NAME = 'Anthropic web_search (claude-haiku-4-5)';

/** The fixture's ordinary answer to `query`: its results in the order kept, cited pages first. */
function anthropicResults(query: string, count: number) {
  const slug = query
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const description = (n: number) =>
    n === 1
      ? `A passage of the first page about ${query}.`
      : n === 2
        ? `Further detail on ${query}, quoted from the second page.`
        : '';
  return [1, 2, 3, 4, 5].slice(0, count).map((n) => ({
    url: `https://example.com/${slug}/1-${n}`,
    title: `Result ${n} for ${query}`,
    description: description(n),
  }));
}

/**
 * The tool the fixture was sent: every request of the run carries the same one (a column may send
 * the request more than once, as the CLI's does for each of its output forms).
 */
function toolSent(requests: readonly ProviderRequest[]): Record<string, unknown> {
  check(requests.length > 0, 'at least one request');
  const tools = requests.map((r) => (r.body as { tools?: Record<string, unknown>[] } | undefined)?.tools?.[0]);
  const [tool] = tools;
  check(
    tools.every((t) => JSON.stringify(t) === JSON.stringify(tool)),
    'every request sent the same tool',
  );
  check(
    tool?.type === 'web_search_20250305' && tool.name === 'web_search',
    `the web search tool: ${JSON.stringify(tool)}`,
  );
  return tool as Record<string, unknown>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A case whose one group fails with `errorCode` (the whole answer then carries it as its code). */
function failing(name: string, description: string, query: string, errorCode: string): ParityCase {
  return {
    name,
    assertion: 'web-search.provider-error.visible',
    description,
    provider,
    surfaces,
    forbidden: [ANTHROPIC_CANARY_API_KEY],
    request: { requests: [{ query }] },
    expect: (outcome: Outcome) => {
      const [group] = outcome.groups;
      check(group?.errorCode === errorCode, `${errorCode}, got ${group?.errorCode}`);
      check(group?.results.length === 0, 'no results');
    },
  };
}

/** A case refusing `item`'s option before any call, naming `path`. */
function refused(name: string, description: string, item: Record<string, unknown>, path: string): ParityCase {
  return {
    name,
    assertion: 'web-search.request.validated',
    description,
    provider,
    surfaces,
    request: { requests: [{ query: 'rust', ...item }] },
    expect: { code: 'invalid_request', issuePaths: [path], groups: [] },
    received: (requests) => check(requests.length === 0, `no call, got ${requests.length}`),
  };
}

export const anthropicCases: ParityCase[] = [
  {
    name: 'anthropic-receipted-results',
    assertion: 'web-search.results.bounded',
    description:
      'A complete search yields the cited pages first, each with the passage quoted from it as its description, cut to count; the tool is sent with max_uses.',
    provider,
    surfaces,
    request: { requests: [{ query: 'rust traits', count: 3, country: 'ALL' }] },
    expect: { groups: [{ id: 1, results: anthropicResults('rust traits', 3) }] },
    received: (requests) => {
      const tool = toolSent(requests);
      check(tool.max_uses === 4, `max_uses 4, got ${tool.max_uses}`);
      check(tool.user_location === undefined, 'no location for ALL');
    },
  },
  {
    name: 'anthropic-country',
    assertion: 'web-search.results.bounded',
    description: 'country is sent as an approximate user_location.',
    provider,
    surfaces,
    request: { requests: [{ query: 'rust traits', count: 2, country: 'DE' }] },
    expect: { groups: [{ id: 1, results: anthropicResults('rust traits', 2) }] },
    received: (requests) =>
      check(same(toolSent(requests).user_location, { type: 'approximate', country: 'DE' }), 'user_location DE'),
  },
  {
    name: 'anthropic-include-domains',
    assertion: 'web-search.results.bounded',
    description: 'include_domains is sent as the tool’s allowed_domains.',
    provider,
    surfaces,
    request: { requests: [{ query: 'rust traits', count: 2, include_domains: ['example.com'] }] },
    expect: { groups: [{ id: 1, results: anthropicResults('rust traits', 2) }] },
    received: (requests) => {
      const tool = toolSent(requests);
      check(same(tool.allowed_domains, ['example.com']), `allowed_domains: ${JSON.stringify(tool.allowed_domains)}`);
      check(tool.blocked_domains === undefined, 'no blocked_domains');
    },
  },
  {
    name: 'anthropic-exclude-domains',
    assertion: 'web-search.results.bounded',
    description: 'exclude_domains is sent as the tool’s blocked_domains.',
    provider,
    surfaces,
    request: { requests: [{ query: 'rust traits', count: 2, exclude_domains: ['example.org'] }] },
    expect: { groups: [{ id: 1, results: anthropicResults('rust traits', 2) }] },
    received: (requests) => {
      const tool = toolSent(requests);
      check(same(tool.blocked_domains, ['example.org']), `blocked_domains: ${JSON.stringify(tool.blocked_domains)}`);
      check(tool.allowed_domains === undefined, 'no allowed_domains');
    },
  },
  {
    name: 'anthropic-extra-snippets',
    assertion: 'web-search.results.bounded',
    description: 'extra_snippets are the further passages the answer quoted from a page.',
    provider,
    surfaces,
    request: { requests: [{ query: 'rust traits', count: 1, extra_snippets: true }] },
    expect: {
      groups: [
        {
          id: 1,
          results: anthropicResults('rust traits', 1).map((r) => ({
            ...r,
            extra_snippets: ['A second passage of the first page about rust traits.'],
          })),
        },
      ],
    },
  },
  refused(
    'anthropic-domain-pair-refused',
    'Both domain lists at once are refused before any call: the tool takes one or the other.',
    { include_domains: ['a.org'], exclude_domains: ['b.org'] },
    'requests[0].exclude_domains',
  ),
  refused('anthropic-news-refused', 'topic news is refused before any call.', { topic: 'news' }, 'requests[0].topic'),
  refused(
    'anthropic-freshness-refused',
    'freshness is refused before any call.',
    { freshness: 'week' },
    'requests[0].freshness',
  ),
  refused(
    'anthropic-search-lang-refused',
    'search_lang is refused before any call.',
    { search_lang: 'de' },
    'requests[0].search_lang',
  ),
  refused(
    'anthropic-strict-refused',
    'safesearch strict is refused before any call: the tool has no safe-search control.',
    { safesearch: 'strict' },
    'requests[0].safesearch',
  ),
  refused('anthropic-page-refused', 'page 2 is refused before any call.', { page: 2 }, 'requests[0].page'),
  failing('anthropic-auth', 'A 401 is provider_auth, the key never shown.', 'error401 rust', 'provider_auth'),
  failing('anthropic-rate-limited', 'A 429 is provider_rate_limited.', 'error429 rust', 'provider_rate_limited'),
  failing(
    'anthropic-unavailable',
    'A 529 (overloaded) is provider_unavailable.',
    'overloaded rust',
    'provider_unavailable',
  ),
  failing('anthropic-malformed', 'A 200 with truncated JSON is provider_error.', 'malformed rust', 'provider_error'),
  failing(
    'anthropic-pause-turn',
    'A paused turn is refused, never read as a finished search.',
    'pause rust',
    'provider_error',
  ),
  failing(
    'anthropic-no-receipt',
    'An answer without a search is refused: never zero hits.',
    'nosearch rust',
    'provider_error',
  ),
  {
    name: 'anthropic-canary',
    assertion: 'web-search.secrets.never-exposed',
    description: 'Upstream answers that echo the key (a 500 body; a title, passage and URL of a result) leak nothing.',
    provider,
    surfaces,
    forbidden: [ANTHROPIC_CANARY_API_KEY],
    request: { requests: [{ query: 'error500 x' }, { query: 'leak x' }] },
    expect: (outcome: Outcome) => check(outcome.groups[0]?.errorCode === 'provider_error', 'the 500 is provider_error'),
  },
  {
    name: 'chain-anthropic-fails-brave-answers',
    assertion: 'web-search.provider-error.visible',
    description: 'Anthropic first: the group it fails as unavailable goes to Brave, and says who answered.',
    provider: ['anthropic', 'brave'],
    surfaces,
    // The second replica asks Anthropic again for the group it failed (a failure is never cached), and the cluster column counts that call as a cache miss.
    except: ['cluster'],
    request: {
      requests: [
        { id: 'a', query: 'rust traits', count: 2, filter_tabloids: false },
        { id: 'b', query: 'overloaded rust', count: 2, filter_tabloids: false },
      ],
    },
    expect: {
      provider: `${NAME}, Brave Search`,
      groups: [
        { id: 'a', provider: NAME, results: anthropicResults('rust traits', 2) },
        {
          id: 'b',
          provider: 'Brave Search',
          results: expectedBraveResults('overloaded rust', 2).map(({ url, title, description }) => ({
            url,
            title,
            description,
          })),
        },
      ],
    },
  },
  {
    name: 'chain-brave-fails-anthropic-answers',
    assertion: 'web-search.provider-error.visible',
    description: 'Anthropic second: the group Brave fails goes to Anthropic, and says who answered.',
    provider: ['brave', 'anthropic'],
    surfaces,
    request: { requests: [{ id: 'a', query: 'refused rust', count: 2, filter_tabloids: false }] },
    // The second replica asks Brave again for the group Brave failed (a failure is never cached), and the cluster column counts that call as a cache miss.
    except: ['cluster'],
    expect: {
      provider: NAME,
      groups: [{ id: 'a', provider: NAME, results: anthropicResults('refused rust', 2) }],
    },
  },
];
