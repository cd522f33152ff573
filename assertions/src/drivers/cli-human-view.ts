import type {
  PersonBudget,
  PersonGroup,
  PersonLineView,
  PersonResponseView,
  PersonResult,
  PersonView,
} from '../person-view.ts';

/**
 * What `openmates search` must show in its human output (not `--json`), and how this parser reads
 * each field back, so the CLI is held to the same person view as the GUI:
 * - a refused request: nothing on stdout and one line on stderr, `openmates: …`, holding every issue
 *   as `<path>: <message>` (the message alone for the body itself), or the message when there are
 *   none (ADR 0122; the exit code says the error's class);
 * - per group: `[<id>] <query>`; `  Failed (<code>): <message>`; per result `  <n>.  <title>`, then,
 *   indented six spaces, the display URL (`host › path › segments`), the URL (plain text carries no
 *   link), the description (when not empty), each page excerpt as `  › <excerpt>` (indented under the
 *   description), `Note from the provider’s model: <note>`, and one line
 *   `<age> · <language> · not family friendly` (each part when present; the last only when the
 *   result is not family friendly); `  <n> results were cut: …` (sources_cut) and `  <n> results
 *   were removed to fit …` (results_fitted_out); `  Showing results for “<altered query>”` under the
 *   heading (altered_query) and `  page <n> · more available` last (more; `· no more results` says
 *   a later page is the last);
 * - after the groups: `Error (<code>): <message>`, `Related searches:` with `  - <suggestion>` lines,
 *   `Spent <calls> search calls; <admitted> of <max> distinct sources admitted.`, `<n> results were
 *   cut: …`, `Removed to fit the response size: <n> notes, <n> suggestions, <n> excerpts, <n> results.`, and
 *   `Results from <provider>`.
 * The driver runs the CLI with `COLUMNS` wide enough that nothing wraps, and `NO_COLOR`.
 */
export const CLI_PERSON_FIELDS = [
  'error.code',
  'error.message',
  'issues[].path',
  'issues[].message',
  'groups[].id',
  'groups[].error.code',
  'groups[].error.message',
  'groups[].sources_cut',
  'groups[].results_fitted_out',
  'groups[].altered_query',
  'groups[].more',
  'groups[].results[].title',
  'groups[].results[].url',
  'groups[].results[].display_url',
  'groups[].results[].description',
  'groups[].results[].note',
  'groups[].results[].extra_snippets',
  'groups[].results[].age',
  'groups[].results[].language',
  'groups[].results[].family_friendly',
  'suggestions[]',
  'budget.*',
  'provider',
] as const;

const INDENT = '      ';
const NOT_FAMILY_FRIENDLY = 'not family friendly';
/** A language tag as providers give it (`en`, `pt-BR`, `zh-hans`). */
const LANGUAGE = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;
/** An age as providers give it: a date or a time ago (`2 days ago`, `January 5, 2025`, `2021-03-04`, `<1 hour`). */
const AGE =
  /^(?:.{1,30} ago|<?\d+ (?:second|minute|hour|day|week|month|year)s?|\d{4}-\d{2}-\d{2}(?:T[\d:.+Z-]*)?|[A-Z][a-z]+ \d{1,2}, \d{4})$/;
const NOTE = 'Note from the provider’s model: ';
const EXCERPT = '  › ';
const FITTED_KEYS: Record<string, keyof PersonBudget> = {
  note: 'notes_fitted_out',
  notes: 'notes_fitted_out',
  suggestion: 'suggestions_fitted_out',
  suggestions: 'suggestions_fitted_out',
  excerpt: 'extra_snippets_fitted_out',
  excerpts: 'extra_snippets_fitted_out',
};
const CUT = /^(\d+) results? (?:was|were) cut: /;
const FITTED = /^(\d+) results? (?:was|were) removed to fit the response size\.$/;

/**
 * Reads the CLI's human output back into the person view, or a refusal's one stderr line into a
 * line view. Throws on a line it cannot place, and on a refusal said in more than one line.
 */
