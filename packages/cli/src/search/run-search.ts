import { assignIds, normalizeRequest, pageOfItem, type ResultGroup, z } from '@openmates/contract';
import { cliVariable } from '../lib/cli-env.ts';
import { type CliIO, stderrIsTerminal, write, writeOutput } from '../lib/io.ts';
import { buildRequest, UsageError } from './build-request.ts';
import { errorLine, type LiveOptions, outcomeExitCode, type SearchOutcome } from './outcome.ts';
import { type SearchFlagValues, switchGivenValue } from './search-flags.ts';

/** The origin a `--api-url`/`OPENMATES_API_URL` value names, or a usage error. */
function apiOrigin(raw: string): string {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.username !== '' || url.password !== '')
    throw new UsageError('--api-url must be an http(s) origin such as http://127.0.0.1:8787');
  return url.origin;
}

function queriesOf(request: unknown): (string | undefined)[] {
  const items = (request as { requests?: unknown } | null)?.requests;
  if (!Array.isArray(items)) return [];
  return items.map((item) => {
    const query = (item as { query?: unknown } | null)?.query;
    return typeof query === 'string' ? query : undefined;
  });
}

/** Columns of human output: the terminal's; else `COLUMNS` (a positive integer), as other tools honour it; else 80. */
function terminalWidth(io: CliIO): number {
  if (io.stdout.isTTY) return io.stdout.columns ?? 80;
  const columns = io.env.COLUMNS?.trim() ?? '';
  return /^[1-9]\d*$/.test(columns) ? Number(columns) : 80;
}

/** The result page each item asks for, by the id its group answers under. */
function pagesOf(request: unknown): Map<string, number> {
  const items = (request as { requests?: unknown } | null)?.requests;
  const pages = new Map<string, number>();
  if (!Array.isArray(items)) return pages;
  const ids = itemIds(items);
  for (const [index, item] of items.entries()) pages.set(String(ids[index]), pageOfItem(item));
  return pages;
}

/** How human output is laid out for this terminal or pipe. */
function humanOptions(io: CliIO, request: unknown) {
  return {
    width: Math.max(40, terminalWidth(io)),
    color: colorOf(io),
    queries: queriesOf(request),
    pages: pagesOf(request),
  };
}

let colorEnabledFn: ((stream: NodeJS.WriteStream, env: Record<string, string | undefined>) => boolean) | undefined;
function colorOf(io: CliIO): boolean {
  return colorEnabledFn ? colorEnabledFn(io.stdout, io.env) : false;
}

/** The items' ids: the caller's, else assigned as the engine assigns them (skipping ids callers took). */
function itemIds(items: readonly unknown[]) {
  return assignIds(
    items.map((item) => {
      const given = (item as { id?: unknown } | null)?.id;
      return typeof given === 'string' || typeof given === 'number' ? given : undefined;
    }),
  );
}

/**
 * The request position of the item a group answers, by its id: a server's group carries only that.
 * Ids are the caller's, else assigned as the engine assigns them (skipping ids callers took).
 */
function idIndex(request: unknown, id: unknown): number | undefined {
  const items = (request as { requests?: unknown } | null)?.requests;
  if (!Array.isArray(items)) return undefined;
  const at = itemIds(items).map(String).indexOf(String(id));
  return at >= 0 ? at : undefined;
}

/**
 * Whether the engine's log lines (`OPENMATES_LOG_LEVEL`, off by default) land on a terminal, where a
 * spinner's or the view's next redraw would tear them.
 */
function logsOnTerminal(io: CliIO): boolean {
  const level = io.env.OPENMATES_LOG_LEVEL?.trim();
  return stderrIsTerminal(io) && level !== undefined && level !== '' && level !== 'silent';
}

interface Spinner {
  stop(): void;
  /** Prints `line` on stderr above the spinner, which goes on. */
  say(line: string): void;
}

/** A spinner on stderr while the search runs, only when stderr is a terminal that can redraw a line. */
async function startSpinner(io: CliIO, count: number): Promise<Spinner> {
  if (!stderrIsTerminal(io) || io.env.TERM === 'dumb' || logsOnTerminal(io)) return noSpinner(io);
  const { default: yoctoSpinner } = await import('yocto-spinner');
  const text = `Searching ${count === 1 ? '1 query' : `${count} queries`}…`;
  const spinner = yoctoSpinner({ text, stream: io.stderr }).start();
  return {
    stop: () => spinner.stop(),
    say: (line) => {
      spinner.clear();
      io.stderr.write(`${line}\n`);
      spinner.start(text);
    },
  };
}

