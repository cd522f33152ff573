import type { ParityCase } from '../case.ts';
import { LOCAL_CANARY, NAMED_DOCUMENTS } from '../local-corpus.ts';
import type { Outcome } from '../outcome.ts';
import { check } from './check.ts';

const provider = 'local' as const;

/** Cases against the local index seeded with hostile documents (assertions/src/local-corpus.ts). */
export const localCases: ParityCase[] = [
  {
    name: 'local-sanitized',
    assertion: 'web-search.response.sanitized',
    description:
      'The local index holds plain text: markup-like text comes out as written (never parsed), without its invisible characters.',
    provider,
    request: { requests: [{ query: 'abort fetch', count: 5 }] },
    expect: {
      groups: [
        {
          id: 1,
          results: [
            {
              url: 'https://docs.example.com/abort',
              title: 'AbortController <b>guide</b><script>alert(1)</script>',
              description: 'How to <i>abort</i> a fetch &amp; clean up',
            },
          ],
        },
      ],
    },
  },
  {
    name: 'local-names-kept',
    assertion: 'web-search.response.sanitized',
    description:
      'Element and type names stored as text (<div>, <code>, <dialog>, <input>, <color>) stay in titles and descriptions.',
    provider,
    request: {
      requests: [
        { query: 'div element' },
        { query: 'code element' },
        { query: 'dialog element' },
        { query: 'input type date' },
        { query: 'color value type' },
      ],
    },
    expect: {
      groups: NAMED_DOCUMENTS.map((doc, i) => ({
        id: i + 1,
        results: [{ url: doc.url, title: doc.title, description: doc.description ?? '' }],
      })),
    },
  },
  {
    name: 'local-bounded',
    assertion: 'web-search.results.bounded',
    description: 'Twelve matching documents are cut to count.',
    provider,
    request: { requests: [{ query: 'widget catalogue', count: 4 }] },
    expect: (outcome: Outcome) => {
      const urls = outcome.groups[0]?.results.map((r) => r.url) ?? [];
      check(urls.length === 4, `4 results, got ${urls.length}`);
      check(
        urls.every((u) => u.startsWith('https://widgets.example.com/')),
        `unexpected ${urls}`,
      );
    },
  },
  {
    name: 'local-strict-and-language',
    assertion: 'web-search.results.bounded',
    description: 'strict safesearch drops documents not marked family friendly; search_lang keeps one language.',
    provider,
    request: {
      requests: [
        { id: 'strict', query: 'sprocket', safesearch: 'strict', count: 20 },
        { id: 'de', query: 'sprocket', search_lang: 'de' },
      ],
    },
    expect: (outcome: Outcome) => {
      const strict = outcome.groups[0]?.results.map((r) => r.url) ?? [];
      check(strict.length > 0 && !strict.includes('https://adults.example.com/page'), `strict: ${strict}`);
      const de = outcome.groups[1]?.results.map((r) => r.url) ?? [];
      check(de.join() === 'https://de.example.com/seite', `de: ${de}`);
    },
  },
  {
    name: 'local-no-results',
    assertion: 'web-search.no-results.explicit',
    description: 'A query matching nothing, or only FTS syntax, is a finished empty group.',
    provider,
    request: { requests: [{ query: 'zyzzogeton quixotic' }, { query: '"foo" OR bar* NEAR(' }, { query: '*** ( ) ^' }] },
    expect: (outcome: Outcome) => {
      check(outcome.code === undefined, 'no error');
      check(outcome.groups[0]?.results.length === 0 && outcome.groups[2]?.results.length === 0, 'empty groups');
      check(
        outcome.groups.every((g) => g.errorCode === undefined),
        'no group error',
      );
    },
  },
  {
    name: 'local-validated',
    assertion: 'web-search.request.validated',
    description: 'The local provider gets the same contract validation as any other.',
    provider,
    request: { requests: [{ query: 'widget', count: 0, safesearch: 3 }] },
    formCannotExpress: 'JSON type: the number 3 as safesearch; the form sends safe search as text.',
    expect: { code: 'invalid_request', issuePaths: ['requests[0].count', 'requests[0].safesearch'], groups: [] },
  },
  {
    name: 'local-secret-redacted',
    assertion: 'web-search.secrets.never-exposed',
    description:
      'A configured key (present but not selected) is redacted even from local documents, and bad URLs are dropped.',
    provider,
    env: { BRAVE_SEARCH_API_KEY: LOCAL_CANARY },
    forbidden: [LOCAL_CANARY],
    request: { requests: [{ query: 'token', count: 10 }] },
    expect: {
      groups: [
        {
          id: 1,
          results: [
            {
              url: 'https://docs.example.com/leak',
              title: 'Token handling notes',
              description: 'Token [redacted] leaked here',
            },
          ],
        },
      ],
    },
  },
  {
    name: 'local-every-field',
    assertion: 'web-search.results.bounded',
    description:
      'With safesearch off, a page not marked family friendly is returned and says so; a plain-http page on a port keeps its scheme and port in meta_url.',
    provider: 'local',
    request: {
      requests: [
        { id: 'off', query: 'sprocket nightlife', safesearch: 'off', count: 1 },
        { id: 'http', query: 'gopherine' },
      ],
    },
    expect: {
      groups: [
        {
          id: 'off',
          results: [
            {
              url: 'https://adults.example.com/page',
              title: 'Sprocket nightlife',
              description: 'A sprocket page not marked family friendly.',
            },
          ],
        },
        {
          id: 'http',
          results: [
            {
              url: 'http://legacy.example.net:8080/gopherine',
              title: 'Gopherine archive',
              description: 'An old gopherine page served over plain http.',
            },
          ],
        },
      ],
    },
  },
  {
    name: 'local-index-unreadable',
    assertion: 'web-search.provider-error.visible',
    description:
      'An index that cannot be opened is a visible 503 not_configured pointing at doctor (never the server’s file path), never zero hits.',
    provider: 'local',
    env: { OPENMATES_INDEX: '/dev/null/openmates/index.db' },
    request: { requests: [{ query: 'anything' }] },
    expect: { code: 'not_configured', groups: [] },
  },
];
