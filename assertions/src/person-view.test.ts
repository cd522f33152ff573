import { describe, expect, it } from 'vitest';
import { applies } from './case.ts';
import { CASES } from './cases/index.ts';
import { cliHumanView } from './drivers/cli-human-view.ts';
import { createCoreDriver } from './drivers/core-driver.ts';
import { createWebDriver } from './drivers/web-driver.ts';
import { firstDifference, lineDifference, type PersonLineView, personView } from './person-view.ts';
import { checkPersonView } from './runner.ts';

/** A response with every field a person reads filled in. */
const FULL = {
  results: [
    {
      id: 'a',
      results: [
        {
          title: 'Title',
          url: 'https://example.org/a',
          description: 'About a',
          age: '2 days ago',
          language: 'en',
          family_friendly: false,
          meta_url: {
            scheme: 'https',
            netloc: 'example.org',
            hostname: 'example.org',
            path: '/a',
            favicon: 'https://icons.example:8443/a.ico',
          },
          note: 'Cited for a.',
          extra_snippets: ['One excerpt.', 'Another excerpt.'],
        },
      ],
      sources_cut: 2,
      results_fitted_out: 1,
    },
    { id: 7, results: [], error: { code: 'provider_error', message: 'The provider failed.' } },
  ],
  provider: 'Brave Search',
  suggestions_follow_up_requests: ['b', 'c d'],
  error: 'Query 7 failed.',
  code: 'provider_error',
  request_id: 'per-request',
  budget: {
    calls_used: 2,
    max_sources: 5,
    sources_admitted: 5,
    sources_cut: 2,
    notes_fitted_out: 1,
    suggestions_fitted_out: 0,
    extra_snippets_fitted_out: 3,
    results_fitted_out: 1,
  },
};

const FULL_VIEW = {
  kind: 'response',
  provider: 'Brave Search',
  error: { message: 'Query 7 failed.', code: 'provider_error' },
  suggestions: ['b', 'c d'],
  budget: FULL.budget,
  groups: [
    {
      id: 'a',
      sources_cut: 2,
      results_fitted_out: 1,
      results: [
        {
          title: 'Title',
          url: 'https://example.org/a',
          display_url: 'example.org › a',
          description: 'About a',
          age: '2 days ago',
          language: 'en',
          family_friendly: 'not family friendly',
          note: 'Cited for a.',
          extra_snippets: ['One excerpt.', 'Another excerpt.'],
        },
      ],
    },
    { id: '7', error: { code: 'provider_error', message: 'The provider failed.' }, results: [] },
  ],
};

describe('the person view', () => {
  it('holds every field a person reads, as text, and leaves out the per-request id', () => {
    expect(personView(FULL)).toEqual(FULL_VIEW);
  });

  it('says family friendliness only when it is false, and never the favicon', () => {
    const friendly = structuredClone(FULL);
    const result = friendly.results[0]?.results[0];
    if (result) result.family_friendly = true;
    const view = personView(friendly);
    const shown = view.kind === 'response' ? view.groups[0]?.results[0] : undefined;
    expect(shown).toBeDefined();
    expect(shown).not.toHaveProperty('family_friendly');
    expect(JSON.stringify(view)).not.toContain('icons.example');
  });

  it('as a page shows it: ids the person set, languages not the page’s, what was fitted out, never what was spent', () => {
    const german = structuredClone(FULL);
    const result = german.results[0]?.results[0];
    if (result) result.language = 'de';
    const page = (request: unknown, document: unknown = FULL) => personView(document, { request, language: 'en' });
    const { budget: _spent, ...rest } = FULL_VIEW;
    const fitted = { notes_fitted_out: 1, extra_snippets_fitted_out: 3, results_fitted_out: 1 };
    const withoutLanguage = (view: typeof FULL_VIEW) => {
      const { language: _language, ...shown } = view.groups[0]?.results[0] ?? {};
      return [{ ...view.groups[0], results: [shown] }, view.groups[1]];
    };
    // The first query set its id, the second did not: the API's 7 goes unsaid. English on an English page too.
    expect(page({ requests: [{ id: 'a', query: 'x' }, { query: 'y' }] })).toEqual({
      ...rest,
      fitted,
      groups: [withoutLanguage(FULL_VIEW)[0], { ...FULL_VIEW.groups[1], id: '' }],
    });
    // German on an English page is said; ids set by both queries are both shown.
    const view = page(
      {
        requests: [
          { id: 'a', query: 'x' },
          { id: 7, query: 'y' },
        ],
      },
      german,
    );
    expect(view).toMatchObject({ groups: [{ id: 'a', results: [{ language: 'de' }] }, { id: '7' }] });
    expect(view).not.toHaveProperty('budget');
  });

  it('of an ErrorResponse: the code, the message and each issue in order', () => {
    const body = {
      error: 'Invalid request',
      code: 'invalid_request',
      issues: [
        { path: 'requests[1].count', message: 'too big' },
        { path: '', message: 'body' },
      ],
      request_id: 'x',
    };
    expect(personView(body)).toEqual({
      kind: 'error',
      code: 'invalid_request',
      message: 'Invalid request',
      issues: body.issues,
    });
  });

  it('turns a one-leaf difference into a failure that names the path and both values', () => {
    const shown = structuredClone(FULL_VIEW);
    const result = shown.groups[0]?.results[0];
    if (result) result.display_url = 'elsewhere.example › a';
    expect(checkPersonView(CASES[0] ?? (undefined as never), shown, FULL)).toContain(
      '$.groups[0].results[0].display_url: "elsewhere.example › a" ≠ "example.org › a"',
    );
    expect(checkPersonView(CASES[0] ?? (undefined as never), FULL_VIEW, FULL)).toBeUndefined();
    expect(firstDifference({ a: 1 }, { a: 1, b: undefined })).toBeUndefined();
    expect(firstDifference({ budget: { calls_used: 0 } }, {})).toBe('$.budget: {"calls_used":0} ≠ undefined');
  });
});

