import { describe, expect, it } from 'vitest';
import { displayUrl } from './display-url.ts';

describe('displayUrl', () => {
  it('reads the host, then the path segments', () => {
    expect(displayUrl('https://developer.mozilla.org/en-US/docs/Web/API/fetch')).toBe(
      'developer.mozilla.org › en-US › docs › Web › API › fetch',
    );
  });

  it('leaves out the query, the fragment, a trailing slash and empty segments, and keeps a port', () => {
    expect(displayUrl('https://example.com:8443//a/b/?q=1#top')).toBe('example.com:8443 › a › b');
    expect(displayUrl('https://example.com/')).toBe('example.com');
  });

  it('decodes path segments where the encoding is valid', () => {
    expect(displayUrl('https://de.wikipedia.org/wiki/K%C3%A4se')).toBe('de.wikipedia.org › wiki › Käse');
    expect(displayUrl('https://example.com/100%25/%E0%A4')).toBe('example.com › 100% › %E0%A4');
  });

  it('returns a URL that does not parse, or has no host, as it is', () => {
    expect(displayUrl('not a url')).toBe('not a url');
    expect(displayUrl('mailto:someone@example.com')).toBe('mailto:someone@example.com');
  });
});
