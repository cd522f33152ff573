import {
  cleanText,
  displayUrl,
  type RequestId,
  type ResultGroup,
  type SearchBudget,
  type WebSearchResponse,
  type WebSearchResult,
} from '@openmates/contract';
import wrapAnsi from 'wrap-ansi';
import { styler } from '../lib/style.ts';

export interface RenderOptions {
  /** Columns to wrap to (the terminal's width; `COLUMNS` or 80 when not a terminal). */
  width: number;
  color: boolean;
  /** The request's queries in order, for the block headings (groups come in request order). */
  queries: readonly (string | undefined)[];
  /** The result page each query asked for, by its group's id (the first when absent). */
  pages?: ReadonlyMap<string, number>;
}

type Style = ReturnType<typeof styler>;

const INDENT = '      ';

function wrapIndented(text: string, width: number, indent: string): string {
  return wrapAnsi(text, Math.max(20, width - indent.length), { hard: true, trim: true })
    .split('\n')
    .map((line) => indent + line)
    .join('\n');
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** The notices of a cut: the same sentences as the GUI's. */
function sourcesCutLine(n: number): string {
  return `${n} ${plural(n, 'result was', 'results were')} cut: the request’s source budget was spent.`;
}
function fittedOutLine(n: number): string {
  return `${n} ${plural(n, 'result was', 'results were')} removed to fit the response size.`;
}

/** `text` as a terminal hyperlink (OSC 8) to `url`: terminals that know none show the text alone. */
function hyperlink(url: string, text: string): string {
  return `\u001B]8;;${url}\u0007${text}\u001B]8;;\u0007`;
}

/** The muted line under a result: its age and language, and `not family friendly` only when it is not. */
export function metaLine(result: Pick<WebSearchResult, 'age' | 'language' | 'family_friendly'>): string {
  const parts: string[] = [];
  if (result.age !== undefined) parts.push(cleanText(result.age));
  if (result.language !== undefined) parts.push(cleanText(result.language));
  if (result.family_friendly === false) parts.push('not family friendly');
  return parts.filter((part) => part !== '').join(' · ');
}

/**
 * A result as a search engine shows it: the title, the display URL (host › path), the description
 * with the page excerpts indented under it, and one muted line of age and language. With colour (a terminal), the title and display URL are
 * hyperlinks to the result; without (a pipe, a file, `NO_COLOR`), the full URL follows the display
 * URL on a line of its own, since plain text carries no link.
 */
function renderResult(result: WebSearchResult, index: number, options: RenderOptions, style: Style): string[] {
  const lines: string[] = [];
  const url = cleanText(result.url);
  const link = (text: string) => (options.color ? hyperlink(url, text) : text);
  const number = `${index + 1}.`.padEnd(INDENT.length - 2);
  const title = wrapIndented(cleanText(result.title), options.width, INDENT)
    .split('\n')
    .map((line) => line.slice(INDENT.length))
    .map((line) => style('bold', link(line)));
  lines.push(`  ${number}${title[0] ?? ''}`, ...title.slice(1).map((line) => INDENT + line));
  lines.push(`${INDENT}${style('green', link(cleanText(displayUrl(result.url))))}`);
  if (!options.color) lines.push(`${INDENT}${url}`);
  if (result.description !== '') lines.push(wrapIndented(cleanText(result.description), options.width, INDENT));
  // Page excerpts, indented under the description, each marked so a wrapped one reads as one.
  for (const excerpt of result.extra_snippets ?? []) {
    const wrapped = wrapIndented(cleanText(excerpt), options.width, `${INDENT}    `).split('\n');
    lines.push(`${INDENT}  › ${(wrapped[0] ?? '').trimStart()}`, ...wrapped.slice(1));
  }
  if (result.note !== undefined)
    lines.push(wrapIndented(`Note from the provider’s model: ${cleanText(result.note)}`, options.width, INDENT));
  const meta = metaLine(result);
  if (meta !== '') lines.push(style('dim', wrapIndented(meta, options.width, INDENT)));
  return lines;
}

/** A block's first line: `[id] query`. */
function headingOf(id: RequestId, query: string | undefined, style: Style): string {
  return `${style('bold', `[${cleanText(String(id))}]`)}${query === undefined ? '' : ` ${cleanText(query)}`}`;
}

function renderGroup(group: ResultGroup, query: string | undefined, options: RenderOptions, style: Style): string {
  // Every shown string is cleaned of control characters again: a remote server's text must not
  // be able to drive the terminal.
  const lines = [headingOf(group.id, query, style)];
  if (group.altered_query !== undefined)
    lines.push(`  ${style('yellow', `Showing results for “${cleanText(group.altered_query)}”`)}`);
  const cut = (group.sources_cut ?? 0) + (group.results_fitted_out ?? 0);
  // With several providers listed, who answered this query (the last one tried, when it failed).
  if (group.provider !== undefined) lines.push(`  ${style('dim', `Answered by ${cleanText(group.provider)}`)}`);
  if (group.error) {
    lines.push(`  ${style('red', `Failed (${group.error.code}):`)} ${cleanText(group.error.message)}`);
  } else if (group.results.length === 0) {
    lines.push(`  ${style('yellow', cut > 0 ? 'No results left to show.' : 'No results.')}`);
  } else {
    group.results.forEach((result, index) => {
      lines.push(...renderResult(result, index, options, style));
      if (index < group.results.length - 1) lines.push('');
    });
  }
  if (group.sources_cut) lines.push(`  ${style('yellow', sourcesCutLine(group.sources_cut))}`);
  if (group.results_fitted_out) lines.push(`  ${style('yellow', fittedOutLine(group.results_fitted_out))}`);
  const page = pageLine(options.pages?.get(String(group.id)) ?? 1, group.more);
  if (page !== undefined) lines.push(`  ${style('dim', page)}`);
  return lines.join('\n');
}

/** Where the group stands among its pages: `page 2 · more available`, `page 3 · no more results`; nothing for a lone first page. */
export function pageLine(page: number, more: boolean | undefined): string | undefined {
  if (more === true) return `page ${page} · more available`;
  return more === false && page > 1 ? `page ${page} · no more results` : undefined;
}

/** What the request spent, and what was cut or removed, in the GUI's words. */
function budgetLines(budget: SearchBudget): string[] {
  const lines = [
    `Spent ${budget.calls_used} ${plural(budget.calls_used, 'search call', 'search calls')}; ${budget.sources_admitted} of ${budget.max_sources} distinct sources admitted.`,
  ];
  if (budget.sources_cut > 0) lines.push(sourcesCutLine(budget.sources_cut));
  const fitted = [
    [budget.notes_fitted_out, 'note', 'notes'],
    [budget.suggestions_fitted_out, 'suggestion', 'suggestions'],
    [budget.extra_snippets_fitted_out ?? 0, 'excerpt', 'excerpts'],
    [budget.results_fitted_out, 'result', 'results'],
  ] as const;
  const parts = fitted.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${plural(n, one, many)}`);
  if (parts.length > 0) lines.push(`Removed to fit the response size: ${parts.join(', ')}.`);
  return lines;
}

/**
 * The response as text: one block per query, numbered results with every field a person reads,
 * explicit empty and failed groups, then the failure summary, related searches, the budget and
 * the provider.
 */
export function renderHuman(response: WebSearchResponse, options: RenderOptions): string {
  const blocks = response.results.map((group, index) => renderGroupBlock(group, options.queries[index], options));
  return `${blocks.join('\n\n')}\n\n${renderFooter(response, options)}`;
}

/** One query's block, as `renderHuman` prints it (printed alone as the group finishes when piped). */
export function renderGroupBlock(group: ResultGroup, query: string | undefined, options: RenderOptions): string {
  return renderGroup(group, query, options, styler(options.color));
}

/** A query that has not finished yet, as a block of the in-place terminal view: its heading and one status line. */
export function renderPendingBlock(
  id: RequestId,
  query: string | undefined,
  status: string,
  options: Pick<RenderOptions, 'color'>,
): string {
  const style = styler(options.color);
  return `${headingOf(id, query, style)}\n  ${style('dim', status)}`;
}

/**
 * One query as a line of the in-place view's compact form (when the blocks would not fit the
 * terminal): its heading and either `status` (still running) or what its finished group holds.
 */
export function renderStatusLine(
  id: RequestId,
  query: string | undefined,
  group: ResultGroup | undefined,
  status: string,
  options: Pick<RenderOptions, 'color'>,
): string {
  const style = styler(options.color);
  const heading = headingOf(id, query, style);
  if (group === undefined) return `${heading}  ${style('dim', status)}`;
  if (group.error) return `${heading}  ${style('red', `Failed (${group.error.code})`)}`;
  const n = group.results.length;
  return `${heading}  ${n === 0 ? style('yellow', 'No results.') : style('green', `${n} ${plural(n, 'result', 'results')}`)}`;
}

/** The last line of the compact form: where the results went. */
export function renderStatusFooter(options: Pick<RenderOptions, 'color'>): string {
  return styler(options.color)('dim', 'The results print here once every query has finished.');
}

/** US dollars as an estimate reads: two decimals from a dollar up, two significant digits below. */
function usd(value: number): string {
  return value >= 1 ? `$${value.toFixed(2)}` : `$${Number(value.toPrecision(2))}`;
}

/**
 * What the search cost, in one line (docs/usage-and-quotas.md): its provider calls, the queries
 * answered from the cache or by an identical call in flight, and the estimate when priced.
 */
export function usageLine(response: Pick<WebSearchResponse, 'usage'>): string {
  const totals = response.usage ?? { calls: 0, from_cache: 0, shared: 0 };
  const parts = [`${totals.calls} provider ${plural(totals.calls, 'call', 'calls')}`];
  if (totals.from_cache > 0) parts.push(`${totals.from_cache} from the cache`);
  if (totals.shared > 0) parts.push(`${totals.shared} shared`);
  if (totals.cost_usd !== undefined) parts.push(`about ${usd(totals.cost_usd)}`);
  return `Usage: ${parts.join(' · ')}.`;
}

/** What follows the groups: the failure summary, related searches, the budget and the provider. */
export function renderFooter(response: WebSearchResponse, options: Pick<RenderOptions, 'color'>): string {
  const style = styler(options.color);
  const footer: string[] = [];
  if (response.error !== undefined)
    footer.push(
      style('red', `Error${response.code === undefined ? '' : ` (${response.code})`}: ${cleanText(response.error)}`),
    );
  const suggestions = response.suggestions_follow_up_requests ?? [];
  if (suggestions.length > 0) footer.push('Related searches:', ...suggestions.map((s) => `  - ${cleanText(s)}`));
  if (response.budget) footer.push(...budgetLines(response.budget).map((line) => style('dim', line)));
  if (response.usage) footer.push(style('dim', usageLine(response)));
  footer.push(style('dim', `Results from ${cleanText(response.provider)}`));
  return `${footer.join('\n')}\n`;
}
