import { EXA_CANARY_API_KEY, EXA_RESULT_HOST } from '@openmates/fixtures';
import type { ParityCase, ProviderRequest, Surface } from '../case.ts';
import type { Outcome } from '../outcome.ts';
import { check } from './check.ts';

// Cases against the Exa fixture (docs/providers/exa.md): one per option Exa honours (the body it
// received), one per option it refuses, one per error class, failover with it first and second, and
// its key as a canary. They run on the core, REST, CLI, npm SDK and MCP (stdio) columns (ADR 0127).

const provider = 'exa' as const;

/** The columns these cases run on: `sdk` brings its client columns along, all but MCP over stdio are left out. */
const surfaces: readonly Surface[] = ['core', 'rest', 'cli', 'sdk'];
const except: readonly Surface[] = [
  'pip',
  'mcp-http',
  'mcp-2026',
  'mcp-http-2026',
  'stream',
  'sdk-stream',
  'pip-stream',
  'cluster',
];
const columns = { surfaces, except } as const;

/** The one search body every call of a column sent (a column may search more than once: the CLI's runs). */
function bodies(requests: readonly ProviderRequest[]): Record<string, unknown>[] {
  check(requests.length >= 1, 'Exa received the search');
  return requests.map((r) => r.body as Record<string, unknown>);
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A case for one honoured option: the request carries `item`, Exa's body must carry `fields`. */
function honoured(option: string, item: Record<string, unknown>, fields: Record<string, unknown>): ParityCase {
  return {
    name: `exa-${option}-sent`,
    assertion: 'web-search.request.validated',
    description: `Exa gets ${option} as ${Object.keys(fields).join(' and ')} in its search body.`,
    provider,
    ...columns,
    request: { requests: [{ query: 'rust ownership', filter_tabloids: false, ...item }] },
    expect: (outcome: Outcome) => {
      check(outcome.code === undefined, `no error, got ${outcome.code}`);
      check((outcome.groups[0]?.results.length ?? 0) > 0, 'Exa’s results come back');
    },
    received: (requests) => {
      for (const body of bodies(requests))
        for (const [key, value] of Object.entries(fields))
          check(sameJson(body[key], value), `${key}: ${JSON.stringify(body[key])}, expected ${JSON.stringify(value)}`);
    },
  };
}

/** A case for one refused option: a 400 naming the field, before any call. */
function refused(option: string, item: Record<string, unknown>, path: string): ParityCase {
  return {
    name: `exa-${option}-refused`,
    assertion: 'web-search.request.validated',
    description: `Exa cannot apply ${option}: refused before any call, naming the field.`,
    provider,
    ...columns,
    request: { requests: [{ query: 'rust', ...item }] },
    expect: { code: 'invalid_request', issuePaths: [path], groups: [] },
    received: (requests) => check(requests.length === 0, `no call to Exa, got ${requests.length}`),
  };
}

/** A case for one error class: the group fails with `code`, in our words. */
function failing(name: string, query: string, code: string): ParityCase {
  return {
    name: `exa-${name}`,
    assertion: 'web-search.provider-error.visible',
    description: `Exa’s ${name} answer is a visible ${code} group error.`,
    provider,
    ...columns,
    request: { requests: [{ query }] },
    expect: (outcome: Outcome) => {
      check(outcome.groups[0]?.errorCode === code, `error ${outcome.groups[0]?.errorCode}, expected ${code}`);
      check(outcome.groups[0]?.results.length === 0, 'no results');
    },
  };
}

export const exaCases: ParityCase[] = [
  honoured('count', { count: 5 }, { numResults: 5 }),
  honoured('country', { country: 'DE' }, { userLocation: 'DE' }),
  honoured('topic', { topic: 'news' }, { category: 'news' }),
  honoured(
    'freshness',
    { freshness: '2025-01-01..2025-12-31' },
    { startPublishedDate: '2025-01-01T00:00:00.000Z', endPublishedDate: '2025-12-31T23:59:59.999Z' },
  ),
  honoured('include-domains', { include_domains: ['example.com'] }, { includeDomains: ['example.com'] }),
  honoured('exclude-domains', { exclude_domains: ['example.com'] }, { excludeDomains: ['example.com'] }),
  honoured('safesearch', { safesearch: 'strict' }, { moderation: true }),
  honoured(
    'extra-snippets',
    { extra_snippets: true },
    { contents: { text: { maxCharacters: 1000 }, highlights: { maxCharacters: 1500 } } },
  ),
  refused('page', { page: 2 }, 'requests[0].page'),
  refused('search-lang', { search_lang: 'de' }, 'requests[0].search_lang'),
  refused(
    'both-domain-lists',
    { include_domains: ['a.com'], exclude_domains: ['b.com'] },
    'requests[0].exclude_domains',
  ),
  failing('auth', 'auth rust', 'provider_auth'),
  failing('rate-limited', 'limited rust', 'provider_rate_limited'),
  failing('unavailable', 'unavailable rust', 'provider_unavailable'),
  failing('malformed', 'malformed rust', 'provider_error'),
  {
    name: 'exa-canary',
    assertion: 'web-search.secrets.never-exposed',
    description: 'Results and a 500 body that echo Exa’s key leak nothing on any surface.',
    provider,
    ...columns,
    forbidden: [EXA_CANARY_API_KEY, encodeURIComponent(EXA_CANARY_API_KEY)],
    request: { requests: [{ query: 'leak x' }, { query: 'error500 x' }] },
    expect: (outcome: Outcome) => {
      check(outcome.groups[1]?.errorCode === 'provider_error', 'the 500 is provider_error');
    },
  },
  {
    name: 'chain-exa-fails-searxng-answers',
    assertion: 'web-search.provider-error.visible',
    description: 'With Exa first, a group Exa fails (503) goes to SearXNG, which answers it and is named.',
    provider: ['exa', 'searxng'],
    ...columns,
    request: { requests: [{ id: 'a', query: 'unavailable rust', count: 3, filter_tabloids: false }] },
    expect: (outcome: Outcome) => {
      check(outcome.groups[0]?.provider === 'SearXNG', `answered by ${outcome.groups[0]?.provider}`);
      check(outcome.groups[0]?.results.length === 3, 'three results');
    },
  },
  {
    name: 'chain-searxng-fails-exa-answers',
    assertion: 'web-search.provider-error.visible',
    description: 'With Exa second, a group SearXNG fails (JSON off) goes to Exa, which answers it and is named.',
    provider: ['searxng', 'exa'],
    ...columns,
    request: { requests: [{ id: 'a', query: 'noformat rust', count: 3, filter_tabloids: false }] },
    expect: (outcome: Outcome) => {
      check(outcome.groups[0]?.provider === 'Exa', `answered by ${outcome.groups[0]?.provider}`);
      const urls = outcome.groups[0]?.results.map((r) => r.url) ?? [];
      check(urls.length === 3 && urls.every((u) => new URL(u).host === EXA_RESULT_HOST), `Exa's results: ${urls}`);
    },
  },
];
