import { MAX_DESCRIPTION_LENGTH, MAX_PASSTHROUGH_LENGTH, MAX_TITLE_LENGTH } from '@openmates/contract';
import { describe, expect, it } from 'vitest';
import { sanitizeDescription, sanitizePassthrough, sanitizeTitle } from './sanitize-text.ts';

const URL_ = 'https://www.example.com/page';

describe('sanitizeTitle', () => {
  it('turns HTML into plain text', () => {
    expect(sanitizeTitle('<b>Vec&lt;T&gt;</b> in <i>Rust</i>', URL_)).toBe('Vec<T> in Rust');
  });

  it('falls back to the hostname when nothing is left', () => {
    expect(sanitizeTitle('<script>x</script>\u200B \u202E', URL_)).toBe('www.example.com');
    expect(sanitizeTitle('', URL_)).toBe('www.example.com');
  });

  it('falls back to the hostname for a non-string title', () => {
    expect(sanitizeTitle(undefined, URL_)).toBe('www.example.com');
    expect(sanitizeTitle(42, 'http://[::1]:8080/')).toBe('[::1]');
    expect(sanitizeTitle({ toString: () => 'x' }, 'https://xn--bcher-kva.de/')).toBe('xn--bcher-kva.de');
  });

  it('bounds a 10 KB title to MAX_TITLE_LENGTH code points', () => {
    const out = sanitizeTitle('<p>ab😀</p>'.repeat(1000), URL_);
    expect(Array.from(out)).toHaveLength(MAX_TITLE_LENGTH);
    expect(out.endsWith('…')).toBe(true);
  });

  it('refuses a URL that was not admitted', () => {
    expect(() => sanitizeTitle('', 'not a url')).toThrow(TypeError);
  });
});

describe('text format', () => {
  it('keeps names in angle brackets, comparisons and entities as written', () => {
    expect(sanitizeTitle('Vec<T> and <div>', URL_, 'text')).toBe('Vec<T> and <div>');
    expect(sanitizeDescription('a < b > c &amp; <script>x</script>', 'text')).toBe(
      'a < b > c &amp; <script>x</script>',
    );
    expect(sanitizePassthrough('<1 hour', 'text')).toBe('<1 hour');
  });

  it('still removes invisible characters and collapses whitespace', () => {
    expect(sanitizeTitle(' <code>\u200B\u202E\n element ', URL_, 'text')).toBe('<code> element');
    expect(sanitizeTitle('\u200B', URL_, 'text')).toBe('www.example.com');
  });
});

describe('sanitizeDescription', () => {
  it('turns HTML into plain text and may be empty', () => {
    expect(sanitizeDescription('A <strong>fast</strong>&nbsp;guide')).toBe('A fast guide');
    expect(sanitizeDescription('<style>x</style>')).toBe('');
  });

  it('is empty for a non-string', () => {
    expect(sanitizeDescription(null)).toBe('');
    expect(sanitizeDescription(['x'])).toBe('');
  });

  it('bounds to MAX_DESCRIPTION_LENGTH code points', () => {
    expect(Array.from(sanitizeDescription('x'.repeat(5000)))).toHaveLength(MAX_DESCRIPTION_LENGTH);
  });
});

describe('sanitizePassthrough', () => {
  it('keeps a clean string', () => {
    expect(sanitizePassthrough(' 2 days\u00A0ago ')).toBe('2 days ago');
    expect(sanitizePassthrough('<1 hour')).toBe('<1 hour');
  });

  it('is undefined for a non-string or a string with nothing left', () => {
    expect(sanitizePassthrough(7)).toBeUndefined();
    expect(sanitizePassthrough(undefined)).toBeUndefined();
    expect(sanitizePassthrough('\u200B<br>')).toBeUndefined();
  });

  it('bounds to MAX_PASSTHROUGH_LENGTH code points', () => {
    expect(Array.from(sanitizePassthrough('y'.repeat(500)) ?? '')).toHaveLength(MAX_PASSTHROUGH_LENGTH);
  });
});
