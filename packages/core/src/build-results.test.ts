import { MAX_EXTRA_SNIPPET_LENGTH, MAX_EXTRA_SNIPPETS, MAX_NOTE_LENGTH, MAX_TITLE_LENGTH } from '@openmates/contract';
import { EXCERPT_FIXTURE_CLEANED, excerptResults } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import { buildResults, mergeSuggestions } from './build-results.ts';
import { createRedactor } from './hygiene/index.ts';
import type { RawCandidate } from './provider.ts';

const SECRET = 'fixture-secret-value-0123456789';
const redact = createRedactor([SECRET]);

describe('buildResults notes', () => {
  it('passes a generated note through as bounded, redacted plain text, apart from the description', () => {
    const { results } = buildResults(
      [
        {
          format: 'html',
          url: 'https://example.org/a',
          title: 'A',
          description: 'From the page.',
          note: `<b>Cited</b> by the model &amp; ${SECRET} ${'x'.repeat(2 * MAX_NOTE_LENGTH)}`,
        },
        { format: 'html', url: 'https://example.org/b', title: 'B', note: '<script>x()</script>' },
        { format: 'html', url: 'https://example.org/c', title: 'C', note: 42 },
      ],
      { filterTabloids: false, redact },
    );
    const [a, b, c] = results;
    expect(a?.description).toBe('From the page.');
    expect(a?.note).toMatch(/^Cited by the model & \S+ x+…?$/u);
    expect(a?.note).not.toContain(SECRET);
    expect([...(a?.note ?? '')].length).toBeLessThanOrEqual(MAX_NOTE_LENGTH);
    expect(b && 'note' in b).toBe(false);
    expect(c && 'note' in c).toBe(false);
  });
});

describe('buildResults page excerpts', () => {
  // A candidate's excerpts as a provider states them; RawCandidate does not declare the field yet.
  const withSnippets = (extra_snippets: unknown, format: 'html' | 'text' = 'html'): RawCandidate =>
    ({
      format,
      url: 'https://example.org/a',
      title: 'A',
      description: 'The <b>description</b>.',
      extra_snippets,
    }) as RawCandidate;

  it('cleans excerpts as descriptions are: markup, scripts, invisible and bidi characters go', () => {
    const raw = [
      'One <strong>bold</strong> &amp; more<script>alert(1)</script>',
      'Zero\u200Bwidth and \u202Ebidi\u202C text',
      '   ',
      '<p></p>',
      'the DESCRIPTION.',
      'Two',
      'two',
      42,
      `${SECRET} leaked`,
    ];
    const [result] = buildResults([withSnippets(raw)], { filterTabloids: false, redact, extraSnippets: true }).results;
    expect(result?.description).toBe('The description.');
    expect(result?.extra_snippets).toEqual(['One bold & more', 'Zerowidth and bidi text', 'Two', expect.any(String)]);
    expect(result?.extra_snippets?.[3]).not.toContain(SECRET);
    expect(result?.extra_snippets?.[3]).toMatch(/leaked$/);
  });

  it('turns the Brave fixture’s hostile excerpts into the five clean ones it names', () => {
    const [first] = excerptResults('excerpts markup', 1, 0, true);
    const [result] = buildResults([{ format: 'html', ...first }], {
      filterTabloids: false,
      redact,
      extraSnippets: true,
    }).results;
    expect(result?.extra_snippets).toEqual([...EXCERPT_FIXTURE_CLEANED]);
  });

  it('keeps at most five, each at most 300 code points, and a text format as written', () => {
    const long = Array.from({ length: 8 }, (_, i) => `${i} <div> ${'é'.repeat(2 * MAX_EXTRA_SNIPPET_LENGTH)}`);
    const [result] = buildResults([withSnippets(long, 'text')], {
      filterTabloids: false,
      redact,
      extraSnippets: true,
    }).results;
    expect(result?.extra_snippets).toHaveLength(MAX_EXTRA_SNIPPETS);
    for (const [i, text] of (result?.extra_snippets ?? []).entries()) {
      expect(text.startsWith(`${i} <div> é`)).toBe(true);
      expect([...text].length).toBeLessThanOrEqual(MAX_EXTRA_SNIPPET_LENGTH);
    }
  });

  it('omits the field when nothing is left, when it is no list, and when the item did not ask', () => {
    const build = (raw: unknown, extraSnippets?: boolean) =>
      buildResults([withSnippets(raw)], { filterTabloids: false, redact, ...(extraSnippets ? { extraSnippets } : {}) })
        .results[0];
    for (const raw of [[], ['', ' \u200B '], ['<script>x()</script>'], 'one string', { 0: 'x' }, undefined])
      expect(build(raw, true)).not.toHaveProperty('extra_snippets');
    expect(build(['Kept'], true)?.extra_snippets).toEqual(['Kept']);
    expect(build(['Kept'])).not.toHaveProperty('extra_snippets');
  });
});