export function cliHumanView(stdout: string, stderr = ''): PersonView | PersonLineView {
  if (stdout === '') {
    // The engine's log lines (`OPENMATES_LOG_LEVEL`, JSON) share stderr; a person reads the rest.
    const said = stderr
      .replace(/\n$/, '')
      .split('\n')
      .filter((line) => !line.startsWith('{'));
    if (said.length !== 1 || !said[0]?.startsWith('openmates: '))
      throw new Error(`cli human output: a refusal must be one stderr line, got ${JSON.stringify(stderr)}`);
    return { kind: 'line', text: said[0] };
  }
  const lines = stdout.replace(/\n$/, '').split('\n');

  const view: PersonResponseView = { kind: 'response', provider: '', suggestions: [], groups: [] };
  let i = 0;
  while (i < lines.length && lines[i]?.startsWith('[')) {
    const heading = /^\[(.*?)\](?: |$)/.exec(lines[i] ?? '');
    const group: PersonGroup = { id: heading?.[1] ?? '', results: [] };
    i++;
    let result: string[] | undefined;
    const flush = () => {
      if (result) group.results.push(resultOf(result));
      result = undefined;
    };
    for (; i < lines.length; i++) {
      const line = lines[i] ?? '';
      if (line !== '' && !line.startsWith(' ')) break;
      if (line === '') continue;
      const title = /^ {2}(\d+)\.\s+(.*)$/.exec(line);
      if (title) {
        flush();
        result = [title[2] ?? ''];
      } else if (line.startsWith(INDENT) && result) {
        result.push(line.slice(INDENT.length));
      } else {
        flush();
        const text = line.slice(2);
        const failed = /^Failed \(([a-z_]+)\): (.*)$/.exec(text);
        const cut = CUT.exec(text);
        const fitted = FITTED.exec(text);
        const answeredBy = /^Answered by (.*)$/.exec(text);
        const altered = /^Showing results for “(.*)”$/.exec(text);
        const page = /^page \d+ · (more available|no more results)$/.exec(text);
        if (answeredBy) group.provider = answeredBy[1] ?? '';
        else if (altered) group.altered_query = altered[1] ?? '';
        else if (page) {
          if (page[1] === 'more available') group.more = true;
        } else if (failed) group.error = { code: failed[1] ?? '', message: failed[2] ?? '' };
        else if (cut) group.sources_cut = Number(cut[1]);
        else if (fitted) group.results_fitted_out = Number(fitted[1]);
        else if (text !== 'No results.' && text !== 'No results left to show.')
          throw new Error(`cli human output: a group line out of place: ${JSON.stringify(line)}`);
      }
    }
    flush();
    view.groups.push(group);
  }

  let budget: PersonBudget | undefined;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const error = /^Error(?: \(([a-z_]+)\))?: (.*)$/.exec(line);
    const spent = /^Spent (\d+) search calls?; (\d+) of (\d+) distinct sources admitted\.$/.exec(line);
    const cut = CUT.exec(line);
    const fitted = /^Removed to fit the response size: (.*)\.$/.exec(line);
    const provider = /^Results from (.*)$/.exec(line);
    // The usage line (calls, cache, estimate): checked against the document by the CLI's own tests.
    if (line === '' || line === 'Related searches:' || /^Usage: \d+ provider calls?( · .*)?\.$/.test(line)) continue;
    if (line.startsWith('  - ')) view.suggestions.push(line.slice(4));
    else if (error) view.error = { message: error[2] ?? '', ...(error[1] ? { code: error[1] } : {}) };
    else if (spent)
      budget = {
        calls_used: Number(spent[1]),
        sources_admitted: Number(spent[2]),
        max_sources: Number(spent[3]),
        sources_cut: 0,
        notes_fitted_out: 0,
        suggestions_fitted_out: 0,
        extra_snippets_fitted_out: 0,
        results_fitted_out: 0,
      };
    else if (cut && budget) budget.sources_cut = Number(cut[1]);
    else if (fitted && budget)
      for (const part of (fitted[1] ?? '').split(', ')) {
        const [n, word] = part.split(' ');
        budget[FITTED_KEYS[word ?? ''] ?? 'results_fitted_out'] = Number(n);
      }
    else if (provider) view.provider = provider[1] ?? '';
    else throw new Error(`cli human output: a line out of place: ${JSON.stringify(line)}`);
  }
  if (budget) view.budget = budget;
  return view;
}

/**
 * The parts of a result's muted line (`<age> · <language> · not family friendly`), or undefined when
 * `line` is not one. Without labels, a line of one part is an age or a language by its form.
 */
function metaParts(line: string): Pick<PersonResult, 'age' | 'language' | 'family_friendly'> | undefined {
  const parts = line.split(' · ');
  const meta: Pick<PersonResult, 'age' | 'language' | 'family_friendly'> = {};
  if (parts.at(-1) === NOT_FAMILY_FRIENDLY) {
    meta.family_friendly = NOT_FAMILY_FRIENDLY;
    parts.pop();
  }
  if (parts.length === 2) {
    if (!LANGUAGE.test(parts[1] ?? '')) return undefined;
    meta.age = parts[0] ?? '';
    meta.language = parts[1] ?? '';
  } else if (parts.length === 1) {
    const part = parts[0] ?? '';
    if (LANGUAGE.test(part)) meta.language = part;
    else if (AGE.test(part)) meta.age = part;
    else return undefined;
  } else if (parts.length > 2) return undefined;
  return meta;
}

/** One result's lines (title, display URL, URL, then description, excerpts, note and muted line as present). */
function resultOf(lines: string[]): PersonResult {
  const [title = '', displayUrl = '', url = '', ...rest] = lines;
  const result: PersonResult = { title, url, display_url: displayUrl, description: '' };
  const meta = rest.length > 0 ? metaParts(rest.at(-1) ?? '') : undefined;
  if (meta) {
    rest.pop();
    Object.assign(result, meta);
  }
  if (rest.length > 0 && (rest.at(-1) ?? '').startsWith(NOTE)) result.note = (rest.pop() ?? '').slice(NOTE.length);
  const excerpts: string[] = [];
  while (rest.length > 0 && (rest.at(-1) ?? '').startsWith(EXCERPT))
    excerpts.unshift((rest.pop() ?? '').slice(EXCERPT.length));
  if (excerpts.length > 0) result.extra_snippets = excerpts;
  result.description = rest.join(' ');
  return result;
}