/** No spinner: a line said goes straight to stderr. */
const noSpinner = (io: CliIO): Spinner => ({ stop() {}, say: (line) => io.stderr.write(`${line}\n`) });

async function runOutcome(
  queries: readonly string[],
  flags: SearchFlagValues,
  io: CliIO,
  live: (request: unknown) => LiveOptions,
  spin: boolean,
): Promise<{
  outcome: SearchOutcome;
  request: unknown;
}> {
  const request = await buildRequest(queries, flags, () => io.stdin);
  const rawUrl = flags['api-url'] ?? cliVariable(io.env, 'OPENMATES_API_URL');
  const apiUrl = rawUrl ? apiOrigin(rawUrl) : undefined;
  const spinner = spin ? await startSpinner(io, queriesOf(request).length) : noSpinner(io);
  try {
    if (apiUrl === undefined) {
      const { searchInProcess } = await import('./in-process.ts');
      return { outcome: await searchInProcess(request, io.env, live(request)), request };
    }
    const { searchRemote } = await import('./remote.ts');
    const apiKey = flags['api-key'] ?? cliVariable(io.env, 'OPENMATES_API_KEY');
    // A wait is said on stderr, or in the in-place view while it runs (a stderr line would tear it).
    const options: LiveOptions = { onWait: (notice) => spinner.say(errorLine(notice)), ...live(request) };
    if (flags.wait === false) options.wait = false;
    return { outcome: await searchRemote(request, apiUrl, apiKey || undefined, options), request };
  } finally {
    spinner.stop();
  }
}

/**
 * Whether human output is the in-place view (ADR 0043): stdout is a terminal that can move its
 * cursor. `TERM=dumb` cannot, so it gets the piped form (each block as it finishes, no cursor codes).
 * Nor does a search whose log lines land on the terminal (`logsOnTerminal`).
 */
function isInPlace(flags: SearchFlagValues, io: CliIO): boolean {
  return !flags.json && !flags.jsonl && io.stdout.isTTY === true && io.env.TERM !== 'dumb' && !logsOnTerminal(io);
}

/** A usage error before anything runs: one line on stderr, nothing on stdout (whose format is not chosen yet), exit 2. */
async function refuseUsage(io: CliIO, message: string): Promise<number> {
  await write(io.stderr, `${errorLine(message, 'invalid_request')}\n`);
  return outcomeExitCode({ kind: 'error', body: { error: 'usage', code: 'invalid_request' } });
}

/**
 * `openmates search`: builds the request, runs it in process or through a server, prints the
 * outcome (JSON or text) and resolves to the exit code from the contract's table. `argv` is the
 * arguments as typed, for what the parsers cannot tell (a switch written with a value).
 */
