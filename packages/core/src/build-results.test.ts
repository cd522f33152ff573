import { MAX_NOTE_LENGTH } from '@openmates/contract';
import { describe, expect, it } from 'vitest';
import { buildResults, mergeSuggestions } from './build-results.ts';
import { createRedactor } from './hygiene/index.ts';

const SECRET = 'fixture-secret-value-0123456789';
const redact = createRedactor([SECRET]);

describe('buildResults notes', () => {
  it('passes a generated note through as bounded, redacted plain text, apart from the description', () => {
    const { results } = buildResults(
      [
        {
          url: 'https://example.org/a',
          title: 'A',
          description: 'From the page.',
          note: `<b>Cited</b> by the model &amp; ${SECRET} ${'x'.repeat(2 * MAX_NOTE_LENGTH)}`,
        },
        { url: 'https://example.org/b', title: 'B', note: '<script>x()</script>' },
        { url: 'https://example.org/c', title: 'C', note: 42 },
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

describe('mergeSuggestions joiners (SPEC §8.6)', () => {
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
