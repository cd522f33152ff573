import {
  cleanText,
  MAX_DESCRIPTION_LENGTH,
  MAX_EXTRA_SNIPPET_LENGTH,
  MAX_NOTE_LENGTH,
  MAX_RESULTS_PER_GROUP,
  MAX_SUGGESTION_LENGTH,
  MAX_SUGGESTIONS,
  MAX_TITLE_LENGTH,
  type WebSearchResult,
} from '@openmates/contract';
import {
  admitParsedUrl,
  isTabloidHost,
  metaUrlOf,
  providerText,
  sanitizeDescription,
  sanitizeExtraSnippets,
  sanitizePassthrough,
  sanitizeTitle,
  truncate,
} from './hygiene/index.ts';
import type { RawCandidate } from './provider.ts';
import { type ScopedQuery, withoutSiteOperators } from './providers/shared/site-operators.ts';
import { type ResultScope, scopeHost, scopeMiss } from './scope-filter.ts';

/** What building a group's results kept and why it dropped the rest (counts only: safe to log). */
export interface BuildStats {
  candidates: number;
  badUrl: number;
  tabloid: number;
  duplicate: number;
  /** Results whose host is outside the query's domains. */
  removed_out_of_scope: number;
  /** Results whose publication date is outside the query's time range (or unknown where it must be known). */
  removed_out_of_range: number;
}

/** A candidate that passed admission, with its URL parsed once for the later steps. */
interface AdmittedCandidate {
  url: string;
  parsed: URL;
  candidate: RawCandidate;
}

/**
 * The rules a candidate is admitted by: URL admission, secrets, the query's scope when it has one,
 * the tabloid filter when on, exact normalized-URL repeats. Result building applies them, and
 * paging counts the candidates that pass them to know when a query has enough (ADR 0100).
 */
export interface AdmissionRules {
  readonly filterTabloids: boolean;
  readonly redact: (text: string) => string;
  readonly scope?: ResultScope | undefined;
}

/** Why admission refused a candidate: the `BuildStats` counter it adds to. */
export type AdmissionRefusal = 'badUrl' | 'removed_out_of_scope' | 'removed_out_of_range' | 'tabloid' | 'duplicate';

/**
 * One candidate through the admission rules, in candidate order: its admitted URL (then added to
 * `seen`, the normalized URLs admitted before it), or why it is refused.
 */
export function admitCandidate(
  candidate: RawCandidate,
  rules: AdmissionRules,
  seen: Set<string>,
): { url: string; parsed: URL } | AdmissionRefusal {
  const { redact, scope } = rules;
  const parsed = admitParsedUrl(candidate.url);
  const url = parsed?.href;
  // A URL that carries a configured secret is dropped rather than rewritten into another URL.
  if (parsed === null || url === undefined || redact(url) !== url) return 'badUrl';
  const miss = scope === undefined ? undefined : scopeMiss(scope, scopeHost(parsed), candidate.published);
  if (miss === 'domain') return 'removed_out_of_scope';
  if (miss === 'date') return 'removed_out_of_range';
  if (rules.filterTabloids && isTabloidHost(parsed.hostname)) return 'tabloid';
  if (seen.has(url)) return 'duplicate';
  seen.add(url);
  return { url, parsed };
}

/**
 * Admission (`admitCandidate`), in candidate order, until `wanted` are admitted: no candidate past
 * them could be returned. The counts in `stats` are of the candidates examined.
 */
function admitCandidates(
  candidates: readonly RawCandidate[],
  rules: AdmissionRules,
  wanted: number,
  stats: BuildStats,
): AdmittedCandidate[] {
  const admitted: AdmittedCandidate[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (admitted.length === wanted) break;
    const verdict = admitCandidate(candidate, rules, seen);
    if (typeof verdict === 'string') stats[verdict] += 1;
    else admitted.push({ ...verdict, candidate });
  }
  return admitted;
}

/**
 * Turns a provider's raw candidates into contract results: URL admission, the query's scope
 * (domains and time range, when it has one, whatever the provider applied), tabloid filter, exact
 * normalized-URL dedupe, bounded plain text from each candidate's declared `format` (a generated
 * `note` too: HTML is parsed, plain text is only cleaned), redaction, and the
 * hard ceiling of 20, or `limit` when lower (the item's `count`: admission considers no result past
 * it, so building more would be thrown away). The caller bounds to the source budget afterwards.
 * A candidate's page excerpts become the result's `extra_snippets` only with `extraSnippets` (the
 * item asked for them; default false): otherwise they are never read.
 */
