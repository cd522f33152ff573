import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestPaths, NO_URL_REASON } from './ingest-paths.ts';
import { URL_NOT_HTTP_REASON } from './local-document.ts';
import { type LocalIndex, openIndex } from './local-index.ts';

let dir: string;
let index: LocalIndex;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'openmates-ingest-'));
  index = openIndex(join(dir, 'index.db'));
});

afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, content: string): string {
  const path = join(dir, 'docs', name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

describe('ingestPaths', () => {
  it('reads Markdown front matter with yaml: url, title, lang, date, description', async () => {
    write(
      'post.md',
      '---\nurl: https://blog.example/post\ntitle: "Front: matter title"\nlang: de-AT\ndate: 2023-02-03\ndescription: Short summary.\nfamily_friendly: true\n---\n# Ignored heading\n\nSome **bold** zebra text and a [link](https://x.example).\n',
    );
    const result = await ingestPaths(index, [join(dir, 'docs')]);
    expect(result).toMatchObject({ files: 1, added: 1, problems: [] });
    expect(index.search('zebra', { limit: 1 })).toEqual([
      {
        url: 'https://blog.example/post',
        title: 'Front: matter title',
        description: 'Short summary.',
        language: 'de',
        published: '2023-02-03',
        family_friendly: true,
      },
    ]);
  });

  it('titles Markdown without front matter by its first heading, else its file name, with a URL under the base', async () => {
    write('headed.md', 'Intro line\n\n# The *real* title\n\nquokka facts');
    write('sub dir/bare notes.md', 'just quokka words');
    const result = await ingestPaths(index, [join(dir, 'docs')], undefined, { baseUrl: 'https://notes.example/n' });
    expect(result).toMatchObject({ files: 2, added: 2, rejected: 0, withoutUrl: 0, problems: [] });
    const hits = index.search('quokka', { limit: 5 });
    expect(hits.map((hit) => [hit.title, hit.url]).sort()).toEqual([
      ['The real title', 'https://notes.example/n/headed.md'],
      ['bare notes', 'https://notes.example/n/sub%20dir/bare%20notes.md'],
    ]);
    expect(hits.find((hit) => hit.title === 'The real title')?.description).not.toContain('*');
  });

  it('derives the URL of a file given by itself from its name, and keeps a front-matter URL over the base', async () => {
    const bare = write('a/b/rock#1.md', '# Rock\nbasalt');
    const own = write('own.md', '---\nurl: https://own.example/post\n---\nbasalt too');
    await ingestPaths(index, [bare, own], undefined, { baseUrl: 'https://base.example/x/' });
    expect(
      index
        .search('basalt', { limit: 5 })
        .map((hit) => hit.url)
        .sort(),
    ).toEqual(['https://base.example/x/rock%231.md', 'https://own.example/post']);
  });

  it('refuses files without a URL of their own when no base URL is given, and still adds the rest', async () => {
    write('own.md', '---\nurl: https://own.example/post\n---\ngecko');
    const bare = write('bare.md', 'gecko');
    const html = write('page.html', '<title>Page</title><p>gecko</p>');
    const text = write('notes.txt', 'gecko');
    const result = await ingestPaths(index, [join(dir, 'docs')]);
    expect(result).toMatchObject({ files: 4, added: 1, rejected: 3, withoutUrl: 3 });
    expect(result.problems.sort((a, b) => a.path.localeCompare(b.path))).toEqual(
      [bare, text, html].sort().map((path) => ({ path, reason: NO_URL_REASON })),
    );
    expect(index.search('gecko', { limit: 5 }).map((hit) => hit.url)).toEqual(['https://own.example/post']);
  });

  it('refuses a document whose own URL is not absolute http(s), from a file or a JSONL line', async () => {
    const relative = write('relative.md', '---\nurl: /posts/1\n---\nlemur');
    const file = write('file.html', '<link rel="canonical" href="file:///etc/x"><p>lemur</p>');
    const jsonl = write(
      'docs.jsonl',
      [
        JSON.stringify({ url: 'ftp://files.example/a', title: 'A', body: 'lemur' }),
        JSON.stringify({ url: 'https://user:pw@b.example/', title: 'B', body: 'lemur' }),
        JSON.stringify({ url: 'HTTPS://C.Example:443/./c', title: 'C', body: 'lemur' }),
      ].join('\n'),
    );
    // A base URL does not rescue a file that names a URL of its own.
    const result = await ingestPaths(index, [join(dir, 'docs')], undefined, { baseUrl: 'https://base.example/' });
    expect(result).toMatchObject({ added: 1, rejected: 4, withoutUrl: 0 });
    expect(result.problems).toEqual(
      expect.arrayContaining([
        { path: relative, reason: URL_NOT_HTTP_REASON },
        { path: file, reason: URL_NOT_HTTP_REASON },
        { path: jsonl, line: 1, reason: URL_NOT_HTTP_REASON },
        { path: jsonl, line: 2, reason: URL_NOT_HTTP_REASON },
      ]),
    );
    // Stored normalized, as the engine would return it.
    expect(index.search('lemur', { limit: 5 }).map((hit) => hit.url)).toEqual(['https://c.example/c']);
  });

  it('refuses a base URL that is not absolute http(s) before reading anything', async () => {
    write('a.md', 'tapir');
    for (const baseUrl of ['notes/', 'file:///home/me/', 'https://x.example/?q=1', 'https://u:p@x.example/'])
      await expect(ingestPaths(index, [join(dir, 'docs')], undefined, { baseUrl })).rejects.toThrow(RangeError);
    expect(index.count()).toBe(0);
  });

  it('reports a front matter that is not YAML, and indexes the other files', async () => {
    write('broken.md', '---\ntitle: [unclosed\n---\nbody');
    write('fine.md', '# Fine\nokapi');
    const result = await ingestPaths(index, [join(dir, 'docs')], undefined, { baseUrl: 'https://notes.example/' });
    expect(result.added).toBe(1);
    expect(result.problems).toEqual([
      { path: join(dir, 'docs', 'broken.md'), reason: expect.stringMatching(/^front matter is not valid YAML/) },
    ]);
  });

  it('reads HTML with a parser: title, canonical URL, lang, description, visible text only', async () => {
    write(
      'page.html',
      `<!doctype html><html lang="fr"><head><title>Le &amp; titre</title>
      <link rel="canonical" href="https://site.example/page"><meta name="description" content="Résumé.">
      <style>.narwhal { color: red }</style></head>
      <body><h1>Heading</h1><p>Visible narwhal&nbsp;text</p><script>var walrus = 1;</script></body></html>`,
    );
    write(
      'og.htm',
      '<html><head><meta property="og:url" content="https://og.example/"></head><body><h1>Only <b>h1</b></h1>narwhal</body></html>',
    );
    await ingestPaths(index, [join(dir, 'docs')]);
    const hits = index.search('narwhal', { limit: 5 });
    expect(hits.map((hit) => [hit.url, hit.title]).sort()).toEqual([
      ['https://og.example/', 'Only h1'],
      ['https://site.example/page', 'Le & titre'],
    ]);
    expect(hits.find((hit) => hit.title === 'Le & titre')).toMatchObject({ language: 'fr', description: 'Résumé.' });
    expect(index.search('walrus', { limit: 5 })).toEqual([]);
    expect(index.search('red', { limit: 5 })).toEqual([]);
  });

  it('reads plain text with its first line as title', async () => {
    const path = write('notes.txt', 'Shopping list\nbuy axolotl food\n');
    await ingestPaths(index, [path], undefined, { baseUrl: 'https://txt.example/' });
    expect(index.search('axolotl', { limit: 1 })).toMatchObject([
      { title: 'Shopping list', url: 'https://txt.example/notes.txt' },
    ]);
  });

  it('reads JSONL and reports bad lines by number without failing the file', async () => {
    const path = write(
      'docs.jsonl',
      [
        JSON.stringify({
          url: 'https://a.example/',
          title: 'A',
          body: 'ibex one',
          published: '2020-01-02',
          language: 'en',
          family_friendly: true,
        }),
        '{ not json',
        '',
        JSON.stringify({ url: 'https://b.example/', title: 'B' }),
        JSON.stringify({ url: 'https://c.example/', title: 'C', body: 'ibex two', description: 'Cee.' }),
      ].join('\n'),
    );
    const result = await ingestPaths(index, [path]);
    expect(result).toMatchObject({ files: 1, added: 2, rejected: 2 });
    expect(result.problems).toEqual([
      { path, line: 2, reason: 'not valid JSON' },
      { path, line: 4, reason: 'body must be a string' },
    ]);
    expect(
      index
        .search('ibex', { limit: 5 })
        .map((hit) => hit.url)
        .sort(),
    ).toEqual(['https://a.example/', 'https://c.example/']);
  });

  it('walks folders recursively, skipping hidden folders and unknown extensions, and reports missing paths', async () => {
    write('a/b/deep.md', '# Deep\nwombat');
    write('.git/hidden.md', '# Hidden\nwombat');
    write('image.png', 'wombat');
    const missing = join(dir, 'missing');
    const result = await ingestPaths(index, [join(dir, 'docs'), missing], undefined, {
      baseUrl: 'https://notes.example/',
    });
    expect(result).toMatchObject({ files: 1, added: 1, ignored: 1 });
    expect(result.problems).toEqual([{ path: missing, reason: 'no such file or folder' }]);
    expect(index.search('wombat', { limit: 5 }).map((hit) => hit.title)).toEqual(['Deep']);
  });
});
