import type { WebSearchResponse } from '@openmates/contract';
import { describe, expect, it } from 'vitest';
import { renderHuman } from '../src/search/render-human.ts';

const response: WebSearchResponse = {
  provider: 'Brave Search',
  results: [
    {
      id: 1,
      results: [
        {
          title: 'Fetch API',
          url: 'https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API?x=1#top',
          description: 'The Fetch API provides an interface for fetching resources.',
          age: '2 days ago',
          language: 'en',
          family_friendly: false,
          meta_url: { hostname: 'developer.mozilla.org', favicon: 'https://imgs.search.brave.com/abc' },
        },
        { title: 'Plain', url: 'https://example.org/', description: '', family_friendly: true },
      ],
    },
  ],
} as WebSearchResponse;

describe('renderHuman: results as a search engine shows them', () => {
  it('without colour: the title, the display URL, the full URL, the description and one muted line', () => {
    const text = renderHuman(response, { width: 200, color: false, queries: ['fetch'] });
    expect(text).toContain(
      [
        '[1] fetch',
        '  1.  Fetch API',
        '      developer.mozilla.org › en-US › docs › Web › API › Fetch_API',
        '      https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API?x=1#top',
        '      The Fetch API provides an interface for fetching resources.',
        '      2 days ago · en · not family friendly',
        '',
        '  2.  Plain',
        '      example.org',
        '      https://example.org/',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain('imgs.search.brave.com');
    expect(text).not.toMatch(/family friendly: |Favicon|Age:|Language:/i);
  });

  it('with colour: the title and display URL link to the result, and the URL is not repeated as text', () => {
    const text = renderHuman(response, { width: 200, color: true, queries: ['fetch'] });
    const link = '\u001B]8;;https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API?x=1#top\u0007';
    expect(text).toContain(`${link}Fetch API\u001B]8;;\u0007`);
    expect(text).toContain(`${link}developer.mozilla.org › en-US › docs › Web › API › Fetch_API\u001B]8;;\u0007`);
    expect(text.split(link)).toHaveLength(3);
    expect(text).not.toContain('      https://');
  });

  it('indents page excerpts under the description, each on its own, wrapped under itself, and counts fitted ones', () => {
    const withExcerpts = structuredClone(response);
    const first = withExcerpts.results[0]?.results[0];
    if (first) first.extra_snippets = ['One excerpt of the page.', `A longer excerpt ${'word '.repeat(12).trim()}.`];
    if (withExcerpts.budget === undefined)
      withExcerpts.budget = {
        calls_used: 1,
        max_sources: 100,
        sources_admitted: 2,
        sources_cut: 0,
        notes_fitted_out: 0,
        suggestions_fitted_out: 0,
        extra_snippets_fitted_out: 4,
        results_fitted_out: 0,
      };
    const text = renderHuman(withExcerpts, { width: 50, color: false, queries: ['fetch'] });
    expect(text).toContain(
      [
        '      The Fetch API provides an interface for',
        '      fetching resources.',
        '        › One excerpt of the page.',
        '        › A longer excerpt word word word word',
        '          word word word word word word word word.',
        '      2 days ago · en · not family friendly',
      ].join('\n'),
    );
    expect(text).toContain('Removed to fit the response size: 4 excerpts.');
  });
});

describe('renderHuman: what the search cost', () => {
  it('prints one dim line of calls, cache and shared answers, and the estimate', () => {
    const costly: WebSearchResponse = {
      ...response,
      usage: { calls: 1, from_cache: 1, shared: 1, cost_usd: 0.005 },
    };
    const text = renderHuman(costly, { width: 200, color: false, queries: ['fetch'] });
    expect(text.split('\n')).toContain('Usage: 1 provider call · 1 from the cache · 1 shared · about $0.005.');
    const cached: WebSearchResponse = { ...response, usage: { calls: 0, from_cache: 1, shared: 0 } };
    expect(renderHuman(cached, { width: 200, color: false, queries: ['fetch'] })).toContain(
      'Usage: 0 provider calls · 1 from the cache.',
    );
    expect(renderHuman(response, { width: 200, color: false, queries: ['fetch'] })).not.toContain('Usage:');
  });
});
