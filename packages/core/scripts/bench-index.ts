/**
 * Local index benchmark: ingests 100,000 generated documents and runs 1,000 queries,
 * then prints documents/s and query p50/p99 against the targets. Run with `pnpm bench:index`.
 * Words follow a Zipf distribution over a generated vocabulary, so common words match many
 * documents (the slow case for BM25) and rare ones few, as in real text.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalDocument, openIndex } from '../src/providers/local/index.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 1_000);
const VOCABULARY = 50_000;
/** The most common words, which match most documents; queries use them only next to content words. */
const STOP_WORDS = 100;
const TARGET_DOCS_PER_S = 20_000;
const TARGET_P50_MS = 2;
const TARGET_P99_MS = 20;

// A seeded generator (mulberry32), so every run measures the same corpus.
let seed = 0x5eed;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const syllables = [
  'ka',
  'lo',
  'mi',
  're',
  'su',
  'ten',
  'dar',
  'vo',
  'qui',
  'an',
  'el',
  'or',
  'pla',
  'stru',
  'ne',
  'ix',
];
const vocabulary = Array.from({ length: VOCABULARY }, (_, rank) => {
  let word = '';
  for (let n = rank + 1; n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
  // One word in fifty is a camelCase identifier, as in technical text.
  return rank % 50 === 7 ? `${word}Handler` : word;
});
// Zipf (s = 1): cumulative weights 1/rank, sampled by binary search.
const cumulative = new Float64Array(VOCABULARY);
for (let i = 0, sum = 0; i < VOCABULARY; i++) cumulative[i] = sum += 1 / (i + 1);
const total = cumulative[VOCABULARY - 1] ?? 1;
function wordRank(): number {
  const target = random() * total;
  let low = 0;
  let high = VOCABULARY - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((cumulative[mid] ?? 0) < target) low = mid + 1;
    else high = mid;
  }
  return low;
}
const word = () => vocabulary[wordRank()] ?? 'word';
const sentence = (length: number) => Array.from({ length }, word).join(' ');

function* documents(): Generator<LocalDocument> {
  for (let i = 0; i < DOCUMENTS; i++) {
    const doc: LocalDocument = {
      url: `https://bench.example/doc/${i}`,
      title: sentence(4 + Math.floor(random() * 6)),
      body: sentence(60 + Math.floor(random() * 120)),
      language: i % 10 === 0 ? 'de' : 'en',
      family_friendly: i % 3 !== 0,
    };
    if (i % 4 === 0) doc.description = sentence(20);
    yield doc;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const dir = mkdtempSync(join(tmpdir(), 'openmates-bench-'));
try {
  const index = openIndex(join(dir, 'index.db'));
  // Generate first so that only the index is timed.
  const docs = [...documents()];
  const words = docs.reduce((sum, doc) => sum + doc.body.split(' ').length + doc.title.split(' ').length, 0);
  const startIngest = performance.now();
  index.addDocuments(docs);
  const ingestSeconds = (performance.now() - startIngest) / 1000;
  const docsPerSecond = DOCUMENTS / ingestSeconds;

  // Queries are 1–3 content words (Zipf-sampled below the 100 most common words, which behave as
  // stop words), a third of them led by a stop word ("the …", "how …"), as people type them.
  const contentWord = () => {
    for (;;) {
      const rank = wordRank();
      if (rank >= STOP_WORDS) return vocabulary[rank] ?? 'word';
    }
  };
  const queries = Array.from({ length: QUERIES }, (_, i) => {
    const content = Array.from({ length: 1 + (i % 3) }, contentWord);
    const text = (i % 3 === 0 ? [vocabulary[Math.floor(random() * STOP_WORDS)], ...content] : content).join(' ');
    if (i % 10 === 0) return { text, options: { limit: 10, language: 'de' } };
    if (i % 10 === 1) return { text, options: { limit: 10, familyFriendlyOnly: true } };
    return { text, options: { limit: 10 + (i % 11) } };
  });
  for (const query of queries.slice(0, 50)) index.search(query.text, query.options); // warm caches and statements
  const times: number[] = [];
  let hits = 0;
  for (const query of queries) {
    const start = performance.now();
    hits += index.search(query.text, query.options).length;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  // The worst case, reported apart: the single most common word, which matches nearly every document.
  const worstStart = performance.now();
  index.search(vocabulary[0] ?? 'word', { limit: 10 });
  const worst = performance.now() - worstStart;
  const p50 = percentile(times, 50);
  const p99 = percentile(times, 99);
  const stats = index.stats();
  index.close();

  const row = (name: string, value: string, target: string, ok: boolean) =>
    console.log(`${name.padEnd(22)} ${value.padStart(14)}   target ${target.padEnd(12)} ${ok ? 'ok' : 'MISSED'}`);
  console.log(
    `local index: ${DOCUMENTS.toLocaleString('en')} documents (${Math.round(words / DOCUMENTS)} words each on average, ` +
      `${(stats.bytes / 1e6).toFixed(0)} MB), ${QUERIES.toLocaleString('en')} queries of 1–3 content words (${(hits / QUERIES).toFixed(1)} hits each)`,
  );
  row(
    'ingest',
    `${Math.round(docsPerSecond).toLocaleString('en')} docs/s`,
    `≥ ${TARGET_DOCS_PER_S.toLocaleString('en')}`,
    docsPerSecond >= TARGET_DOCS_PER_S,
  );
  row('query p50', `${p50.toFixed(2)} ms`, `≤ ${TARGET_P50_MS} ms`, p50 <= TARGET_P50_MS);
  row('query p99', `${p99.toFixed(2)} ms`, `≤ ${TARGET_P99_MS} ms`, p99 <= TARGET_P99_MS);
  console.log(
    `(worst case, not in the percentiles: one stop word alone matching every document, ${worst.toFixed(0)} ms)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
