// Finds citations of documents that are not in the repository: the project's planning document and
// its numbered sections, the exercise write-ups that preceded it, the machine's setup notes, and the
// benchmark rounds that used to be told in the root README. A reader of the repository cannot open
// any of them, so the code and docs say what they mean instead, or cite an ADR (docs/adr/).
//
// Every pattern is written so that its own source text does not match it (a character class splits
// each word), so this file passes its own scan.

/** One kind of outside citation: what it cites, and how it is spelled. */
export interface CitationPattern {
  readonly cites: string;
  readonly pattern: RegExp;
}

const ORDINAL = '(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|latest|previous)';

export const CITATION_PATTERNS: readonly CitationPattern[] = [
  { cites: 'the planning document', pattern: /\bS[P]EC(?:\.md)?\b/g },
  { cites: 'a numbered section of an outside document', pattern: /[\u00a7]\s*\d/g },
  { cites: 'the planning document', pattern: /\bthe (?:specification|spec)\b(?! of\b)/gi },
  { cites: 'a shared document outside the repository', pattern: /(?:\.\.\/|\/work\/)share[d]\/[A-Z]/g },
  { cites: "the machine's setup notes", pattern: /\bENVIRONMEN[T]\.md\b/g },
  { cites: "the machine's setup notes", pattern: /\benvironmen[t] notes\b/gi },
  { cites: 'the style notes', pattern: /\bSTYL[E]\.md\b/g },
  { cites: 'an exercise write-up', pattern: /\bsee[d]s?\s+\d{3}\b/gi },
  { cites: 'an exercise write-up', pattern: /\bthe see[d](?:s|'s|s')(?=\W)/gi },
  {
    cites: "the root README's benchmark rounds",
    pattern: new RegExp(
      `\\bREADM[E](?:\\.md)?(?:'s)?[,:]?\\s+(?:["(]\\s*)?(?:(?:the|its)\\s+)?(?:${ORDINAL}\\s+|\\d+\\s+)?round`,
      'gi',
    ),
  },
  {
    cites: "the root README's benchmark rounds",
    pattern: new RegExp(`\\b${ORDINAL}\\s+rounds?\\b(?![- ](?:trips?|robin)\\b)`, 'gi'),
  },
  { cites: "the root README's benchmark rounds", pattern: /\br[o]unds?\s+\d+\b/gi },
];

/** A comment's leader at the start of a line: `//`, `#`, `*`, `/*`, `<!--`, `"""`, `--`, `;`, `>`. */
const COMMENT_LEADER = /^\s*(?:\/\/+!?|#+!?|\/?\*+\/?|<!--|-->|"""|'''|--|;+|>+)?\s*/;

/**
 * The text as one line: each line without its comment leader, whitespace runs made one space, and
 * lines joined by a space, so a citation broken over two comment lines reads as one. `lineAt` maps
 * an offset in that line back to the file's line number (from 1).
 */
export function normalize(text: string): { flat: string; lineAt: (offset: number) => number } {
  const starts: number[] = [];
  let flat = '';
  for (const line of text.split(/\r\n|\r|\n/)) {
    const body = line.replace(COMMENT_LEADER, '').replace(/\s+/g, ' ').trim();
    if (flat.length > 0) flat += ' ';
    starts.push(flat.length);
    flat += body;
  }
  const lineAt = (offset: number): number => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  return { flat, lineAt };
}

/** One citation found: the line it starts on, what it cites, and the text that matched. */
export interface Citation {
  readonly line: number;
  readonly cites: string;
  readonly text: string;
}

/**
 * Every outside citation in a file's text, in order. Matches that overlap or touch (a document's name and
 * the section number after it) are one citation, named by the pattern that matched first.
 */
export function findCitations(text: string, patterns: readonly CitationPattern[] = CITATION_PATTERNS): Citation[] {
  const { flat, lineAt } = normalize(text);
  const spans: { start: number; end: number; cites: string }[] = [];
  for (const { cites, pattern } of patterns)
    for (const match of flat.matchAll(pattern))
      spans.push({ start: match.index, end: match.index + match[0].length, cites });
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: typeof spans = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start <= last.end + 1) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged.map(({ start, end, cites }) => ({
    line: lineAt(start),
    cites,
    text: flat.slice(Math.max(0, start - 20), end + 20),
  }));
}
