import { OPENAI_CANARY_API_KEY } from '@openmates/fixtures';
import type { ParityCase } from '../case.ts';
import type { Outcome } from '../outcome.ts';
import { check } from './check.ts';

const provider = 'openai' as const;

/** Cases against the OpenAI Responses fixture (hosted web_search, streamed). */
export const openaiCases: ParityCase[] = [
  {
    name: 'openai-receipted-results',
    assertion: 'web-search.results.bounded',
    description: 'A completed search with a receipt yields citations first, then sources, cut to count.',
    provider,
    request: { requests: [{ query: 'latest bun version', count: 2 }] },
    expect: (outcome: Outcome) => {
      const urls = outcome.groups[0]?.results.map((r) => r.url) ?? [];
      check(urls.length === 2, `2 results, got ${urls.length}`);
      check(urls[0]?.startsWith('https://www.example.com/articles/') ?? false, `citation first: ${urls}`);
    },
  },
  {
    name: 'openai-no-receipt',
    assertion: 'web-search.provider-error.visible',
    description: 'An answer without a completed web_search_call fails closed: never zero hits.',
    provider,
    request: { requests: [{ query: 'nosearch question' }, { id: 'i', query: 'incomplete question' }] },
    expect: {
      code: 'provider_error',
      groups: [
        { id: 1, errorCode: 'provider_error', results: [] },
        { id: 'i', errorCode: 'provider_error', results: [] },
      ],
    },
  },
  {
    name: 'openai-empty',
    assertion: 'web-search.no-results.explicit',
    description: 'A completed search with no sources is zero hits, a success.',
    provider,
    request: { requests: [{ query: 'empty question' }] },
    expect: { groups: [{ id: 1, results: [] }] },
  },
  {
    name: 'openai-strict-refused',
    assertion: 'web-search.request.validated',
    description: 'OpenAI’s hosted search cannot honour strict safesearch: refused before any call, naming the option.',
    provider,
    request: { requests: [{ query: 'anything', safesearch: 'strict' }] },
    formCannotExpress:
      'provider option: the GUI disables the safe search control on a provider without one (skill info lists safesearch as unsupported).',
    expect: { code: 'invalid_request', issuePaths: ['requests[0].safesearch'], groups: [] },
  },
  {
    name: 'openai-canary',
    assertion: 'web-search.secrets.never-exposed',
    description: 'Upstream failures that echo the key (500 body, response.failed, error event) leak nothing.',
    provider,
    forbidden: [OPENAI_CANARY_API_KEY],
    request: {
      requests: [{ query: 'error500 x' }, { query: 'failed x' }, { query: 'errorevent x' }, { query: 'error401 x' }],
    },
    expect: (outcome: Outcome) => {
      check(
        outcome.groups.every((g) => g.errorCode !== undefined && g.results.length === 0),
        'every group failed',
      );
      check(outcome.groups[3]?.errorCode === 'provider_auth', '401 is provider_auth');
    },
  },
  {
    name: 'openai-fitting-order',
    assertion: 'web-search.results.bounded',
    description:
      'A response over the size ceiling loses the generated notes first, then the suggestions, then results from the end of the last groups.',
    provider,
    env: { OPENMATES_MAX_RESPONSE_BYTES: '32768' },
    request: { requests: ['a', 'b', 'c', 'd', 'e'].map((x) => ({ query: `verbose ${x}`, count: 20 })) },
    expect: (outcome: Outcome) => {
      const lengths = outcome.groups.map((g) => g.results.length);
      const firstCut = lengths.findIndex((n) => n < 20);
      check(outcome.code === undefined && firstCut > 0, `the first groups whole, then a cut: ${lengths}`);
      check(
        lengths.slice(firstCut + 1).every((n) => n === 0),
        `results leave from the end of the last groups: ${lengths}`,
      );
    },
  },
];
