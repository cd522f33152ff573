// Code, comments and docs say what they mean, or cite a page of the repository (an ADR in docs/adr/,
// docs/*.md, a README): never a document a reader of the repository cannot open. This scans every
// tracked file, so a new citation anywhere fails here with its file and line.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CITATION_PATTERNS, findCitations, normalize } from './outside-citations.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Lockfiles are written by their package managers: nothing in them is prose of ours. */
const GENERATED_LOCKFILES = new Set(['pnpm-lock.yaml']);

function trackedTextFiles(): { path: string; text: string }[] {
  const files: { path: string; text: string }[] = [];
  for (const path of execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0')) {
    if (!path || GENERATED_LOCKFILES.has(path.split('/').pop() ?? '')) continue;
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(ROOT, path));
    } catch {
      continue; // deleted in the work tree but not yet from the index
    }
    if (bytes.subarray(0, 8192).includes(0)) continue; // binary: images, fonts
    files.push({ path, text: bytes.toString('utf8') });
  }
  return files;
}

// The samples are assembled from parts, so this file holds no citation of its own.
const PLAN = ['SP', 'EC'].join('');
const SECTION = '\u00a7';
const SEED = ['se', 'ed'].join('');
const ENV_NOTES = ['ENVIRON', 'MENT.md'].join('');
const README = ['READ', 'ME'].join('');
const ROUND = ['rou', 'nd'].join('');
const SPEC_WORD = ['sp', 'ec'].join('');

describe('the outside-citation matcher', () => {
  const cited = (text: string) => findCitations(text).map((c) => [c.line, c.cites]);

  it('finds each kind of citation on one line', () => {
    for (const text of [
      `// the engine checks it (${PLAN} ${SECTION}8.3)`,
      `see ../${'shared'}/${PLAN}.md`,
      `# as ${SEED} 000 ${SECTION}10.5 says`,
      `the ${SEED}'s list of countries`,
      `(${ENV_NOTES}, "Python")`,
      `as the machine's ${'environment'} notes say`,
      `costs less CPU (${README}, "Seventh ${ROUND}")`,
      `see the ${README}'s ${ROUND} 7`,
      `kept since the fifth ${ROUND}`,
      `the command framework the ${SPEC_WORD} names`,
    ])
      expect(cited(text), text).toHaveLength(1);
  });

  it('finds a citation split across two comment lines, on the line it starts', () => {
    expect(cited(`const a = 1;\n// checked against\n// ${PLAN}\n// ${SECTION}8.3 says\n`)).toEqual([
      [3, 'the planning document'],
    ]);
    expect(cited(`/**\n * as ${SEED}\n * 004 recorded\n */`)).toEqual([[2, 'an exercise write-up']]);
    expect(cited(`x = 1\n# (${README},\n#   "Seventh ${ROUND}")`)).toEqual([[2, "the root README's benchmark rounds"]]);
  });

  it('leaves the ordinary words alone', () => {
    for (const text of [
      `fc.sample(arb, { ${SEED}: 7 })`,
      `a ${SEED}ed generator, so every run sends the same mix`,
      'import { x } from "../shared/http-get.ts";',
      'four alternated rounds of 2.5 s per side; a second round trip; round-robin',
      'OPENAPI_SPEC and the XDG spec; the spec of the HTML standard',
      `${README}.md in the package`,
      'ADR 0007 says why',
    ])
      expect(cited(text), text).toEqual([]);
  });

  it('normalizes comment leaders and whitespace, keeping line numbers', () => {
    const { flat, lineAt } = normalize('a\n  //  b   c\n # d\n * e\n');
    expect(flat).toBe('a b c d e ');
    expect(lineAt(flat.indexOf('d'))).toBe(3);
    expect(lineAt(flat.indexOf('e'))).toBe(4);
  });

  it('passes its own patterns: no pattern matches the source text that declares it', () => {
    const source = readFileSync(new URL('./outside-citations.ts', import.meta.url), 'utf8');
    expect(findCitations(source, CITATION_PATTERNS)).toEqual([]);
  });
});

describe('the repository', () => {
  const files = trackedTextFiles();

  it('cites no document outside it', () => {
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap(({ path, text }) =>
      findCitations(text).map((c) => `${path}:${c.line}: ${c.cites}: …${c.text}…`),
    );
    expect(found).toEqual([]);
  });
});
