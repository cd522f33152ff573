import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionLists, providerIssues } from '../../capabilities.ts';
import { queryProvider } from '../../pipeline/query-provider.ts';
import { ProviderNotConfiguredError } from '../../provider.ts';
import { testContext, testQuery } from '../../testing/index.ts';
import { DEMO_META_KEY, demoCorpusVersion, ensureDemoCorpus } from './demo-corpus.ts';
import { resolveIndexPath } from './index-path.ts';
import { openIndex } from './local-index.ts';
import { createLocalProvider, LOCAL_INDEX_UNUSABLE, type LocalProvider } from './local-provider.ts';

const context = testContext();

const query = testQuery;

let dir: string;
let demo: LocalProvider;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'openmates-provider-'));
  demo = createLocalProvider({ indexPath: join(dir, 'demo.db') });
  await demo.ready();
});

afterAll(async () => {
  await demo.close?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('the demo corpus', () => {
  it('ranks the MDN AbortController/AbortSignal pages in the top 3 for "fetch abort"', async () => {
    const { candidates } = await queryProvider(demo, query('fetch abort'), context);
    const top = candidates.slice(0, 3).map((candidate) => String(candidate.url));
    expect(
      top.some((url) => /^https:\/\/developer\.mozilla\.org\/docs\/Web\/API\/Abort(Controller|Signal)\b/.test(url)),
    ).toBe(true);
  });

  it('titles MDN pages from their feature path and marks them English and family friendly', async () => {
    const { candidates } = await queryProvider(demo, query('AbortController', { fetchCount: 20 }), context);
    const page = candidates.find(
      (candidate) => candidate.url === 'https://developer.mozilla.org/docs/Web/API/AbortController/abort',
    );
    expect(page).toMatchObject({ title: 'AbortController: abort() method', language: 'en', family_friendly: true });
    expect(String(page?.description)).toMatch(
      /^The abort\(\) method of the AbortController interface aborts an asynchronous operation/,
    );
  });

  it('records its version and is not built twice', async () => {
    const again = await ensureDemoCorpus(join(dir, 'demo.db'));
    expect(again).toMatchObject({ built: false, version: await demoCorpusVersion() });
    expect(again.documents).toBeGreaterThan(10_000);
  });

  it('is rebuilt when the recorded version differs, keeping user documents', async () => {
    const path = join(dir, 'old-demo.db');
    await ensureDemoCorpus(path);
    const index = openIndex(path);
    index.setMeta(DEMO_META_KEY, 'bcd@0.0.1+web-features@0.0.1+r0');
    index.addDocuments([{ url: 'https://mine.example/', title: 'Mine', body: 'my own page' }]);
    const before = index.count();
    index.close();
    const result = await ensureDemoCorpus(path);
    expect(result).toMatchObject({ built: true, documents: before });
    const reopened = openIndex(path);
    expect(reopened.search('mine', { limit: 1 }).map((hit) => hit.url)).toEqual(['https://mine.example/']);
    expect(reopened.getMeta(DEMO_META_KEY)).toBe(await demoCorpusVersion());
    reopened.close();
  });

  it('is not built into an index that was cleared on purpose', async () => {
    const path = join(dir, 'cleared.db');
    const index = openIndex(path);
    index.clear();
    index.close();
    expect(await ensureDemoCorpus(path)).toMatchObject({ built: false, documents: 0 });
  });
});

describe('createLocalProvider', () => {
  it('describes itself and accepts every language', () => {
    expect(demo).toMatchObject({ id: 'local', name: 'Local index', recipient: 'this machine' });
    expect(optionLists(demo).unsupported.map((entry) => entry.option)).toEqual(['topic']);
    expect(optionLists(demo).honoured).toEqual(expect.arrayContaining(['count', 'page', 'search_lang', 'safesearch']));
    expect(providerIssues(demo, query('x', { search_lang: 'ja' }), 0)).toEqual([]);
    expect(providerIssues(demo, query('x', { topic: 'news' }), 2)).toEqual([
      {
        path: 'requests[2].topic',
        message:
          'topic "news" is not supported by the Local index provider: it holds the documents added to it, no news',
      },
    ]);
  });

  it('pages its ranking: page 2 starts right after page 1, in the index order, and says whether more exist', async () => {
    const all = await queryProvider(demo, query('element', { count: 20, filter_tabloids: false }), context);
    const first = await queryProvider(demo, query('element', { count: 10, filter_tabloids: false }), context);
    const second = await queryProvider(demo, query('element', { count: 10, filter_tabloids: false, page: 2 }), context);
    const urls = (answer: { candidates: { url?: unknown }[] }) => answer.candidates.map((c) => c.url);
    expect(urls(all)).toHaveLength(20);
    expect([...urls(first), ...urls(second)]).toEqual(urls(all));
    expect(first.more).toBe(true);
    // Tabloid filtering counts only the hits it keeps, so the pages are the same without tabloids in the index.
    const kept = await queryProvider(demo, query('element', { count: 10, page: 2 }), context);
    expect(urls(kept)).toEqual(urls(second));
    const last = await queryProvider(demo, query('AbortController', { count: 20, page: 10 }), context);
    expect(last).toEqual({ candidates: [], more: false });
  });

  it('honours count, search_lang and strict safe search, and passes the date as age', async () => {
    const path = join(dir, 'own.db');
    const index = openIndex(path);
    index.addDocuments([
      {
        url: 'https://a.example/',
        title: 'Lynx one',
        body: 'x',
        language: 'en',
        family_friendly: true,
        published: '2021-03-04',
      },
      { url: 'https://b.example/', title: 'Lynx two', body: 'x', language: 'de' },
      { url: 'https://c.example/', title: 'Lynx three', body: 'x', language: 'en' },
    ]);
    index.close();
    const provider = createLocalProvider({ indexPath: path, demo: false });
    try {
      expect((await queryProvider(provider, query('lynx', { count: 2 }), context)).candidates).toHaveLength(2);
      const german = await queryProvider(provider, query('lynx', { search_lang: 'de' }), context);
      expect(german.candidates.map((candidate) => candidate.url)).toEqual(['https://b.example/']);
      const strict = await queryProvider(provider, query('lynx', { safesearch: 'strict' }), context);
      expect(strict.candidates).toEqual([
        {
          format: 'text',
          url: 'https://a.example/',
          title: 'Lynx one',
          description: 'x',
          age: '2021-03-04',
          published: '2021-03-04',
          language: 'en',
          family_friendly: true,
        },
      ]);
      expect(await provider.doctor?.(context.signal)).toEqual([
        { name: 'local index', ok: true, detail: `${path}: 3 documents` },
      ]);
    } finally {
      await provider.close?.();
    }
  });

  it('cuts up to three excerpts around the query words from the indexed text, only when asked', async () => {
    const path = join(dir, 'excerpts.db');
    const index = openIndex(path);
    const long = `${'Preamble without the word. '.repeat(8)}The lynx hunts at night in ${'deep '.repeat(60)}forests.`;
    index.addDocuments([
      {
        url: 'https://lynx.example/',
        title: 'Lynx',
        description: 'The lynx is a wild cat.',
        body: [
          'The lynx is a wild cat.',
          'Nothing to see here.',
          'A lynx has tufted ears.',
          long,
          'Lynx tracks: the lynx walks where another lynx walked.',
          'A lynx has tufted ears.',
          'Lynxes live in the north.',
        ].join('\n'),
      },
    ]);
    index.close();
    const provider = createLocalProvider({ indexPath: path, demo: false });
    try {
      const [plain] = (await queryProvider(provider, query('lynx'), context)).candidates;
      expect(plain).not.toHaveProperty('extra_snippets');
      const [asked] = (await queryProvider(provider, query('lynx', { extra_snippets: true }), context)).candidates;
      const excerpts = (asked?.extra_snippets ?? []) as string[];
      // Most occurrences first; the description and repeats left out; a long line cut around its match.
      expect(excerpts[0]).toBe('Lynx tracks: the lynx walks where another lynx walked.');
      expect(excerpts.slice(1, 2)).toEqual(['A lynx has tufted ears.']);
      expect(excerpts[2]).toMatch(/^The lynx hunts at night in deep .*…$/);
      expect(excerpts).toHaveLength(3);
      expect(new Set(excerpts).size).toBe(3);
      expect(excerpts).not.toContain('The lynx is a wild cat.');
      for (const excerpt of excerpts) {
        expect(excerpt).toMatch(/lynx/i);
        expect([...excerpt].length).toBeLessThanOrEqual(300);
      }
    } finally {
      await provider.close?.();
    }
  });

  it('answers ProviderNotConfiguredError for an index that cannot be opened, and doctor says why', async () => {
    const path = join(dir, 'garbage.db');
    writeFileSync(path, 'not sqlite at all, only some text that fills the header bytes of a file');
    const provider = createLocalProvider({ indexPath: path });
    await expect(queryProvider(provider, query('x'), context)).rejects.toThrow(ProviderNotConfiguredError);
    const error = await queryProvider(provider, query('x'), context).catch((e: unknown) => e);
    // The caller is told what to do, never where the server keeps its files; the cause and doctor say where.
    expect((error as Error).message).toBe(LOCAL_INDEX_UNUSABLE);
    expect((error as Error).message).not.toContain(dir);
    expect(((error as Error).cause as Error).message).toMatch(/^cannot open the local index at .*garbage\.db: [^\n]+$/);
    const [check] = (await provider.doctor?.(context.signal)) ?? [];
    expect(check).toMatchObject({ name: 'local index', ok: false });
    expect(check?.detail).toMatch(/^cannot open the local index at .*garbage\.db: [^\n]+$/);
  });
});

describe('resolveIndexPath', () => {
  it('prefers OPENMATES_INDEX, then the platform data directory', () => {
    expect(resolveIndexPath({ indexPath: '/x/i.db', platform: 'linux', home: '/home/u' })).toBe('/x/i.db');
    expect(resolveIndexPath({ indexPath: '', platform: 'linux', home: '/home/u' })).toBe(
      '/home/u/.local/share/openmates/index.db',
    );
    expect(resolveIndexPath({ platform: 'linux', home: '/home/u', xdgDataHome: '/data' })).toBe(
      '/data/openmates/index.db',
    );
    expect(resolveIndexPath({ platform: 'linux', home: '/home/u', xdgDataHome: 'relative' })).toBe(
      '/home/u/.local/share/openmates/index.db',
    );
    expect(resolveIndexPath({ platform: 'darwin', home: '/Users/u' })).toBe(
      '/Users/u/Library/Application Support/openmates/index.db',
    );
    expect(
      resolveIndexPath({ platform: 'win32', home: 'C:\\Users\\u', localAppData: 'C:\\Users\\u\\AppData\\Local' }),
    ).toBe('C:\\Users\\u\\AppData\\Local\\openmates\\index.db');
  });
});
