import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildResults } from '../../src/build-results.ts';
import { htmlToText } from '../../src/hygiene/index.ts';
import { queryProvider } from '../../src/pipeline/query-provider.ts';
import type { LocalProvider } from '../../src/providers/local/index.ts';
import type { HowToQuestion } from './howto-questions.ts';
import type { JudgedQuery } from './judged-queries.ts';

/**
 * Search quality of the local index on the demo corpus, measured on what a caller gets: each query
 * goes through the local provider and the engine's result building (text format, hygiene, bounds).
 */

/** Results looked at per query; MRR counts a page found below this as not found. */
export const DEPTH = 10;

/** The result URLs and titles a caller gets for `query`, best first. */
export async function searchAsCaller(
  provider: LocalProvider,
  query: string,
  depth = DEPTH,
): Promise<{ url: string; title: string; description: string }[]> {
  const answer = await queryProvider(provider, {
    id: 1,
    query,
    count: depth,
    fetchCount: depth,
    country: 'US',
    safesearch: 'moderate',
    filter_tabloids: false,
  });
  return buildResults(answer.candidates, { filterTabloids: false, redact: (text) => text }).results;
}

export interface JudgedOutcome extends JudgedQuery {
  /** 1-based position of the expected page, or undefined when it is not in the first DEPTH. */
  rank: number | undefined;
  /** The first three titles returned. */
  top: string[];
}

export interface JudgedSummary {
  outcomes: JudgedOutcome[];
  /** Share of queries whose expected page is first. */
  successAt1: number;
  /** Share of queries whose expected page is among the first three. */
  successAt3: number;
  /** Mean of 1/rank (0 when not found). */
  meanReciprocalRank: number;
}

/** Runs the judged queries and computes success@1, success@3 and the mean reciprocal rank. */
export async function measureJudged(provider: LocalProvider, queries: readonly JudgedQuery[]): Promise<JudgedSummary> {
  const outcomes: JudgedOutcome[] = [];
  for (const judged of queries) {
    const results = await searchAsCaller(provider, judged.query);
    const at = results.findIndex((result) => result.url === judged.expect);
    outcomes.push({ ...judged, rank: at < 0 ? undefined : at + 1, top: results.slice(0, 3).map((r) => r.title) });
  }
  const share = (hit: (outcome: JudgedOutcome) => boolean) =>
    outcomes.length === 0 ? 0 : outcomes.filter(hit).length / outcomes.length;
  return {
    outcomes,
    successAt1: share((o) => o.rank === 1),
    successAt3: share((o) => o.rank !== undefined && o.rank <= 3),
    meanReciprocalRank: outcomes.reduce((sum, o) => sum + (o.rank === undefined ? 0 : 1 / o.rank), 0) / outcomes.length,
  };
}

/** A reference page whose title should carry a literal name (`<div>`, `<angle>`, `calc()`, `@media`). */
export interface NamedPage {
  url: string;
  literal: string;
}

interface Compat {
  __compat?: { mdn_url?: string; description?: string };
}

/**
 * Every element, CSS type and at-rule page BCD lists, with the name MDN writes it under: `<div>`,
 * `<circle>`, `@media`, and BCD's own label for types that have one (`<angle>`, `calc()`). Read from
 * BCD here, independently of the corpus builder.
 */
export function namedPages(): NamedPage[] {
  const require = createRequire(import.meta.url);
  const bcd = JSON.parse(readFileSync(require.resolve('@mdn/browser-compat-data'), 'utf8')) as Record<
    string,
    Record<string, Record<string, Compat>>
  >;
  const pages = new Map<string, NamedPage>();
  const groups: [area: string, kind: string, spell: (key: string) => string][] = [
    ['html', 'elements', (key) => `<${key}>`],
    ['svg', 'elements', (key) => `<${key}>`],
    ['mathml', 'elements', (key) => `<${key}>`],
    ['css', 'types', (key) => `<${key}>`],
    ['css', 'at-rules', (key) => `@${key}`],
  ];
  for (const [area, kind, spell] of groups)
    for (const [key, node] of Object.entries(bcd[area]?.[kind] ?? {})) {
      const compat = node.__compat;
      if (compat?.mdn_url === undefined) continue;
      const label = compat.description === undefined ? '' : htmlToText(compat.description, 300);
      if (!pages.has(compat.mdn_url)) pages.set(compat.mdn_url, { url: compat.mdn_url, literal: label || spell(key) });
    }
  return [...pages.values()];
}