export async function runSearch(
  queries: readonly string[],
  flags: SearchFlagValues,
  io: CliIO,
  argv: readonly string[] = [],
): Promise<number> {
  // A search process validates its request once: zod's JIT, which compiles an object's parser with
  // `new Function` on its first parse, would only pay off over many parses. Same verdicts.
  z.config({ jitless: true });
  const valued = switchGivenValue(argv);
  if (valued !== undefined) {
    const name = valued.slice(0, valued.indexOf('='));
    return refuseUsage(io, `${name} is a switch and takes no value (${valued}): write ${name} alone`);
  }
  if (flags.json && flags.jsonl) return refuseUsage(io, '--json and --jsonl cannot be combined: pick one');
  let result: { outcome: SearchOutcome; request: unknown } | undefined;
  // Ctrl-C aborts the provider calls still running; the search then ends as `aborted` (exit 130).
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort(new Error('Interrupted.'));
  // `on`, not `once`, until the search has ended: log-update's cursor restore (signal-exit) re-raises
  // SIGINT and kills the process when it finds itself the only listener, before the outcome prints.
  process.on('SIGINT', onInterrupt);
  // Human output in a terminal: every query at once, each filled in as it finishes, then the whole
  // answer in its place. Piped (or TERM=dumb): each group's block the moment its query finishes (no
  // cursor codes), then at the end any block that fitting changed since, and the footer.
  const inPlace = isInPlace(flags, io);
  const piped = !flags.json && !flags.jsonl && !inPlace;
  let view: import('./terminal-view.ts').TerminalView | undefined;
  let startView: typeof import('./terminal-view.ts').startTerminalView | undefined;
  const printed = new Map<string, string>();
  let render: typeof import('./render-human.ts') | undefined;
  let pipedRequest: unknown;
  const pipedGroup = (group: ResultGroup, index: number | undefined) => {
    if (!render) return;
    const queries = queriesOf(pipedRequest);
    const at = index ?? idIndex(pipedRequest, group.id);
    const block = render.renderGroupBlock(
      group,
      at === undefined ? undefined : queries[at],
      humanOptions(io, pipedRequest),
    );
    printed.set(String(group.id), block);
    io.stdout.write(`${block}\n\n`);
  };
  if (piped) render = await import('./render-human.ts');
  if (inPlace) startView = (await import('./terminal-view.ts')).startTerminalView;
  if (!flags.json && !flags.jsonl) colorEnabledFn = (await import('../lib/style.ts')).colorEnabled;
  const live = (request: unknown): LiveOptions => {
    pipedRequest = request;
    const options: LiveOptions = { signal: interrupt.signal };
    // One line per event, written as it happens (the final line is awaited below, so order holds).
    if (flags.jsonl)
      options.onGroup = (group) => io.stdout.write(`${JSON.stringify({ event: 'group', data: group })}\n`);
    else if (piped) options.onGroup = (group, index) => pipedGroup(group, index);
    else if (startView) {
      // Only a request that will run gets the view: a refused one prints its refusal without a flash of spinners.
      const normalized = normalizeRequest(request);
      if (!normalized.ok) return options;
      const ids = normalized.request.requests.map((item) => item.id);
      const shown = startView(io.stdout, ids, humanOptions(io, request));
      view = shown;
      options.onGroup = (group, index) => shown.group(group, index ?? idIndex(request, group.id));
      options.onWait = (notice) => shown.notice(notice);
    }
    return options;
  };
  try {
    result = await runOutcome(queries, flags, io, live, !inPlace);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    result = {
      outcome: { kind: 'error', body: { error: `Invalid request: ${error.message}`, code: 'invalid_request' } },
      request: undefined,
    };
  } finally {
    process.off('SIGINT', onInterrupt);
    // Whatever happened (a bug included), the view ends and the cursor is shown before anything else prints.
    view?.end(result?.outcome.kind === 'aborted' ? 'interrupted' : 'erase');
  }
  const { outcome, request } = result;
  if (outcome.kind === 'aborted') {
    await write(io.stderr, `${errorLine('Interrupted: the searches still running were aborted')}\n`);
    return outcomeExitCode(outcome);
  }
  if (flags.jsonl) {
    if (outcome.kind === 'response')
      await write(io.stdout, `${JSON.stringify({ event: 'done', data: outcome.response })}\n`);
    else if (outcome.kind === 'error')
      await write(io.stdout, `${JSON.stringify({ event: 'error', data: outcome.body })}\n`);
  }
  const machine = flags.json || flags.jsonl;
  if (flags.json) {
    if (outcome.kind === 'response') await writeOutput(io, `${JSON.stringify(outcome.response)}\n`);
    else if (outcome.kind === 'error') await writeOutput(io, `${JSON.stringify(outcome.body)}\n`);
  }
  // A refusal is one line on stderr in every mode (ADR 0122); `--json` and `--jsonl` printed its body above.
  if (outcome.kind === 'error') {
    const { refusalLine } = await import('./refusal.ts');
    const typed = flags.input === undefined ? { queries, flags } : undefined;
    await write(io.stderr, `${refusalLine(outcome.body, typed, request)}\n`);
  }
  if (outcome.kind === 'unreachable') await write(io.stderr, `${errorLine(outcome.message)}\n`);
  if (outcome.kind === 'response') {
    const { response } = outcome;
    if (!machine) {
      const { renderHuman, renderGroupBlock, renderFooter } = await import('./render-human.ts');
      const options = humanOptions(io, request);
      if (piped && printed.size > 0) {
        const changed = response.results
          .map((group, index) => renderGroupBlock(group, options.queries[index], options))
          .filter((block, index) => printed.get(String(response.results[index]?.id)) !== block);
        await write(io.stdout, `${changed.map((block) => `${block}\n\n`).join('')}${renderFooter(response, options)}`);
      } else await write(io.stdout, renderHuman(response, options));
    }
    if (response.error !== undefined) await write(io.stderr, `${errorLine(response.error, response.code)}\n`);
  }
  return outcomeExitCode(outcome);
}