describe('buildResults admission', () => {
  const candidate = (url: string, title = url): RawCandidate => ({ url, title, description: '', format: 'text' });

  it('keeps the first of each exact normalized URL, in order, counting the repeats', () => {
    const raw = [
      'https://example.com/a',
      'HTTPS://EXAMPLE.COM:443/a',
      'https://example.com/b/../a',
      'https://example.com/a?',
      'https://example.com/a#x',
      'https://bücher.de/',
      'https://xn--bcher-kva.de/',
      'https://example.com/A',
    ];
    const { results, stats } = buildResults(
      raw.map((url, i) => candidate(url, `t${i}`)),
      { filterTabloids: false, redact },
    );
    expect(results.map((r) => [r.url, r.title])).toEqual([
      ['https://example.com/a', 't0'],
      ['https://example.com/a?', 't3'],
      ['https://example.com/a#x', 't4'],
      ['https://xn--bcher-kva.de/', 't5'],
      ['https://example.com/A', 't7'],
    ]);
    expect(stats).toMatchObject({ candidates: 8, duplicate: 3, badUrl: 0 });
  });

  it('stops once the limit is admitted: later candidates are neither built nor counted', () => {
    const candidates = [
      candidate('javascript:alert(1)'),
      candidate('https://www.dailymail.co.uk/a'),
      candidate('https://example.com/1'),
      candidate('https://example.com/1'),
      candidate('https://example.com/2'),
      candidate('ftp://example.com/late'),
      candidate('https://example.com/3'),
    ];
    const { results, stats } = buildResults(candidates, { filterTabloids: true, redact, limit: 2 });
    expect(results.map((r) => r.url)).toEqual(['https://example.com/1', 'https://example.com/2']);
    expect(stats).toEqual({
      candidates: 7,
      badUrl: 1,
      tabloid: 1,
      duplicate: 1,
      removed_out_of_scope: 0,
      removed_out_of_range: 0,
    });
  });
});

describe('mergeSuggestions joiners (ADR 0004)', () => {
  it('keeps joiners where they join and removes them elsewhere, as for queries', () => {
    const suggestions = ['👩\u200D💻 jobs', 'می\u200Cخواهم', 'fo\u200Do', 'ब\u200Dk'];
    expect(mergeSuggestions([{ query: 'x', suggestions }], (text) => text)).toEqual([
      '👩\u200D💻 jobs',
      'می\u200Cخواهم',
      'foo',
      'बk',
    ]);
  });
});

describe('buildResults text formats', () => {
  const build = (candidate: RawCandidate) =>
    buildResults([candidate], { filterTabloids: false, redact }).results[0] ?? expect.unreachable('no result');

  it('parses an html field: scripts, event-handler images and tags go, entities are decoded once', () => {
    const result = build({
      format: 'html',
      url: 'https://example.org/h',
      title: '<script>alert(1)</script><img src=x onerror=alert(1)><b>Vec&lt;T&gt;</b> guide',
      description: 'a <i>&amp;lt;</i> b<script>document.cookie</script>',
      note: '<strong>Cited</strong>',
    });
    expect(result.title).toBe('Vec<T> guide');
    expect(result.description).toBe('a &lt; b');
    expect(result.note).toBe('Cited');
  });

  it('keeps a text field as written: names in angle brackets, comparisons and entities stay', () => {
    const result = build({
      format: 'text',
      url: 'https://example.org/t',
      title: '<div> HTML element: Vec<T>',
      description: 'a < b > c, and &amp; is not decoded\u200B\u202E',
      note: 'Use <dialog> for Vec<T>',
      age: '<1 hour',
    });
    expect(result.title).toBe('<div> HTML element: Vec<T>');
    expect(result.description).toBe('a < b > c, and &amp; is not decoded');
    expect(result.note).toBe('Use <dialog> for Vec<T>');
    expect(result.age).toBe('<1 hour');
  });

  it('cleans and bounds a text field like an html one', () => {
    const result = build({
      format: 'text',
      url: 'https://example.org/b',
      title: `  <code>\u00A0 e\u0301${'x'.repeat(400)}`,
      description: `${SECRET} <x>`,
    });
    expect(result.title.startsWith('<code> \u00E9x')).toBe(true);
    expect([...result.title].length).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
    expect(result.description).toBe('[redacted] <x>');
  });

  it('falls back to the hostname for a text title that cleans to nothing', () => {
    expect(build({ format: 'text', url: 'https://example.org/e', title: '\u200B \u202E' }).title).toBe('example.org');
  });

  it('parses a candidate whose format is not a declared one as html', () => {
    const result = build({ format: 'markdown' as never, url: 'https://example.org/u', title: '<b>x</b>' });
    expect(result.title).toBe('x');
  });
});
