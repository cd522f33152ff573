import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LocalDocument, URL_NOT_HTTP_REASON } from './local-document.ts';
import { type LocalIndex, LocalIndexError, openIndex } from './local-index.ts';

let dir: string;
let index: LocalIndex;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'openmates-index-'));
  index = openIndex(join(dir, 'nested', 'index.db'));
});

afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const doc = (url: string, title: string, body: string, extra: Partial<LocalDocument> = {}): LocalDocument => ({
  url: `https://example.com/${url}`,
  title,
  body,
  ...extra,
});

const urls = (query: string, options: Parameters<LocalIndex['search']>[1] = { limit: 10 }) =>
  index.search(query, options).map((hit) => hit.url.replace('https://example.com/', ''));

describe('openIndex', () => {
  it('creates the index with its folder, empty, in WAL mode', () => {
    expect(index.count()).toBe(0);
    expect(index.stats()).toMatchObject({ documents: 0, languages: {}, sources: {} });
  });

  it('refuses a file that is not an index, with a one-line reason', () => {
    const path = join(dir, 'not-an-index.db');
    writeFileSync(path, 'this is not a database, just text that is long enough to be read as a header');
    expect(() => openIndex(path)).toThrow(LocalIndexError);
    expect(() => openIndex(path)).toThrow(/^cannot open the local index at .*not-an-index\.db: [^\n]+$/);
  });
});