describe("the CLI's human output, read back", () => {
  it('gives the person view of the document it shows', () => {
    const stdout = [
      '[a] first query',
      '  1.  Title',
      '      example.org › a',
      '      https://example.org/a',
      '      About a',
      '        › One excerpt.',
      '        › Another excerpt.',
      '      Note from the provider’s model: Cited for a.',
      '      2 days ago · en · not family friendly',
      '  2 results were cut: the request’s source budget was spent.',
      '  1 result was removed to fit the response size.',
      '',
      '[7] second query',
      '  Failed (provider_error): The provider failed.',
      '',
      'Error (provider_error): Query 7 failed.',
      'Related searches:',
      '  - b',
      '  - c d',
      'Spent 2 search calls; 5 of 5 distinct sources admitted.',
      '2 results were cut: the request’s source budget was spent.',
      'Removed to fit the response size: 1 note, 3 excerpts, 1 result.',
      'Results from Brave Search',
      '',
    ].join('\n');
    expect(firstDifference(cliHumanView(stdout), personView(FULL))).toBeUndefined();
  });

  it('reads a refusal as its one stderr line, which shows it when it holds every issue (the body’s by its message alone)', () => {
    const view = cliHumanView('', 'openmates: requests[0].id: taken; body. See `openmates search --help`.\n');
    expect(view).toEqual({
      kind: 'line',
      text: 'openmates: requests[0].id: taken; body. See `openmates search --help`.',
    });
    const refusal = {
      error: 'Bad',
      code: 'invalid_request',
      issues: [
        { path: 'requests[0].id', message: 'taken' },
        { path: '', message: 'body' },
      ],
    };
    expect(lineDifference(view as PersonLineView, refusal)).toBeUndefined();
    expect(
      lineDifference(view as PersonLineView, { ...refusal, issues: [{ path: 'requests[1].id', message: 'taken' }] }),
    ).toMatch(/does not say "requests\[1\]\.id: taken"/);
    expect(
      lineDifference(
        { kind: 'line', text: 'openmates: Not configured.' },
        { error: 'Not configured', code: 'not_configured' },
      ),
    ).toBeUndefined();
    expect(() => cliHumanView('', 'openmates: one\nopenmates: two\n')).toThrow(/one stderr line/);
  });

  it('reads a muted line of one part as an age or a language by its form, and a description as a description', () => {
    const results = (stdout: string) => {
      const view = cliHumanView(stdout);
      return view.kind === 'response' ? view.groups[0]?.results : undefined;
    };
    const head = '[1] q\n  1.  T\n      x.example\n      https://x.example/\n';
    expect(results(`${head}      2 days ago\nResults from P\n`)?.[0]).toEqual({
      title: 'T',
      url: 'https://x.example/',
      display_url: 'x.example',
      description: '',
      age: '2 days ago',
    });
    expect(results(`${head}      Result 1 for q\n      pt-BR\nResults from P\n`)?.[0]).toMatchObject({
      description: 'Result 1 for q',
      language: 'pt-BR',
    });
    expect(results(`${head}      Result 1 for q\nResults from P\n`)?.[0]).toEqual({
      title: 'T',
      url: 'https://x.example/',
      display_url: 'x.example',
      description: 'Result 1 for q',
    });
  });

  it('refuses a line it cannot place rather than guessing', () => {
    expect(() => cliHumanView('[1] q\n  1.  T\n      https://x.example/\nSomething else\n')).toThrow(/out of place/);
  });
});

describe('the web column', () => {
  it('runs every core case but the named list a form cannot express, each with its reason', () => {
    const core = createCoreDriver();
    const web = createWebDriver();
    const coreCases = CASES.filter((c) => applies(c, core));
    const named = CASES.filter((c) => c.formCannotExpress !== undefined);
    for (const c of named) {
      expect(applies(c, core), `${c.name} is a core case`).toBe(true);
      expect(c.formCannotExpress).toMatch(
        /^(batch size|batch shape|JSON type|unknown field|transport|provider option): /,
      );
    }
    // A provider's cases name the columns they run on (its ADR says why the GUI's are not among them).
    const notOnWeb = coreCases.filter((c) => c.formCannotExpress === undefined && !applies(c, web));
    for (const c of notOnWeb) expect(c.surfaces, `${c.name} names its columns`).toBeDefined();
    expect(CASES.filter((c) => applies(c, web))).toHaveLength(coreCases.length - named.length - notOnWeb.length);
  });
});
