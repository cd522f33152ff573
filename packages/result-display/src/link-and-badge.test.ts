import { describe, expect, it } from 'vitest';
import { badgeClass, badgeLetter, hrefOf } from './link-and-badge.ts';

describe('result display', () => {
  it('links only http(s) URLs', () => {
    expect(hrefOf('https://example.org/a')).toBe('https://example.org/a');
    expect(hrefOf('HTTP://example.org')).toBe('HTTP://example.org');
    expect(hrefOf('javascript:alert(1)')).toBeUndefined();
    expect(hrefOf(' javascript:alert(1)')).toBeUndefined();
    expect(hrefOf('data:text/html,x')).toBeUndefined();
  });

  it('shows the first letter of the hostname in place of a favicon', () => {
    expect(badgeLetter('www.example.org', '')).toBe('E');
    expect(badgeLetter('', 'https://über.example/x')).toBe('X');
    expect(badgeLetter('9gag.com', '')).toBe('9');
    expect(badgeLetter('', 'not a url')).toBe('?');
  });

  it('picks one of eight colour classes, stable per hostname', () => {
    expect(badgeClass('example.org')).toBe(badgeClass('example.org'));
    expect(badgeClass('example.org')).toMatch(/^c[0-7]$/);
  });
});
