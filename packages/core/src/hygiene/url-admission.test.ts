import { MAX_URL_LENGTH } from '@openmates/contract';
import { describe, expect, it } from 'vitest';
import { admitUrl } from './url-admission.ts';

describe('admitUrl', () => {
  it.each([
    ['a plain https URL', 'https://example.com/a?b=c#d', 'https://example.com/a?b=c#d'],
    ['an http URL gains its root path', 'http://example.com', 'http://example.com/'],
    [
      'a mixed-case scheme and host are lowercased, the path is not',
      'HtTpS://ExAmPle.COM/Path',
      'https://example.com/Path',
    ],
    ['the default http port is dropped', 'http://example.com:80/x', 'http://example.com/x'],
    ['the default https port is dropped', 'https://example.com:443/x', 'https://example.com/x'],
    ['a non-default port is kept', 'https://example.com:8443/x', 'https://example.com:8443/x'],
    ['dot segments are resolved', 'https://example.com/a/./b/../c/%2e%2E/d', 'https://example.com/a/d'],
    ['an IDN host becomes punycode', 'https://bücher.de/straße', 'https://xn--bcher-kva.de/stra%C3%9Fe'],
    ['a full-width host is mapped', 'https://ｅｘａｍｐｌｅ.com/', 'https://example.com/'],
    ['a percent-encoded host is decoded', 'http://%65xample.com/', 'http://example.com/'],
    ['spaces in the path are encoded', 'https://example.com/a b', 'https://example.com/a%20b'],
    ['surrounding whitespace is ignored', '  https://example.com/x \n', 'https://example.com/x'],
    ['an empty userinfo is dropped', 'https://@example.com/', 'https://example.com/'],
    // Tracking parameters go (ADR 0101); the others stay as written, in their order.
    ['a utm_ parameter is dropped', 'https://example.com/?utm_source=x&b=1', 'https://example.com/?b=1'],
    [
      'OpenAI’s utm_source=openai is dropped with the ?',
      'https://www.britannica.com/place/Mount-Columbia?utm_source=openai',
      'https://www.britannica.com/place/Mount-Columbia',
    ],
    [
      'click ids and campaign tags go in any case, other parameters keep order and spelling',
      'https://example.com/p?z=2&UTM_Medium=m&q=a+b%20c&gclid=1&fbclid=2&flag&msclkid=3&mc_cid=4&mc_eid=5&a=1#utm_x',
      'https://example.com/p?z=2&q=a+b%20c&flag&a=1#utm_x',
    ],
    [
      'a look-alike name is kept',
      'https://example.com/?utmsource=x&gclid_x=1',
      'https://example.com/?utmsource=x&gclid_x=1',
    ],
    ['an IPv4 host', 'http://192.168.0.1:8080/', 'http://192.168.0.1:8080/'],
    ['an IPv6 host', 'http://[0:0:0:0:0:0:0:1]/', 'http://[::1]/'],
    ['extra slashes after the scheme', 'https:///example.com/x', 'https://example.com/x'],
  ])('admits %s', (_name, raw, expected) => {
    expect(admitUrl(raw)).toBe(expected);
  });

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: in mixed case', 'JaVaScRiPt:alert(1)'],
    ['javascript: hidden by a tab', 'java\tscript:alert(1)'],
    ['an http URL with a newline inside', 'https://exa\nmple.com/'],
    ['a soft hyphen the host parser would delete', 'https://exam\u00ADple.com/'],
    ['a bidi override', 'https://example.com/\u202Egnp.exe'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['file:', 'file:///etc/passwd'],
    ['ftp:', 'ftp://example.com/'],
    ['mailto:', 'mailto:a@example.com'],
    // Deliberately hostile test data (credentials in a URL), not a secret.
    // secretlint-disable-next-line
    ['a username and password', 'https://user:pass@example.com/'],
    ['a username only', 'https://user@example.com/'],
    ['a password only', 'https://:secret@example.com/'],
    ['a relative path', '/relative/path'],
    ['a relative path without a slash', 'example.com/page'],
    ['a protocol-relative URL', '//example.com/page'],
    ['a fragment', '#top'],
    ['an empty string', ''],
    ['whitespace only', '   '],
    ['an invalid host', 'https://exa mple.com/'],
    ['an invalid port', 'https://example.com:99999/'],
    ['a scheme without a host', 'https:'],
  ])('refuses %s', (_name, raw) => {
    expect(admitUrl(raw)).toBeNull();
  });

  it('refuses non-strings', () => {
    expect(admitUrl(undefined)).toBeNull();
    expect(admitUrl(null)).toBeNull();
    expect(admitUrl(new URL('https://example.com/'))).toBeNull();
    expect(admitUrl({ href: 'https://example.com/' })).toBeNull();
  });

  it('bounds the normalized URL, not the raw one', () => {
    const prefix = 'https://example.com/';
    const fits = `${prefix}${'a'.repeat(MAX_URL_LENGTH - prefix.length)}`;
    expect(admitUrl(fits)).toBe(fits);
    expect(admitUrl(`${fits}a`)).toBeNull();
    // A raw URL over the bound that normalizes under it is admitted.
    expect(admitUrl(`${prefix}${'./'.repeat(MAX_URL_LENGTH)}x`)).toBe(`${prefix}x`);
    // A raw URL under the bound whose encoding grows past it is refused.
    expect(admitUrl(`${prefix}${'é'.repeat(400)}`)).toBeNull();
  });
});
