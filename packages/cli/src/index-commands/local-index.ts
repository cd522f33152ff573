import { write } from '../lib/io.ts';
import { counted } from '../lib/plural.ts';

type Env = Record<string, string | undefined>;

/**
 * Opens the index `openmates search` uses (`OPENMATES_INDEX`, default in the user data directory)
 * and runs `work` with it. A bad variable or an unreadable index is one line on stderr, exit 4.
 */
export async function withIndex(
  env: Env,
  stderr: NodeJS.WriteStream,
  work: (
    index: import('@openmates/core').LocalIndex,
    core: typeof import('@openmates/core'),
    path: string,
  ) => Promise<number>,
): Promise<number> {
  const core = await import('@openmates/core');
  let index: import('@openmates/core').LocalIndex;
  let path: string;
  try {
    const config = core.loadConfig({ ...env, OPENMATES_LOG_LEVEL: 'silent' });
    path = core.defaultIndexPath(config.settings.local.indexPath);
    index = core.openIndex(path);
  } catch (error) {
    if (error instanceof core.ConfigError || error instanceof core.LocalIndexError) {
      await write(stderr, `openmates index: ${error.message.replace(/\n/g, '; ')}\n`);
      return 4;
    }
    throw error;
  }
  try {
    return await work(index, core, path);
  } finally {
    index.close();
  }
}

/** Problems listed one per line on stderr before the rest are summed up. */
const SHOWN_PROBLEMS = 5;

/** The licence line the demo pages' MDN text asks for wherever it is shown. */
const MDN_ATTRIBUTION = 'MDN pages: text by Mozilla contributors (developer.mozilla.org), CC-BY-SA 2.5';

/**
 * `openmates index add [PATH…] [--base-url URL] [--demo]`: files, folders and JSONL; with `--demo`,
 * the demo corpus (MDN and web-features pages) built into the index first, whatever it holds (a
 * rebuild replaces the demo documents and nothing else). A counter on stderr on a terminal. Exit 0
 * when any document was added (problems are listed on stderr), 2 when nothing could be added,
 * nothing was named or `--base-url` is not an absolute http(s) URL.
 */
export async function indexAdd(
  paths: string[],
  options: { json: boolean; baseUrl?: string | undefined; demo?: boolean },
  io: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream; env: Env },
): Promise<number> {
  const { normalizeBaseUrl } = await import('@openmates/core');
  if (paths.length === 0 && options.demo !== true) {
    await write(io.stderr, 'openmates index: name a file, folder or .jsonl file to add, or --demo (see --help).\n');
    return 2;
  }
  let baseUrl: string | undefined;
  try {
    baseUrl = options.baseUrl === undefined ? undefined : normalizeBaseUrl(options.baseUrl);
  } catch (error) {
    await write(io.stderr, `openmates index: --base-url: ${(error as Error).message}.\n`);
    return 2;
  }
  return withIndex(io.env, io.stderr, async (index, core, path) => {
    const tty = io.stderr.isTTY === true;
    let demo: { documents: number; version: string } | undefined;
    if (options.demo === true) {
      const built = await core.ensureDemoCorpusIn(
        index,
        (p) => {
          if (tty) io.stderr.write(`\r\u001b[2KBuilding the demo corpus: ${counted(p.added, 'document')} stored`);
        },
        { force: true },
      );
      if (tty) io.stderr.write('\r\u001b[2K');
      demo = { documents: index.stats().sources.demo ?? 0, version: built.version };
    }
    const result =
      paths.length === 0
        ? undefined
        : await core.ingestPaths(
            index,
            paths,
            (p) => {
              if (tty)
                io.stderr.write(
                  `\r\u001b[2KIndexing: ${counted(p.files, 'file')} read, ${counted(p.added, 'document')} stored, ${p.rejected} refused`,
                );
            },
            baseUrl === undefined ? {} : { baseUrl },
          );
    if (tty) io.stderr.write('\r\u001b[2K');
    const total = index.count();
    if (options.json)
      await write(
        io.stdout,
        `${JSON.stringify({ path, ...(result ?? {}), ...(demo === undefined ? {} : { demo }), documents: total })}\n`,
      );
    else {
      const lines: string[] = [];
      if (demo !== undefined)
        lines.push(
          `Built the demo corpus (${counted(demo.documents, 'MDN and web-features page')}, ${demo.version}) into ${path}`,
        );
      if (result !== undefined) {
        const withoutUrl = result.withoutUrl > 0 ? `, ${result.withoutUrl} of them without a URL` : '';
        lines.push(
          `Indexed ${counted(result.added, 'document')} (${result.replaced} replaced, ${result.rejected} refused${withoutUrl}) from ${counted(result.files, 'file')} into ${path}`,
        );
      }
      const summary = lines.map((line, at) =>
        at === lines.length - 1 ? `${line}; ${counted(total, 'document')} in the index.` : `${line}.`,
      );
      // The demo pages quote MDN, whose licence asks for attribution where the text is shown.
      if (demo !== undefined) summary.splice(1, 0, `  ${MDN_ATTRIBUTION}`);
      await write(io.stdout, `${summary.join('\n')}\n`);
    }
    if (result === undefined) return 0;
    for (const problem of result.problems.slice(0, SHOWN_PROBLEMS))
      await write(
        io.stderr,
        `openmates index: skipped ${problem.path}${problem.line ? `:${problem.line}` : ''}: ${problem.reason}\n`,
      );
    if (result.problems.length > SHOWN_PROBLEMS)
      await write(
        io.stderr,
        `openmates index: and ${counted(result.problems.length - SHOWN_PROBLEMS, 'more problem')}\n`,
      );
    if (result.withoutUrl > 0)
      await write(
        io.stderr,
        `openmates index: ${result.withoutUrl} ${result.withoutUrl === 1 ? 'file has' : 'files have'} no http(s) URL: add \`url:\` to its front matter or pass --base-url\n`,
      );
    return result.added === 0 && result.problems.length > 0 && demo === undefined ? 2 : 0;
  });
}

/** `openmates index stats`. */
export async function indexStats(
  json: boolean,
  io: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream; env: Env },
): Promise<number> {
  return withIndex(io.env, io.stderr, async (index) => {
    const stats = index.stats();
    if (json) await write(io.stdout, `${JSON.stringify(stats)}\n`);
    else {
      const list = (counts: Record<string, number>) =>
        Object.entries(counts)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ') || 'none';
      await write(
        io.stdout,
        [
          `index:     ${stats.path}`,
          `documents: ${stats.documents}`,
          `size:      ${(stats.bytes / 1024 / 1024).toFixed(1)} MiB`,
          `sources:   ${list(stats.sources)}`,
          `languages: ${list(stats.languages)}`,
          ...(stats.demoCorpus
            ? [
                `demo:      ${stats.demoCorpus}`,
                // The demo pages quote MDN, whose licence asks for attribution where the text is shown.
                `           ${MDN_ATTRIBUTION}`,
              ]
            : []),
          '',
        ].join('\n'),
      );
    }
    return 0;
  });
}

/** `openmates index clear`. */
export async function indexClear(io: {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: Env;
}): Promise<number> {
  return withIndex(io.env, io.stderr, async (index, _core, path) => {
    const before = index.count();
    index.clear();
    await write(io.stdout, `Removed ${counted(before, 'document')} from ${path}.\n`);
    return 0;
  });
}
