import { MAX_NOTE_LENGTH } from '@openmates/contract';
import { describe, expect, it } from 'vitest';
import { buildResults } from './build-results.ts';
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
