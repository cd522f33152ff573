/**
 * Search quality benchmark of the local index on the demo corpus: the judged query set
 * (scripts/quality/judged-queries.ts) with success@1, success@3 and the mean reciprocal rank; how
 * many element, CSS type and at-rule pages come back with their literal name in the title; and the
 * how-to questions (scripts/quality/howto-questions.ts) with precision at 3 and nDCG at 10.
 * Run with `pnpm bench:quality`; BENCH_VERBOSE=1 lists every query.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalProvider } from '../src/providers/local/index.ts';
import { HOWTO_QUESTIONS, HOWTO_RECORDED } from './quality/howto-questions.ts';
import { JUDGED_QUERIES } from './quality/judged-queries.ts';
import { DEPTH, measureHowTo, measureJudged, measureLiterals, namedPages } from './quality/measure-quality.ts';

const TARGET_SUCCESS_AT_1 = 0.85;
const TARGET_SUCCESS_AT_3 = 0.95;

const dir = mkdtempSync(join(tmpdir(), 'openmates-bench-quality-'));
const provider = createLocalProvider({ indexPath: join(dir, 'index.db') });
try {
  const started = performance.now();
  await provider.ready();
  console.log(`demo corpus built in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const judged = await measureJudged(provider, JUDGED_QUERIES);
  const percent = (share: number) => `${(share * 100).toFixed(1)} %`.padStart(8);
  const verdict = (met: boolean) => (met ? 'meets' : 'MISSED');
  console.log(`judged queries: ${judged.outcomes.length}, expected MDN page among the first ${DEPTH} results`);
  console.log(
    `success@1   ${percent(judged.successAt1)}   target ≥ ${TARGET_SUCCESS_AT_1 * 100} %   ${verdict(judged.successAt1 >= TARGET_SUCCESS_AT_1)}`,
  );
  console.log(
    `success@3   ${percent(judged.successAt3)}   target ≥ ${TARGET_SUCCESS_AT_3 * 100} %   ${verdict(judged.successAt3 >= TARGET_SUCCESS_AT_3)}`,
  );
  console.log(`MRR         ${judged.meanReciprocalRank.toFixed(3).padStart(8)}`);
  for (const outcome of judged.outcomes)
    if (process.env.BENCH_VERBOSE || outcome.rank !== 1)
      console.log(`  ${String(outcome.rank ?? '-').padStart(2)}  ${outcome.query}  →  ${outcome.top.join(' | ')}`);

  const literals = await measureLiterals(provider, namedPages());
  console.log(
    `literal names kept in titles: ${literals.kept} of ${literals.total} element, CSS type and at-rule pages   ${verdict(literals.kept === literals.total)}`,
  );
  for (const lost of literals.lost) console.log(`  ${lost.literal}  →  ${lost.title ?? '(not found)'}  ${lost.url}`);

  const howTo = await measureHowTo(provider, HOWTO_QUESTIONS);
  console.log(`how-to questions: ${howTo.outcomes.length}, each with the pages a careful person accepts`);
  console.log(
    `precision@3 ${percent(howTo.precisionAt3)}   recorded ${percent(HOWTO_RECORDED.precisionAt3).trim()}   ${verdict(howTo.precisionAt3 >= HOWTO_RECORDED.precisionAt3)}`,
  );
  console.log(
    `nDCG@10     ${percent(howTo.ndcgAt10)}   recorded ${percent(HOWTO_RECORDED.ndcgAt10).trim()}   ${verdict(howTo.ndcgAt10 >= HOWTO_RECORDED.ndcgAt10)}`,
  );
  console.log(`answered@3  ${percent(howTo.answeredAt3)}   (an accepted page among the first three)`);
  for (const outcome of howTo.outcomes)
    if (process.env.BENCH_VERBOSE || outcome.ranks[0] !== 1)
      console.log(
        `  ${String(outcome.ranks[0] ?? '-').padStart(2)}  ${outcome.question}  →  ${outcome.top.join(' | ') || '(nothing)'}`,
      );
} finally {
  await provider.close?.();
  rmSync(dir, { recursive: true, force: true });
}
