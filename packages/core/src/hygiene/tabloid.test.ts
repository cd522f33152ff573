import { getDomain } from 'tldts';
import { describe, expect, it } from 'vitest';
import { isTabloid } from './tabloid.ts';
import { TABLOID_DOMAINS } from './tabloid-domains.ts';

describe('isTabloid', () => {
  it.each([
    'https://www.dailymail.co.uk/news/article-1.html',
    'https://dailymail.co.uk/',
    'https://news.dailymail.co.uk/',
    'https://a.b.c.thesun.co.uk/x',
    'https://nypost.com/2024/01/01/x/',
    'https://www.tmz.com/',
    'https://www.express.co.uk./', // a fully qualified host with its trailing dot
  ])('matches %s', (url) => {
    expect(isTabloid(url)).toBe(true);
  });

  it.each([
    'https://notdailymail.co.uk/',
    'https://dailymail.co.uk.evil.com/',
    'https://www.example.com/dailymail.co.uk',
    'https://example.com/?u=https://www.dailymail.co.uk/',
    'https://mirror.co.uk.example.org/',
    'https://themirror.co.uk/',
    'https://co.uk/',
    'https://www.bbc.co.uk/news',
    'https://www.nytimes.com/',
    'http://127.0.0.1/',
    'http://localhost:8080/',
    'not a url',
  ])('does not match %s', (url) => {
    expect(isTabloid(url)).toBe(false);
  });

  it('matches a custom list, including an entry below the registrable domain', () => {
    const domains = new Set(['gossip.example.com', 'example.org']);
    expect(isTabloid('https://gossip.example.com/', domains)).toBe(true);
    expect(isTabloid('https://www.gossip.example.com/', domains)).toBe(true);
    expect(isTabloid('https://example.com/', domains)).toBe(false);
    expect(isTabloid('https://sub.example.org/', domains)).toBe(true);
    expect(isTabloid('https://www.dailymail.co.uk/', domains)).toBe(false);
  });

  it('matches an IDN list entry against the punycode host', () => {
    expect(isTabloid('https://www.bücher.de/', new Set(['xn--bcher-kva.de']))).toBe(true);
  });
});

describe('TABLOID_DOMAINS', () => {
  it('holds registrable domains only, lowercase and without duplicates', () => {
    for (const domain of TABLOID_DOMAINS) {
      expect(getDomain(domain)).toBe(domain);
      // No suffix rule below an entry (`*.entry`), so every host under it has the entry as its
      // registrable domain: matching by parent domains needs no suffix list at run time.
      expect(getDomain(`a.b.${domain}`)).toBe(domain);
      expect(domain).toBe(domain.toLowerCase());
    }
    expect(new Set(TABLOID_DOMAINS).size).toBe(TABLOID_DOMAINS.length);
  });

  it('is matched entry by entry', () => {
    for (const domain of TABLOID_DOMAINS) expect(isTabloid(`https://www.${domain}/`)).toBe(true);
  });
});
