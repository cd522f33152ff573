import { describe, expect, it } from 'vitest';
import { queryUrls } from './http-client.ts';

describe('queryUrls', () => {
  it('puts the query on the endpoint in place of any query or fragment it had', () => {
    const at = queryUrls(new URL('https://search.example/base/search?old=1#part'));
    expect(at(new URLSearchParams({ q: 'a b&c', count: '20' })).href).toBe(
      'https://search.example/base/search?q=a+b%26c&count=20',
    );
    expect(at(new URLSearchParams()).href).toBe('https://search.example/base/search');
  });
});