export interface LiteralSummary {
  total: number;
  /** Pages found by searching their literal name whose returned title still holds it. */
  kept: number;
  /** The rest: not found in the first DEPTH results, or found with the name lost. */
  lost: { literal: string; url: string; title: string | undefined }[];
}

/** Searches each named page by its literal name and checks the title a caller gets keeps the name. */
export async function measureLiterals(provider: LocalProvider, pages: readonly NamedPage[]): Promise<LiteralSummary> {
  const lost: LiteralSummary['lost'] = [];
  for (const page of pages) {
    const found = (await searchAsCaller(provider, page.literal)).find((result) => result.url === page.url);
    if (found === undefined || !found.title.includes(page.literal))
      lost.push({ literal: page.literal, url: page.url, title: found?.title });
  }
  return { total: pages.length, kept: pages.length - lost.length, lost };
}

/** Results a how-to question's precision is taken over. */
export const PRECISION_DEPTH = 3;

export interface HowToOutcome extends HowToQuestion {
  /** 1-based positions of the accepted pages among the first DEPTH results. */
  ranks: number[];
  /** Accepted pages among the first PRECISION_DEPTH, divided by PRECISION_DEPTH. */
  precisionAt3: number;
  /** Discounted gain of the accepted pages among the first DEPTH over the best possible (binary gains). */
  ndcgAt10: number;
  /** The first three titles returned. */
  top: string[];
}

export interface HowToSummary {
  outcomes: HowToOutcome[];
  /** Mean precision at 3. */
  precisionAt3: number;
  /** Mean nDCG at 10. */
  ndcgAt10: number;
  /** Share of questions with an accepted page among the first three. */
  answeredAt3: number;
}

/** Runs the how-to questions and scores them by precision at 3 and nDCG at 10. */
export async function measureHowTo(
  provider: LocalProvider,
  questions: readonly HowToQuestion[],
): Promise<HowToSummary> {
  const outcomes: HowToOutcome[] = [];
  for (const judged of questions) {
    const results = await searchAsCaller(provider, judged.question);
    const accepted = new Set(judged.accept);
    const ranks = results.flatMap((result, at) => (accepted.has(result.url) ? [at + 1] : []));
    const gain = (positions: number[]) => positions.reduce((sum, rank) => sum + 1 / Math.log2(rank + 1), 0);
    const ideal = gain(Array.from({ length: Math.min(accepted.size, DEPTH) }, (_, at) => at + 1));
    outcomes.push({
      ...judged,
      ranks,
      precisionAt3: ranks.filter((rank) => rank <= PRECISION_DEPTH).length / PRECISION_DEPTH,
      ndcgAt10: ideal === 0 ? 0 : gain(ranks) / ideal,
      top: results.slice(0, 3).map((r) => r.title),
    });
  }
  const mean = (of: (outcome: HowToOutcome) => number) =>
    outcomes.length === 0 ? 0 : outcomes.reduce((sum, outcome) => sum + of(outcome), 0) / outcomes.length;
  return {
    outcomes,
    precisionAt3: mean((o) => o.precisionAt3),
    ndcgAt10: mean((o) => o.ndcgAt10),
    answeredAt3: mean((o) => (o.ranks[0] !== undefined && o.ranks[0] <= PRECISION_DEPTH ? 1 : 0)),
  };
}
