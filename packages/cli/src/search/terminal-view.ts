import type { RequestId, ResultGroup } from '@openmates/contract';
import { createLogUpdate } from 'log-update';
import wrapAnsi from 'wrap-ansi';
import {
  type RenderOptions,
  renderGroupBlock,
  renderPendingBlock,
  renderStatusFooter,
  renderStatusLine,
} from './render-human.ts';

/** The spinner of a pending query: yocto-spinner's frames and interval, as the stderr spinner shows. */
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 80;

/** The in-place view of a search in a terminal, while its queries run (ADR 0043). */
export interface TerminalView {
  /** Shows a finished group (provisional) in place of its query's pending state. */
  group(group: ResultGroup, index: number | undefined): void;
  /** Shows `text` (a wait: why, how long) as the pending queries' status until the next group or notice. */
  notice(text: string): void;
  /**
   * Ends the view. `erase`: the view is wiped, so the caller's final output takes its place (the
   * screen then shows exactly what a non-streamed search prints); otherwise it stays, each query
   * still running marked `Interrupted.` (after Ctrl-C). The cursor is shown again either way.
   */
  end(mode: 'erase' | 'interrupted'): void;
}

/** Lines `text` takes on a terminal `width` columns wide, wrapped as log-update wraps it. */
function heightOf(text: string, width: number): number {
  return wrapAnsi(text, width, { trim: false, hard: true, wordWrap: false }).split('\n').length;
}

/**
 * Starts the view on `stream` (a terminal): every query at once, in request order, each with a
 * spinner until its group arrives, then that group's block. The region never grows past the
 * terminal's height (log-update cannot move the cursor above the screen to redraw it): when the
 * blocks would not fit, it shows one status line per query instead, and the caller prints the full
 * answer at the end. log-update redraws only the lines that changed and hides the cursor meanwhile.
 */
export function startTerminalView(
  stream: NodeJS.WriteStream,
  ids: readonly RequestId[],
  options: RenderOptions,
): TerminalView {
  const update = createLogUpdate(stream);
  const groups: (ResultGroup | undefined)[] = ids.map(() => undefined);
  let frame = 0;

  const draw = (status: string, interrupted = false) => {
    const blocks = ids
      .map((id, index) => {
        const group = groups[index];
        const query = options.queries[index];
        return group ? renderGroupBlock(group, query, options) : renderPendingBlock(id, query, status, options);
      })
      .join('\n\n');
    const width = stream.columns ?? 80;
    // log-update ends the frame with a newline, so the cursor waits on one line more than the text.
    if (heightOf(blocks, width) + 1 <= (stream.rows ?? 24)) return update(blocks);
    const lines = ids.map((id, index) => renderStatusLine(id, options.queries[index], groups[index], status, options));
    update((interrupted ? lines : [...lines, renderStatusFooter(options)]).join('\n'));
  };
  let said: string | undefined;
  const searching = () => `${FRAMES[frame % FRAMES.length]} ${said ?? 'Searching…'}`;

  draw(searching());
  // Unref'd: the spinner never keeps the process alive once the search has ended.
  const timer = setInterval(() => {
    frame += 1;
    draw(searching());
  }, FRAME_MS).unref();

  return {
    group(group, index) {
      if (index === undefined || index < 0 || index >= groups.length) return;
      groups[index] = group;
      said = undefined;
      draw(searching());
    },
    notice(text) {
      said = `${text}.`;
      draw(searching());
    },
    end(mode) {
      clearInterval(timer);
      if (mode === 'erase') update.clear();
      else draw('Interrupted.', true);
      update.done();
    },
  };
}