describe('search', () => {
  it('ranks a title match above a body match (BM25, titles weighted)', () => {
    index.addDocuments([
      doc('body', 'Something else', 'a long text that mentions kittens once among many other words here'),
      doc('title', 'Kittens', 'a text about small cats'),
    ]);
    expect(urls('kittens')).toEqual(['title', 'body']);
  });

  it('finds camelCase identifiers by their parts, and parts by the identifier', () => {
    index.addDocuments([
      doc('ac', 'AbortController', 'Cancels requests.'),
      doc('fes', 'Streams', 'Use fetchEventSource to read events.'),
      doc('split', 'Guide', 'The abort controller pattern.'),
    ]);
    expect(urls('abort')).toContain('ac');
    expect(urls('controller')).toContain('ac');
    expect(urls('event source')).toEqual(['fes']);
    expect(urls('AbortController').sort()).toEqual(['ac', 'split']);
  });

  it('stems words (porter)', () => {
    index.addDocuments([doc('run', 'Running', 'She runs daily.')]);
    expect(urls('run')).toEqual(['run']);
  });

  it('requires every word first, and relaxes to any word when that finds little', () => {
    index.addDocuments([
      doc('both', 'Apples and pears', 'fruit'),
      doc('apple', 'Apples', 'fruit'),
      doc('pear', 'Pears', 'fruit'),
    ]);
    expect(urls('apples pears', { limit: 1 })).toEqual(['both']);
    const relaxed = urls('apples pears');
    expect(relaxed[0]).toBe('both');
    expect(relaxed.slice(1).sort()).toEqual(['apple', 'pear']);
    expect(urls('apples bananas').sort()).toEqual(['apple', 'both']);
    expect(urls('bananas')).toEqual([]);
  });

  it('lets no stop word or question word decide', () => {
    index.addDocuments([
      doc('how', 'How to do it', 'how do I do this, how to do that'),
      doc('sorting', 'Array sort', 'Sorts the elements of an array in place.'),
    ]);
    expect(urls('how do I sort an array')).toEqual(['sorting']);
  });

  it('relaxes to any word ranked by BM25, a title match above a body mention', () => {
    index.addDocuments([
      doc('body', 'Layout', 'a box that is sticky when scrolled'),
      doc('title', 'Sticky positioning', 'stays in place when scrolled'),
      doc('common', 'Footer', 'the box at the bottom'),
      doc('other', 'Header', 'the box at the top'),
      doc('more', 'Main', 'the main content'),
    ]);
    // No document holds both words: the title holding one comes before the body holding it.
    expect(urls('sticky sidebar')).toEqual(['title', 'body']);
  });

  it('brings an owner’s page before its members when several of them answer', () => {
    index.addDocuments([
      doc('close', 'WebSocket: close', 'Closes the WebSocket connection.'),
      doc('send', 'WebSocket: send', 'Sends data over the WebSocket connection.'),
      doc('socket', 'WebSocket', 'The WebSocket object provides the API for managing a WebSocket to a server.'),
      doc('other', 'PresentationRequest: reconnect', 'Reconnects to a presentation.'),
    ]);
    const found = urls('websocket reconnect');
    expect(found.indexOf('socket')).toBeLessThan(found.indexOf('close'));
    expect(found.indexOf('socket')).toBeLessThan(found.indexOf('send'));
    // A member the query names keeps its place.
    expect(urls('websocket send')[0]).toBe('send');
  });

  it('filters by document language; documents without one are excluded', () => {
    index.addDocuments([
      doc('en', 'Hello world', 'text', { language: 'en-GB' }),
      doc('de', 'Hello Welt', 'text', { language: 'de' }),
      doc('none', 'Hello there', 'text'),
    ]);
    expect(urls('hello', { limit: 10, language: 'de' })).toEqual(['de']);
    expect(urls('hello', { limit: 10, language: 'en' })).toEqual(['en']);
    expect(urls('hello').sort()).toEqual(['de', 'en', 'none']);
  });

  it('keeps only family-friendly documents under strict safe search', () => {
    index.addDocuments([
      doc('safe', 'Garden tips', 'text', { family_friendly: true }),
      doc('adult', 'Garden party', 'text', { family_friendly: false }),
      doc('unknown', 'Garden tools', 'text'),
    ]);
    expect(urls('garden', { limit: 10, familyFriendlyOnly: true })).toEqual(['safe']);
    expect(urls('garden')).toHaveLength(3);
  });

  it('returns the stored description, else a plain-text snippet, and passes date, language and rating', () => {
    index.addDocuments([
      doc('described', 'Described', 'body words', {
        description: 'Given description.',
        published: '2024-05-01T10:00:00Z',
        language: 'EN',
        family_friendly: true,
      }),
      doc('snippet', 'Snippet', `${'filler '.repeat(60)}the needle sits here ${'more '.repeat(60)}`),
    ]);
    const [described] = index.search('described', { limit: 1 });
    expect(described).toEqual({
      url: 'https://example.com/described',
      title: 'Described',
      description: 'Given description.',
      language: 'en',
      published: '2024-05-01',
      family_friendly: true,
    });
    const [snippet] = index.search('needle', { limit: 1 });
    expect(snippet?.description).toContain('the needle sits here');
    expect(snippet?.description).not.toMatch(/[<>\uE000-\uF8FF]/);
    expect(snippet?.description.length).toBeLessThan(300);
  });

  it('returns at most `limit` hits', () => {
    index.addDocuments(Array.from({ length: 30 }, (_, i) => doc(`d${i}`, `Common ${i}`, 'shared words')));
    expect(urls('common', { limit: 7 })).toHaveLength(7);
  });

  it('answers zero hits for a query without word characters', () => {
    index.addDocuments([doc('a', 'Anything', 'text')]);
    expect(index.search('"*()^:-+', { limit: 10 })).toEqual([]);
  });

  it('never throws on FTS5 syntax in the query', () => {
    index.addDocuments([doc('a', 'NEAR AND OR NOT', 'foo bar baz "quoted" star* col:umn')]);
    const syntax = fc.constantFrom(
      '"',
      '*',
      '(',
      ')',
      'NEAR',
      'AND',
      'OR',
      'NOT',
      '^',
      ':',
      '-',
      '+',
      ' ',
      'foo',
      'bar',
      'NEAR(',
      '{',
      '}',
      "'",
      '\u0301',
    );
    const query = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.array(syntax, { maxLength: 20 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(query, fc.boolean(), (text, strict) => {
        const hits = index.search(text, { limit: 5, familyFriendlyOnly: strict });
        expect(Array.isArray(hits)).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(urls('"foo" OR bar*')).toEqual(['a']);
    expect(urls('NEAR(')).toEqual(['a']);
  });
});

describe('addDocuments', () => {
  it('replaces a document added again with the same URL', () => {
    index.addDocuments([doc('page', 'Old title', 'old words', { language: 'en' })]);
    const result = index.addDocuments([doc('page', 'New title', 'new words')]);
    expect(result).toMatchObject({ added: 1, replaced: 1, rejected: 0 });
    expect(index.count()).toBe(1);
    expect(urls('old')).toEqual([]);
    expect(index.search('new', { limit: 1 })).toEqual([
      { url: 'https://example.com/page', title: 'New title', description: expect.any(String) },
    ]);
  });

  it('lists invalid documents with their position and keeps the valid ones', () => {
    const result = index.addDocuments([
      doc('ok', 'Fine', 'text'),
      { url: '', title: 'x', body: 'y' },
      doc('bad-date', 'Date', 'text', { published: 'yesterday' }),
    ]);
    expect(result.added).toBe(1);
    expect(result.rejections).toEqual([
      { index: 1, reason: 'url must be a non-empty string' },
      { index: 2, reason: 'published must be an ISO 8601 date such as "2024-05-01"' },
    ]);
  });

  it('refuses URLs a search result could not carry, and stores the rest normalized', () => {
    const result = index.addDocuments([
      { url: 'file:///home/me/notes.md', title: 'File', body: 'kiwi' },
      { url: 'notes/a.md', title: 'Relative', body: 'kiwi' },
      // Deliberately hostile test data (credentials in a URL), not a secret.
      // secretlint-disable-next-line
      { url: 'https://me:secret@example.com/', title: 'Credentials', body: 'kiwi' },
      { url: ' HTTPS://Example.COM:443/a/../kiwi ', title: 'Fine', body: 'kiwi' },
    ]);
    expect(result.rejections).toEqual([0, 1, 2].map((index) => ({ index, reason: URL_NOT_HTTP_REASON })));
    expect(urls('kiwi')).toEqual(['kiwi']);
    // The normalized URL is the identity: the same page spelled differently replaces it.
    expect(index.addDocuments([{ url: 'https://example.com/kiwi', title: 'Again', body: 'kiwi' }]).replaced).toBe(1);
  });

  it('reports progress after each batch', () => {
    const seen: number[] = [];
    index.addDocuments(
      Array.from({ length: 25 }, (_, i) => doc(`d${i}`, 'T', 'b')),
      (progress) => seen.push(progress.added),
      { batchSize: 10 },
    );
    expect(seen).toEqual([10, 20, 25]);
  });

  it('pauses FTS5 automerge during a load of several batches and restores it afterwards', () => {
    const automerge = () => {
      const reader = new DatabaseSync(index.path, { readOnly: true });
      try {
        const row = reader.prepare("SELECT v FROM docs_fts_config WHERE k = 'automerge'").get() as
          | { v: number }
          | undefined;
        return row?.v;
      } finally {
        reader.close();
      }
    };
    const seen: (number | undefined)[] = [];
    index.addDocuments(
      Array.from({ length: 25 }, (_, i) => doc(`m${i}`, 'Merge', `walrus ${i}`)),
      () => seen.push(automerge()),
      { batchSize: 10 },
    );
    expect(seen).toEqual([0, 0, 0]);
    expect(automerge()).toBe(4);
    expect(urls('walrus')).toHaveLength(10);
    expect(index.count()).toBe(25);
    // A failing load restores it too.
    expect(() =>
      index.addDocuments(
        (function* () {
          for (let i = 0; i < 15; i++) yield doc(`f${i}`, 'F', 'x');
          throw new Error('source failed');
        })(),
        undefined,
        { batchSize: 10 },
      ),
    ).toThrow('source failed');
    expect(automerge()).toBe(4);
  });
});

describe('stats and clear', () => {
  it('counts documents by language and source, and clear empties the index', () => {
    index.addDocuments([doc('a', 'A', 'x', { language: 'en' }), doc('b', 'B', 'x')]);
    expect(index.stats()).toMatchObject({ documents: 2, languages: { en: 1, unknown: 1 }, sources: { user: 2 } });
    expect(index.stats().bytes).toBeGreaterThan(0);
    index.clear();
    expect(index.count()).toBe(0);
    expect(index.getMeta('demo_corpus')).toBe('cleared');
    expect(urls('x')).toEqual([]);
  });
});

describe('exact names first', () => {
  const media = (feature: string) =>
    doc(
      `media/${feature}`,
      `@media: ${feature} media feature`,
      `The ${feature} media feature of @media media queries.`,
    );

  beforeEach(() => {
    index.addDocuments([
      ...['width', 'height', 'orientation', 'resolution'].map(media),
      doc('media', '@media CSS at-rule', 'Applies styles when a media query matches.'),
      doc('div-feature', '<div> (web platform feature)', 'The div element. Div div div.'),
      doc('div', '<div> HTML element', 'The generic container for flow content.'),
      doc('wasm-div', 'instructions: div', 'Division: div div div div.'),
      doc('color-attr', 'color SVG attribute', 'The color attribute of SVG: a color value.'),
      doc('color-type', '<color> CSS value type', 'A color in sRGB.'),
      doc('map', 'Array.prototype.map()', 'Creates a new array from calling a function on every element.'),
      doc('typed-map', 'TypedArray.prototype.map()', 'Array map for typed arrays: map map map.'),
      doc('flat-map', 'Array.prototype.flatMap()', 'Array map then flat: map map.'),
      doc('has', ':has() CSS selector', 'Matches an element if any relative selector matches.'),
      doc('headers-has', 'Headers: has() method', 'Whether a Headers object has a header: has has has.'),
    ]);
  });

  it.each([
    ['@media', 'media'],
    ['media at-rule', 'media'],
    ['div', 'div'],
    ['<div>', 'div'],
    ['div element', 'div'],
    ['color value type', 'color-type'],
    ['<color>', 'color-type'],
    ['Array map', 'map'],
    ['Array.prototype.map()', 'map'],
    ['array map method', 'map'],
    [':has', 'has'],
    ['has selector', 'has'],
  ])('%s puts its own page first', (query, first) => {
    expect(urls(query)[0]).toBe(first);
  });

  it('keeps BM25 order for the rest, without repeating the named page', () => {
    const found = urls('@media');
    expect(found.slice(1).sort()).toEqual(['media/height', 'media/orientation', 'media/resolution', 'media/width']);
    expect(new Set(found).size).toBe(found.length);
    expect(urls('@media', { limit: 2 })).toHaveLength(2);
  });

  it('describes a named page without a description by the beginning of its body', () => {
    const [first] = index.search('div', { limit: 1 });
    expect(first).toMatchObject({
      title: '<div> HTML element',
      description: 'The generic container for flow content.',
    });
    index.addDocuments([doc('long', 'Longname', `${'word '.repeat(40)}end`)]);
    expect(index.search('longname', { limit: 1 })[0]?.description).toBe(`${'word '.repeat(32).trim()}…`);
  });

  it('puts the named page whose text is about the name before a shorter sibling that only names it', () => {
    index.addDocuments([
      doc('font-svg', 'font-family SVG attribute', 'Reference: font-family.'),
      doc(
        'font-css',
        'font-family CSS property',
        'font-family: a prioritized list of font family names or generic family names, tried in order until a font matches.',
      ),
    ]);
    // BM25 divides by the whole document's length and would put the short stub first.
    expect(urls('font-family')).toEqual(['font-css', 'font-svg']);
  });

  it('applies the language and safe-search filters to named pages too', () => {
    index.addDocuments([doc('de-div', '<div>', 'Ein div Element.', { language: 'de' })]);
    expect(urls('div', { limit: 10, language: 'en' })).toEqual([]);
    expect(urls('div', { limit: 10, language: 'de' })).toEqual(['de-div']);
    expect(urls('div', { limit: 10, familyFriendlyOnly: true })).toEqual([]);
  });

  it("falls back to BM25 alone when no title is the query's name", () => {
    expect(urls('generic container')).toEqual(['div']);
  });
});

describe('an index of layout 1', () => {
  it('is upgraded in place: its documents stay and exact names rank first', () => {
    const path = join(dir, 'layout-1.db');
    const db = new DatabaseSync(path);
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE docs (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, description TEXT, language TEXT,
        published TEXT, family_friendly INTEGER, source TEXT NOT NULL DEFAULT 'user');
      CREATE VIRTUAL TABLE docs_fts USING fts5(title, body, title_parts, body_parts,
        tokenize = 'porter unicode61 remove_diacritics 2');
      INSERT INTO meta VALUES ('schema', '1');
      INSERT INTO docs (id, url) VALUES (1, 'https://example.com/one'), (2, 'https://example.com/media');
      INSERT INTO docs_fts (rowid, title, body, title_parts, body_parts) VALUES
        (1, '@media: width media feature', 'media media media', '', ''),
        (2, '@media CSS at-rule', 'rules', '', '');
    `);
    db.close();
    const upgraded = openIndex(path);
    try {
      expect(upgraded.count()).toBe(2);
      expect(upgraded.search('@media', { limit: 5 }).map((hit) => hit.url)).toEqual([
        'https://example.com/media',
        'https://example.com/one',
      ]);
    } finally {
      upgraded.close();
    }
    const reopened = openIndex(path);
    reopened.close();
  });
});

describe('scope', () => {
  const at = (date: string) => Date.parse(`${date}T00:00:00Z`);
  beforeEach(() => {
    index.addDocuments([
      { url: 'https://docs.example.org/a', title: 'Scope alpha', body: 'x', published: '2025-01-05' },
      { url: 'https://a.docs.example.org/b', title: 'Scope beta', body: 'x', published: '2025-02-05' },
      { url: 'https://notdocs.example.org/c', title: 'Scope gamma', body: 'x', published: '2025-01-06' },
      { url: 'https://bücher.example/d', title: 'Scope delta', body: 'x' },
      { url: 'https://example.org/e', title: 'Scope epsilon', body: 'x', published: '2025-01-31' },
    ]);
  });
  const hosts = (options: Omit<Parameters<LocalIndex['search']>[1], 'limit'>) =>
    index
      .search('scope', { limit: 10, ...options })
      .map((hit) => new URL(hit.url).hostname)
      .sort();

  it('keeps only documents whose host is an included domain or its subdomain, never a look-alike', () => {
    expect(hosts({ includeDomains: ['docs.example.org'] })).toEqual(['a.docs.example.org', 'docs.example.org']);
    expect(hosts({ includeDomains: ['xn--bcher-kva.example'] })).toEqual(['xn--bcher-kva.example']);
  });

  it('removes documents of an excluded domain and its subdomains', () => {
    expect(hosts({ excludeDomains: ['docs.example.org'] })).toEqual([
      'example.org',
      'notdocs.example.org',
      'xn--bcher-kva.example',
    ]);
    expect(hosts({ includeDomains: ['example.org'], excludeDomains: ['docs.example.org'] })).toEqual([
      'example.org',
      'notdocs.example.org',
    ]);
  });

  it('keeps only documents published in the range; one without a date never matches', () => {
    expect(hosts({ published: { start: at('2025-01-01'), end: at('2025-02-01') } })).toEqual([
      'docs.example.org',
      'example.org',
      'notdocs.example.org',
    ]);
    // The end is exclusive: a document of the end's own day is out.
    expect(hosts({ published: { start: at('2025-01-06'), end: at('2025-01-31') } })).toEqual(['notdocs.example.org']);
    expect(hosts({ published: { start: 0, end: at('2030-01-01') }, includeDomains: ['docs.example.org'] })).toEqual([
      'a.docs.example.org',
      'docs.example.org',
    ]);
  });

  it('applies the scope to documents found by name too', () => {
    index.addDocuments([
      { url: 'https://elsewhere.example/div', title: '<div> HTML element', body: 'generic container' },
      { url: 'https://docs.example.org/div', title: '<div>', body: 'generic container', published: '2025-01-02' },
    ]);
    expect(index.search('div', { limit: 5, excludeDomains: ['docs.example.org'] }).map((hit) => hit.url)).toEqual([
      'https://elsewhere.example/div',
    ]);
    expect(
      index.search('div', { limit: 5, published: { start: 0, end: at('2026-01-01') } }).map((hit) => hit.url),
    ).toEqual(['https://docs.example.org/div']);
  });
});

describe('an index of layout 2', () => {
  it('is upgraded in place: each document gets its host, and the domain scope applies to it', () => {
    const path = join(dir, 'layout-2.db');
    const db = new DatabaseSync(path);
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE docs (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, description TEXT, language TEXT,
        published TEXT, family_friendly INTEGER, source TEXT NOT NULL DEFAULT 'user', name_key TEXT);
      CREATE INDEX docs_name_key ON docs (name_key);
      CREATE VIRTUAL TABLE docs_fts USING fts5(title, body, title_parts, body_parts,
        tokenize = 'porter unicode61 remove_diacritics 2');
      INSERT INTO meta VALUES ('schema', '2');
      INSERT INTO docs (id, url, published) VALUES
        (1, 'https://Docs.Example.org/one', '2025-01-05'),
        (2, 'https://notdocs.example.org/two', '2025-01-05'),
        (3, 'https://a.docs.example.org/three', NULL);
      INSERT INTO docs_fts (rowid, title, body, title_parts, body_parts) VALUES
        (1, 'Upgrade one', 'x', '', ''), (2, 'Upgrade two', 'x', '', ''), (3, 'Upgrade three', 'x', '', '');
    `);
    db.close();
    const upgraded = openIndex(path);
    try {
      expect(upgraded.count()).toBe(3);
      expect(upgraded.getMeta('schema')).toBe('3');
      const found = (options: Omit<Parameters<LocalIndex['search']>[1], 'limit'>) =>
        upgraded
          .search('upgrade', { limit: 5, ...options })
          .map((hit) => hit.url)
          .sort();
      expect(found({ includeDomains: ['docs.example.org'] })).toEqual([
        'https://Docs.Example.org/one',
        'https://a.docs.example.org/three',
      ]);
      expect(
        found({ includeDomains: ['docs.example.org'], published: { start: 0, end: Date.parse('2026-01-01') } }),
      ).toEqual(['https://Docs.Example.org/one']);
      // A document added after the upgrade gets its host as it is stored.
      upgraded.addDocuments([{ url: 'https://b.docs.example.org/four', title: 'Upgrade four', body: 'x' }]);
      expect(found({ includeDomains: ['b.docs.example.org'] })).toEqual(['https://b.docs.example.org/four']);
    } finally {
      upgraded.close();
    }
    const check = new DatabaseSync(path);
    const columns = check.prepare('PRAGMA table_info(docs)').all() as { name: string }[];
    check.close();
    expect(columns.map((column) => column.name)).toContain('host');
    openIndex(path).close();
  });
});
