import { cleanText, type ResultGroup, type WebSearchResponse } from '@openmates/contract';
import wrapAnsi from 'wrap-ansi';
import { styler } from '../lib/style.ts';

export interface RenderOptions {
  /** Columns to wrap to (the terminal's width; 80 when not a terminal). */
  width: number;
  color: boolean;
  /** The request's queries in order, for the block headings (groups come in request order). */
  queries: readonly (string | undefined)[];
}

const INDENT = '      ';

function wrapIndented(text: string, width: number, indent: string): string {
  return wrapAnsi(text, Math.max(20, width - indent.length), { hard: true, trim: true })
    .split('\n')
    .map((line) => indent + line)
    .join('\n');
}

function renderGroup(
  group: ResultGroup,
  query: string | undefined,
  options: RenderOptions,
  style: ReturnType<typeof styler>,
): string {
  // Every shown string is cleaned of control characters again: a remote server's text must not
  // be able to drive the terminal.
  const heading = `${style('bold', `[${cleanText(String(group.id))}]`)}${query === undefined ? '' : ` ${cleanText(query)}`}`;
  const lines = [heading];
  if (group.error) {
    lines.push(`  ${style('red', `Failed (${group.error.code}):`)} ${cleanText(group.error.message)}`);
  } else if (group.results.length === 0) {
    lines.push(`  ${style('yellow', 'No results.')}`);
  } else {
    group.results.forEach((result, index) => {
      const number = `${index + 1}.`.padEnd(INDENT.length - 2);
      const title = wrapIndented(cleanText(result.title), options.width, INDENT).slice(INDENT.length);
      lines.push(`  ${number}${style('bold', title)}`);
      lines.push(`${INDENT}${style('cyan', cleanText(result.url))}`);
      if (result.description !== '')
        lines.push(style('dim', wrapIndented(cleanText(result.description), options.width, INDENT)));
      if (index < group.results.length - 1) lines.push('');
    });
  }
  return lines.join('\n');
}

/** The response as text: one block per query, numbered results, explicit empty and failed groups. */
export function renderHuman(response: WebSearchResponse, options: RenderOptions): string {
  const style = styler(options.color);
  const blocks = response.results.map((group, index) => renderGroup(group, options.queries[index], options, style));
  const footer: string[] = [];
  const suggestions = response.suggestions_follow_up_requests ?? [];
  if (suggestions.length > 0)
    footer.push(wrapIndented(`Related: ${suggestions.map(cleanText).join(' · ')}`, options.width, ''));
  footer.push(style('dim', `Results from ${cleanText(response.provider)}`));
  return `${blocks.join('\n\n')}\n\n${footer.join('\n')}\n`;
}
