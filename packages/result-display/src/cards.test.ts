import type { ResultGroup, WebSearchResult } from '@openmates/contract';
import { describe, expect, it } from 'vitest';
import { aboutCard, excerptsSummary, groupCard, refusalCard, resultCard } from './cards.ts';

const result = (extra: Partial<WebSearchResult> = {}): WebSearchResult => ({
  title: 'Fetch API',
  url: 'https://developer.mozilla.org/en-US/docs/Web/API/fetch',
  description: 'The fetch() method.',
  ...extra,
});

describe('the display rules', () => {
  it('reads a result as its card: link, display URL, the muted line in order, no empty note', () => {
    const card = resultCard(result({ age: '2 days ago', language: 'de', family_friendly: false, note: '' }));
    expect(card.href).toBe('https://developer.mozilla.org/en-US/docs/Web/API/fetch');
    expect(card.displayUrl).toBe('developer.mozilla.org › en-US › docs › Web › API › fetch');
    expect(card.meta).toEqual([
      { field: 'age', text: '2 days ago' },
      { field: 'language', text: 'de' },
      { field: 'family_friendly', text: 'not family friendly' },
    ]);
    expect(card.note).toBeUndefined();
    expect(resultCard(result({ family_friendly: true })).meta).toEqual([]);
    // The page's own language goes unsaid, in any case and region; another page's language is said.
    expect(resultCard(result({ language: 'EN-us' })).meta).toEqual([]);
    expect(resultCard(result({ language: 'en' }), 'de').meta).toEqual([{ field: 'language', text: 'en' }]);
    expect(card.badge.letter).toBe('D');
  });

  it('shows the page excerpts the result carries, and none when it carries none', () => {
    expect(resultCard(result()).extraSnippets).toEqual([]);
    const withSnippets: WebSearchResult = { ...result(), extra_snippets: ['One more line.', 'Another.'] };
    expect(resultCard(withSnippets).extraSnippets).toEqual(['One more line.', 'Another.']);
    expect(excerptsSummary(1)).toBe('1 excerpt from the page');
  });

  it('says why a group is empty, and counts what was cut', () => {
    const group = (extra: Partial<ResultGroup>): ResultGroup => ({ id: 1, results: [], ...extra });
    expect(groupCard(group({})).empty).toBe('No results. The provider answered and found nothing for this query.');
    expect(groupCard(group({ sources_cut: 1 })).empty).toBe('No results left to show.');
    expect(groupCard(group({ sources_cut: 1 })).notices).toEqual([
      { field: 'sources_cut', count: 1, words: 'result was cut: the request’s source budget was spent.' },
    ]);
    const failed = groupCard(group({ error: { code: 'provider_timeout', message: 'Too slow.' } }));
    expect([failed.empty, failed.count, failed.error]).toEqual([
      undefined,
      undefined,
      { code: 'provider_timeout', message: 'Too slow.' },
    ]);
    expect(groupCard(group({ results: [result()] })).count).toBe('1 result');
  });

  it('shows a group’s id only when the person set one', () => {
    expect(groupCard({ id: 1, results: [] }).shownId).toBeUndefined();
    expect(groupCard({ id: 7, results: [] }, { idSet: true }).shownId).toBe('7');
  });

  it('says what was removed to fit, never what the search spent, and a refusal in the GUI’s words', () => {
    const about = aboutCard({
      provider: 'Brave Search',
      results: [],
      budget: {
        calls_used: 1,
        max_sources: 10,
        sources_admitted: 3,
        sources_cut: 2,
        notes_fitted_out: 0,
        suggestions_fitted_out: 1,
        results_fitted_out: 2,
      },
    } as never);
    expect(about).not.toHaveProperty('budget');
    expect(about.fitted).toEqual([
      { field: 'suggestions_fitted_out', count: 1, words: 'suggestion' },
      { field: 'results_fitted_out', count: 2, words: 'results' },
    ]);
    const refusal = refusalCard(
      { code: 'invalid_request', message: 'Bad.', issues: [{ path: '', message: 'x' }] },
      true,
    );
    expect([refusal.heading, refusal.issues]).toEqual([
      'The search request is not valid',
      [{ path: '(request)', message: 'x' }],
    ]);
    expect(refusalCard({ code: 'rate_limited', message: 'Later.', issues: [] }, false).heading).toBe(
      'The search could not run',
    );
  });
});

describe('what a search cost', () => {
  const group = (usage: ResultGroup['usage']): ResultGroup => ({ id: 1, results: [result()], usage });

  it('says under each group whether the cache answered or what its calls cost', () => {
    expect(groupCard(group({ source: 'provider', calls: 1, billed: 1, cost_usd: 0.005 })).usage).toEqual({
      text: '1 provider call · about $0.005.',
      data: '{"source":"provider","calls":1,"billed":1,"cost_usd":0.005}',
    });
    expect(groupCard(group({ source: 'provider', calls: 2, billed: 3 })).usage?.text).toBe(
      '2 provider calls, 3 billed.',
    );
    expect(groupCard(group({ source: 'cache', calls: 0, billed: 0, cost_usd: 0 })).usage?.text).toBe(
      'From the cache: no provider call.',
    );
    expect(groupCard(group({ source: 'shared', calls: 0, billed: 0 })).usage?.text).toBe(
      'Shared an identical search already in flight: no call of its own.',
    );
    expect(groupCard({ id: 1, results: [] }).usage).toBeUndefined();
  });

  it('gives a total for the search', () => {
    const response = { provider: 'Brave Search', results: [] };
    expect(aboutCard({ ...response, usage: { calls: 3, from_cache: 1, shared: 0, cost_usd: 0.015 } }).usage).toBe(
      'This search: 3 provider calls · 1 from the cache · about $0.015.',
    );
    expect(aboutCard({ ...response, usage: { calls: 1, from_cache: 0, shared: 1, cost_usd: 1.5 } }).usage).toBe(
      'This search: 1 provider call · 1 shared · about $1.50.',
    );
    expect(aboutCard(response).usage).toBeUndefined();
  });
});