export function buildResults(
  candidates: readonly RawCandidate[],
  options: AdmissionRules & { limit?: number; extraSnippets?: boolean },
): { results: WebSearchResult[]; stats: BuildStats } {
  const { redact } = options;
  const stats: BuildStats = {
    candidates: candidates.length,
    badUrl: 0,
    tabloid: 0,
    duplicate: 0,
    removed_out_of_scope: 0,
    removed_out_of_range: 0,
  };
  const wanted = Math.min(MAX_RESULTS_PER_GROUP, options.limit ?? MAX_RESULTS_PER_GROUP);
  const unique = admitCandidates(candidates, options, wanted, stats);
  // Only what can be returned is turned into text.
  const results = unique.map(({ url, parsed, candidate }) => {
    // Anything but a declared `text` is parsed as HTML: markup is never let through by mistake.
    const format = candidate.format === 'text' ? 'text' : 'html';
    const result: WebSearchResult = {
      title: truncate(redact(sanitizeTitle(candidate.title, url, format)), MAX_TITLE_LENGTH),
      url,
      description: truncate(redact(sanitizeDescription(candidate.description, format)), MAX_DESCRIPTION_LENGTH),
    };
    const age = sanitizePassthrough(candidate.age, format);
    if (age !== undefined) result.age = redact(age);
    const language = sanitizePassthrough(candidate.language, format);
    if (language !== undefined) result.language = redact(language);
    if (typeof candidate.family_friendly === 'boolean') result.family_friendly = candidate.family_friendly;
    const meta = metaUrlOf(parsed, candidate.favicon, candidate.meta_url, format);
    // A provider's path that redaction would change is not kept: the URL's own path is shown.
    if (redact(meta.path) !== meta.path) meta.path = parsed.pathname;
    result.meta_url = meta;
    // Model synthesis, kept apart from the page's own description; output fitting drops it first.
    const note = typeof candidate.note === 'string' ? providerText(candidate.note, format, MAX_NOTE_LENGTH) : '';
    if (note !== '') result.note = truncate(redact(note), MAX_NOTE_LENGTH);
    if (options.extraSnippets === true) {
      const snippets = extraSnippetsOf(candidate, result.description, format, redact);
      if (snippets !== undefined) result.extra_snippets = snippets;
    }
    return result;
  });
  return { results, stats };
}

/**
 * A candidate's page excerpts as the result's `extra_snippets` (see `sanitizeExtraSnippets`),
 * redacted; one that redaction leaves repeating the description or an earlier one is dropped too.
 */
function extraSnippetsOf(
  candidate: RawCandidate,
  description: string,
  format: 'html' | 'text',
  redact: (text: string) => string,
): string[] | undefined {
  const cleaned = sanitizeExtraSnippets(candidate.extra_snippets, description, format);
  if (cleaned === undefined) return undefined;
  const redacted = cleaned.map((text) => truncate(redact(text), MAX_EXTRA_SNIPPET_LENGTH));
  return sanitizeExtraSnippets(redacted, description, 'text');
}

/**
 * Merges the groups' provider suggestions in group order: sanitized plain text without the
 * `site:` / `-site:` operators the engine added for its group's domains (the caller never typed
 * them), bounded like a query, without the queries themselves, deduplicated (case-insensitively),
 * at most 5.
 */
export function mergeSuggestions(
  perGroup: readonly (ScopedQuery & { suggestions: readonly unknown[] })[],
  redact: (text: string) => string,
): string[] {
  const queries = new Set(perGroup.map((g) => g.query.toLowerCase()));
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const group of perGroup)
    for (const raw of group.suggestions) {
      if (typeof raw !== 'string') continue;
      const text = truncate(
        redact(withoutSiteOperators(cleanText(raw).normalize('NFC'), group)),
        MAX_SUGGESTION_LENGTH,
      );
      const key = text.toLowerCase();
      if (text === '' || queries.has(key) || seen.has(key)) continue;
      seen.add(key);
      merged.push(text);
      if (merged.length === MAX_SUGGESTIONS) return merged;
    }
  return merged;
}
