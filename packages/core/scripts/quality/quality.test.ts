import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CORPUS_DIGEST } from '../../src/providers/local/demo-corpus-digest.ts';
import { PAGE_TEXT, PAGE_TEXT_SOURCES } from '../../src/providers/local/generated/page-text.js';
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
import { HOWTO_QUESTIONS, HOWTO_RECORDED } from './howto-questions.ts';
import { JUDGED_QUERIES } from './judged-queries.ts';
import { measureHowTo, searchAsCaller } from './measure-quality.ts';

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
    index.setMeta(DEMO_META_KEY, await demoCorpusVersion());
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

describe('each offline page its own text', () => {
  const MDN = 'https://developer.mozilla.org/docs/';
  const ownText = (url: string) => (url.startsWith(MDN) ? PAGE_TEXT[url.slice(MDN.length).toLowerCase()] : undefined);

  it.each(['css grid', 'dialog element', 'fetch abort'])(
    '%s: the first three results have three different descriptions, each the page’s own',
    async (query) => {
      const results = await searchAsCaller(provider, query, 3);
      expect(results).toHaveLength(3);
      expect(new Set(results.map((result) => result.description)).size).toBe(3);
      // A web feature's sentence belongs to its own page, never to the pages the feature covers.
      const features = docs.filter((doc) => doc.url.startsWith('https://webstatus.dev/'));
      for (const result of results) {
        const summary = ownText(result.url)?.[0];
        if (summary !== undefined) expect(result.description).toContain(summary);
        else if (result.url.startsWith('https://webstatus.dev/'))
          expect(result.description).toBe(features.find((doc) => doc.url === result.url)?.description);
        else {
          expect(result.description).toContain(result.title);
          for (const feature of features)
            if (feature.description) expect(result.description).not.toContain(feature.description);
        }
      }
    },
  );

  it('indexes more of a page than its description: its own summary and the first of its parts', () => {
    const page = docs.find((doc) => doc.url === `${MDN}Web/CSS/Reference/Properties/grid-area`);
    const [summary, first] = ownText(page?.url ?? '') ?? [];
    expect(summary).toMatch(/grid item/);
    expect(page?.description).toBe(summary);
    expect(page?.body).toContain(summary);
    expect(first).toMatch(/^grid-area: auto — /);
    expect(page?.body).toContain(first);
    const controller = docs.find((doc) => doc.url === `${MDN}Web/API/AbortController`);
    expect(controller?.body).toMatch(/AbortController\.signal — The signal read-only property/);
  });

  it('names the packages and versions the page text came from in the corpus version', async () => {
    expect(Object.keys(PAGE_TEXT_SOURCES)).toEqual(['@vscode/web-custom-data', '@types/web']);
    const version = await demoCorpusVersion();
    for (const [name, at] of Object.entries(PAGE_TEXT_SOURCES)) expect(version).toContain(`+${name}@${at}+`);
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

describe('how-to questions', () => {
  it('are at least 30, each accepting only pages the demo corpus holds', () => {
    expect(HOWTO_QUESTIONS.length).toBeGreaterThanOrEqual(30);
    const urls = new Set(docs.map((doc) => doc.url));
    const missing = HOWTO_QUESTIONS.flatMap(({ question, accept }) =>
      accept.filter((url) => !urls.has(url)).map((url) => `${question}: ${url}`),
    );
    expect(missing).toEqual([]);
  });

  it.each(HOWTO_QUESTIONS.filter((judged) => judged.quoted))(
    '$question: a page it accepts among the first three',
    async ({ question, accept }) => {
      const results = await searchAsCaller(provider, question, 3);
      expect(
        results.some((result) => accept.includes(result.url)),
        results.map((result) => result.title).join(' | '),
      ).toBe(true);
    },
  );

  it('score at or above the recorded precision at 3 and nDCG at 10', async () => {
    const score = await measureHowTo(provider, HOWTO_QUESTIONS);
    expect(score.precisionAt3).toBeGreaterThanOrEqual(HOWTO_RECORDED.precisionAt3);
    expect(score.ndcgAt10).toBeGreaterThanOrEqual(HOWTO_RECORDED.ndcgAt10);
  });
});
