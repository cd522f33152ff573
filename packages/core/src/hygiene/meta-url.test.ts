import { MetaUrlSchema } from '@openmates/contract';
import { describe, expect, it } from 'vitest';
import { metaUrl } from './meta-url.ts';

describe('metaUrl', () => {
  it('derives the parts from the normalized URL', () => {
    const meta = metaUrl('https://www.example.com/docs/a%20b?q=1#f');
    expect(meta).toEqual({
      scheme: 'https',
      netloc: 'www.example.com',
      hostname: 'www.example.com',
      path: '/docs/a%20b',
    });
    expect(MetaUrlSchema.parse(meta)).toEqual(meta);
  });

  it('keeps a non-default port in netloc only', () => {
    expect(metaUrl('http://example.com:8080/')).toEqual({
      scheme: 'http',
      netloc: 'example.com:8080',
      hostname: 'example.com',
      path: '/',
    });
  });

  it('keeps an https favicon, normalized', () => {
    expect(metaUrl('https://example.com/', 'HTTPS://Example.com:443/favicon.ico').favicon).toBe(
      'https://example.com/favicon.ico',
    );
  });

  it.each([
    ['http', 'http://example.com/favicon.ico'],
    ['data:', 'data:image/png;base64,AAAA'],
    ['javascript:', 'javascript:alert(1)'],
    ['relative', '/favicon.ico'],
    ['with credentials', 'https://u:p@example.com/favicon.ico'],
    ['not a string', 42],
  ])('leaves out a favicon that is %s', (_name, favicon) => {
    expect(metaUrl('https://example.com/', favicon)).not.toHaveProperty('favicon');
  });

  it('refuses a URL that was not admitted', () => {
    expect(() => metaUrl('javascript:alert(1)')).toThrow(TypeError);
    expect(() => metaUrl('/relative')).toThrow(TypeError);
  });
});
