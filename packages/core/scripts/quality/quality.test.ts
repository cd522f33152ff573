import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CORPUS_DIGEST } from '../../src/providers/local/demo-corpus-digest.ts';
import {
  createLocalProvider,
  DEMO_META_KEY,
  DEMO_SOURCE,
  demoCorpusVersion,
  demoDocuments,
  type LocalDocument,
  type LocalProvider,
  openIndex,
} from '../../src/providers/local/index.ts';
import { digestOf } from '../demo-corpus-digest.ts';
import { JUDGED_QUERIES } from './judged-queries.ts';
import { searchAsCaller } from './measure-quality.ts';

// The fixed regression subset of `pnpm bench:quality`, on the real demo corpus.
let dir: string;
let docs: LocalDocument[];
let provider: LocalProvider;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'openmates-quality-'));
  docs = await demoDocuments();
  const indexPath = join(dir, 'index.db');
  const index = openIndex(indexPath);
  try {
    index.addDocuments(docs, undefined, { source: DEMO_SOURCE });
    index.setMeta(DEMO_META_KEY, demoCorpusVersion());
  } finally {
    index.close();
  }
  provider = createLocalProvider({ indexPath });
});

afterAll(async () => {
  await provider?.close?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('the demo corpus', () => {
  it('is the version its digest names (run `node packages/core/scripts/demo-corpus-digest.ts --write` after changing it)', () => {
    expect(digestOf(docs)).toBe(DEMO_CORPUS_DIGEST);
  });
});

describe('search quality regression subset', () => {
  const subset = JUDGED_QUERIES.filter((judged) => judged.regression);

  it('holds the issue’s own queries', () => {
    expect(subset.map((judged) => judged.query)).toEqual(
      expect.arrayContaining([
        'div element',
        'input type date',
        'color value type',
        '@media',
        'div',
        'Array map',
        ':has',
      ]),
    );
  });

  it.each(subset)('$query puts its own page first', async ({ query, expect: page }) => {
    const results = await searchAsCaller(provider, query, 3);
    expect(results[0]?.url, results.map((result) => result.title).join(' | ')).toBe(page);
  });

  it.each([
    ['div element', '<div>'],
    ['code element', '<code>'],
    ['dialog element', '<dialog>'],
    ['input type date', '<input>'],
    ['color value type', '<color>'],
    ['@media', '@media'],
    [':has', ':has()'],
  ])('%s answers with a title that keeps %s', async (query, literal) => {
    const [first] = await searchAsCaller(provider, query, 1);
    expect(first?.title).toContain(literal);
  });

  it('gives every document a description of its own: no two documents with different titles share one', () => {
    const titlesOf = new Map<string, Set<string>>();
    for (const doc of docs) {
      if (doc.description === undefined) continue;
      const titles = titlesOf.get(doc.description) ?? new Set<string>();
      titles.add(doc.title);
      titlesOf.set(doc.description, titles);
    }
    const shared = [...titlesOf].filter(([, titles]) => titles.size > 1).map(([description]) => description);
    expect(shared).toEqual([]);
    // The pages of one web feature (Abortable fetch covers AbortController and AbortSignal's pages).
    const abortPages = docs.filter((doc) => doc.url.includes('/Web/API/AbortController'));
    expect(abortPages.length).toBeGreaterThan(2);
    expect(new Set(abortPages.map((doc) => doc.description)).size).toBe(abortPages.length);
  });

  it('answers with descriptions that keep the names too', async () => {
    for (const [query, literal] of [
      ['div element', '<div>'],
      ['code element', '<code>'],
      ['dialog element', '<dialog>'],
      ['input type date', '<input type="date">'],
      ['color value type', '<color>'],
    ] as const) {
      const [first] = await searchAsCaller(provider, query, 1);
      expect(first?.description).toContain(literal);
    }
  });
});
