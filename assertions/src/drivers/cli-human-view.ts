import type { PersonBudget, PersonGroup, PersonResponseView, PersonResult, PersonView } from '../person-view.ts';

/**
 * What `openmates search` must show in its human output (not `--json`), and how this parser reads
 * each field back, so the CLI is held to the same person view as the GUI:
 * - a refused request (stdout): `<heading> (<code>): <message>`, then `  <path>: <message>` per issue
 *   (`(request)` for the body itself);
 * - per group: `[<id>] <query>`; `  Failed (<code>): <message>`; per result `  <n>.  <title>`, then,
 *   indented six spaces, the URL, the description (when not empty), `Note from the provider’s model:
 *   <note>`, and `Age: … · Language: … · Family friendly: yes|no · Favicon: <host>` (each when
 *   present); `  <n> results were cut: …` (sources_cut) and `  <n> results were removed to fit …`
 *   (results_fitted_out);
 * - after the groups: `Error (<code>): <message>`, `Related searches:` with `  - <suggestion>` lines,
 *   `Spent <calls> search calls; <admitted> of <max> distinct sources admitted.`, `<n> results were
 *   cut: …`, `Removed to fit the response size: <n> notes, <n> suggestions, <n> results.`, and
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
  'groups[].results[].title',
  'groups[].results[].url',
  'groups[].results[].description',
  'groups[].results[].note',
  'groups[].results[].age',
  'groups[].results[].language',
  'groups[].results[].family_friendly',
  'groups[].results[].favicon',
  'suggestions[]',
  'budget.*',
  'provider',
] as const;

const INDENT = '      ';
const REFUSAL = /^(?:The search request is not valid|The search could not run) \(([a-z_]+)\): (.*)$/;
const META_LABELS: Record<string, keyof PersonResult> = {
  Age: 'age',
  Language: 'language',
  'Family friendly': 'family_friendly',
  Favicon: 'favicon',
};
const META_LINE = /^(?:Age|Language|Family friendly|Favicon): /;
const NOTE = 'Note from the provider’s model: ';
const FITTED_KEYS: Record<string, keyof PersonBudget> = {
  note: 'notes_fitted_out',
  notes: 'notes_fitted_out',
  suggestion: 'suggestions_fitted_out',
  suggestions: 'suggestions_fitted_out',
};
const CUT = /^(\d+) results? (?:was|were) cut: /;
const FITTED = /^(\d+) results? (?:was|were) removed to fit the response size\.$/;

/** Reads the CLI's human output back into the person view. Throws on a line it cannot place. */
export function cliHumanView(stdout: string): PersonView {
  const lines = stdout.replace(/\n$/, '').split('\n');
  const refusal = REFUSAL.exec(lines[0] ?? '');
  if (refusal) {
    return {
      kind: 'error',
      code: refusal[1] ?? '',
      message: refusal[2] ?? '',
      issues: lines.slice(1).map((line) => {
        const body = line.replace(/^ {2}/, '');
        const at = body.indexOf(': ');
        const path = body.slice(0, at);
        return { path: path === '(request)' ? '' : path, message: body.slice(at + 2) };
      }),
    };
  }

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
        if (failed) group.error = { code: failed[1] ?? '', message: failed[2] ?? '' };
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
    if (line === '' || line === 'Related searches:') continue;
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

/** One result's lines (title, URL, then description, note and meta line as present). */
function resultOf(lines: string[]): PersonResult {
  const [title = '', url = '', ...rest] = lines;
  const result: PersonResult = { title, url, description: '' };
  if (rest.length > 0 && META_LINE.test(rest.at(-1) ?? '')) {
    for (const part of (rest.pop() ?? '').split(' · ')) {
      const at = part.indexOf(': ');
      const key = META_LABELS[part.slice(0, at)];
      if (key) result[key] = part.slice(at + 2);
    }
  }
  if (rest.length > 0 && (rest.at(-1) ?? '').startsWith(NOTE)) result.note = (rest.pop() ?? '').slice(NOTE.length);
  result.description = rest.join(' ');
  return result;
}
