import { MAX_URL_LENGTH, MetaUrlSchema } from '@openmates/contract';
import { loadRecordings, startRecordingServer } from '@openmates/fixtures';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createEngine } from '../engine.ts';
import { createLogger } from '../logger.ts';
import { createConfiguredProvider } from '../providers/registry.ts';
import { metaUrl, metaUrlOf } from './meta-url.ts';

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

describe('metaUrlOf with the provider’s own parts', () => {
  const of = (url: string, own: unknown, format: 'html' | 'text' = 'html') =>
    metaUrlOf(new URL(url), undefined, own, format);

  it('keeps a netloc naming the host or the host without www., a breadcrumb path as clean text', () => {
    expect(
      of('https://www.reddit.com/r/x/comments/1/', { netloc: 'Reddit.com', path: '  › r/x  › <b>a</b> &amp; b' }),
    ).toEqual({
      scheme: 'https',
      netloc: 'reddit.com',
      hostname: 'www.reddit.com',
      path: '› r/x › a & b',
    });
    expect(of('https://docs.github.com/a', { netloc: 'docs.github.com', path: '› a' }).netloc).toBe('docs.github.com');
  });

  it('derives what is absent or not clean: another host, a parent domain, a blank path, a non-string', () => {
    const derived = { scheme: 'https', netloc: 'www.example.com', hostname: 'www.example.com', path: '/a' };
    for (const own of [
      { netloc: 'evil.example', path: '' },
      { netloc: 'example.com.evil', path: '<br>' },
      { netloc: 'com', path: 42 },
      { netloc: 7, hostname: 'evil.example', scheme: 'http', path: '  ' },
      'not an object',
      undefined,
    ])
      expect(of('https://www.example.com/a', own), JSON.stringify(own)).toEqual(derived);
    // A subdomain other than www. is not shortened to its parent.
    expect(of('https://en.wikipedia.org/wiki/A', { netloc: 'wikipedia.org' }).netloc).toBe('en.wikipedia.org');
  });

  it('bounds and cleans the path as text in the candidate’s format', () => {
    expect(of('https://example.com/a', { path: '› <b>a</b>' }, 'text').path).toBe('› <b>a</b>');
    expect(Array.from(of('https://example.com/a', { path: '›'.repeat(5000) }).path)).toHaveLength(MAX_URL_LENGTH);
  });
});

describe('Brave’s own meta_url on a recorded answer', () => {
  it('keeps Brave’s display host and breadcrumb, derives the rest from the URL', async () => {
    const [recording] = loadRecordings({ provider: 'brave', kind: 'web' }).filter(
      (r) => r.id === 'brave-search-python-client-web',
    );
    if (recording === undefined) throw new Error('the recording is missing from the corpus');
    const server = await startRecordingServer([recording]);
    try {
      const config = loadConfig({
        OPENMATES_PROVIDER: 'brave',
        BRAVE_SEARCH_API_KEY: 'recorded-answers-test-key',
        BRAVE_SEARCH_BASE_URL: `${server.baseUrl}/res/v1`,
        OPENMATES_CACHE_TTL_S: '0',
      });
      const logger = createLogger({ level: 'silent', redact: (text) => text });
      const engine = createEngine({ config, provider: createConfiguredProvider(config), logger });
      const { response } = await engine.search({ requests: [{ query: 'hello world', count: 20 }] });
      const results = response.results[0]?.results ?? [];
      expect(results).toHaveLength(20);
      const at = (host: string) => results.find((r) => new URL(r.url).hostname === host)?.meta_url;
      expect(at('www.reddit.com')).toEqual({
        scheme: 'https',
        netloc: 'reddit.com',
        hostname: 'www.reddit.com',
        path: '› r/learnpython › why do all programming languages start with "hello world"?',
        favicon: expect.stringMatching(/^https:\/\/imgs\.search\.brave\.com\//),
      });
      // Brave's breadcrumb is empty for a site's root: the URL's path is shown.
      expect(at('www.helloworldcs.org')).toMatchObject({ netloc: 'helloworldcs.org', path: '/' });
      for (const result of results) expect(MetaUrlSchema.parse(result.meta_url)).toEqual(result.meta_url);
    } finally {
      await server.close();
    }
  });
});
