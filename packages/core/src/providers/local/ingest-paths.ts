import { createReadStream } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { admitUrl } from '../../hygiene/url-admission.ts';
import type { LocalDocument } from './local-document.ts';
import type { AddProgress, LocalIndex } from './local-index.ts';
import { type FileDocument, type FileFormat, fileFormat } from './read-file-document.ts';

// node:fs/promises and node:readline are taken when a path is ingested, not when this module loads:
// a local search loads it with the engine and ingests nothing, and the two (fs/promises brings
// readline along) are 16 of Node's modules more at every search's start.
const files = () => process.getBuiltinModule('node:fs/promises');
const lineReader = () => process.getBuiltinModule('node:readline');

/** A file, or a line of a JSONL file, that was not indexed, and why. */
export interface IngestProblem {
  path: string;
  /** 1-based line number, for JSONL lines. */
  line?: number;
  reason: string;
}

export interface IngestProgress extends AddProgress {
  /** Files read so far. */
  files: number;
}

export interface IngestResult extends IngestProgress {
  /** Files and lines that were not indexed. A bad JSONL line never stops the rest of its file. */
  problems: IngestProblem[];
  /** Files found in folders whose extension is not a format we read (skipped silently). */
  ignored: number;
  /**
   * Of `rejected`, files without a URL of their own and no `baseUrl` to derive one from; each is
   * also in `problems` with NO_URL_REASON.
   */
  withoutUrl: number;
}

export interface IngestOptions {
  /**
   * An absolute http(s) URL under which files without a URL of their own are published: such a file
   * gets `new URL(its path relative to the folder given, percent-encoded per segment, baseUrl)` (a
   * file given by itself: its name). A missing trailing `/` is added. Default none: such files are
   * refused (`withoutUrl`). JSONL lines always carry their own URL.
   */
  baseUrl?: string;
}

/** Why a Markdown, HTML or text file without a URL of its own is refused when no base URL is given. */
export const NO_URL_REASON = 'no http(s) URL of its own (front matter `url:`, HTML canonical link) and no base URL';

/**
 * Checks a base URL for `ingestPaths` and returns it normalized, with a trailing `/` so relative
 * paths resolve below it. Throws a RangeError with a one-line message safe to show when it is not
 * an absolute http(s) URL without credentials, query or fragment.
 */
export function normalizeBaseUrl(raw: string): string {
  const admitted = admitUrl(raw);
  const url = admitted === null ? null : new URL(admitted);
  if (url === null || url.search !== '' || url.hash !== '')
    throw new RangeError('the base URL must be an absolute http(s) URL without credentials, query or fragment');
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

/** The URL of `file` below `baseUrl`, from its path relative to `root`, each segment percent-encoded. */
function derivedUrl(baseUrl: string, root: string, file: string): string {
  const path = relative(root, file).split(sep).map(encodeURIComponent).join('/');
  return new URL(path, baseUrl).href;
}

/** Documents from a JSONL file handed to the index at a time. */
const JSONL_BATCH = 5_000;

/** Folders never descended into: hidden ones (`.git`) and dependency trees. */
function skipFolder(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

async function* walk(path: string, ignored: { count: number }): AsyncGenerator<[string, FileFormat]> {
  const entries = await files().readdir(path, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const child = join(path, entry.name);
    // Symbolic links are not followed, so a link cycle cannot loop and nothing outside the folder is read.
    if (entry.isDirectory()) {
      if (!skipFolder(entry.name)) yield* walk(child, ignored);
    } else if (entry.isFile()) {
      const format = fileFormat(entry.name);
      if (format === undefined) ignored.count += 1;
      else yield [child, format];
    }
  }
}

function message(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unreadable';
}

/**
 * Indexes files and folders (recursively): Markdown (`.md`, `.markdown`, `.mdx`), HTML (`.html`,
 * `.htm`, `.xhtml`), plain text (`.txt`, `.text`) and JSONL (`.jsonl`, `.ndjson`, one
 * `{ url, title, body, description?, language?, published?, family_friendly? }` per line). A file
 * named explicitly with another extension is a problem; inside folders such files are skipped.
 * Unreadable files, bad JSONL lines and documents whose URL is not absolute http(s) are reported in
 * `problems` (with their line number). A file without a URL of its own gets one from
 * `options.baseUrl` (see IngestOptions), else it is refused and counted in `withoutUrl`. Throws a
 * RangeError for a bad `baseUrl` before reading anything.
 */
export async function ingestPaths(
  index: LocalIndex,
  paths: readonly string[],
  onProgress?: (progress: IngestProgress) => void,
  options: IngestOptions = {},
): Promise<IngestResult> {
  const baseUrl = options.baseUrl === undefined ? undefined : normalizeBaseUrl(options.baseUrl);
  const result: IngestResult = {
    files: 0,
    added: 0,
    replaced: 0,
    rejected: 0,
    problems: [],
    ignored: 0,
    withoutUrl: 0,
  };
  const { markdownDocument, htmlDocument, textDocument } = await import('./read-file-document.ts');
  const ignored = { count: 0 };
  const report = () =>
    onProgress?.({ files: result.files, added: result.added, replaced: result.replaced, rejected: result.rejected });
  const add = (docs: LocalDocument[], problemFor: (position: number, reason: string) => IngestProblem) => {
    const added = index.addDocuments(docs);
    result.added += added.added;
    result.replaced += added.replaced;
    result.rejected += added.rejected;
    for (const rejection of added.rejections) result.problems.push(problemFor(rejection.index, rejection.reason));
  };

  // `root` is the folder URLs are derived relative to: the folder given, or a lone file's own folder.
  const readOne = async (path: string, format: FileFormat, root: string) => {
    result.files += 1;
    if (format === 'jsonl') {
      await readJsonl(path, (docs, lines, bad) => {
        result.rejected += bad.length;
        result.problems.push(...bad);
        add(docs, (position, reason) => ({ path, line: lines[position] ?? 0, reason }));
        report();
      });
      return;
    }
    const source = await files().readFile(path, 'utf8');
    const read: FileDocument | string =
      format === 'markdown'
        ? await markdownDocument(path, source)
        : format === 'html'
          ? htmlDocument(path, source)
          : textDocument(path, source);
    const url =
      typeof read === 'string'
        ? undefined
        : (read.url ?? (baseUrl === undefined ? undefined : derivedUrl(baseUrl, root, path)));
    if (typeof read === 'string' || url === undefined) {
      result.rejected += 1;
      if (typeof read !== 'string') result.withoutUrl += 1;
      result.problems.push({ path, reason: typeof read === 'string' ? read : NO_URL_REASON });
    } else add([{ ...read, url }], (_, reason) => ({ path, reason }));
    report();
  };

  for (const given of paths) {
    const path = resolve(given);
    try {
      const info = await files().stat(path);
      if (info.isDirectory()) {
        for await (const [file, format] of walk(path, ignored)) {
          try {
            await readOne(file, format, path);
          } catch (error) {
            result.problems.push({ path: file, reason: message(error) });
          }
        }
      } else {
        const format = fileFormat(path);
        if (format === undefined)
          result.problems.push({ path, reason: 'not a Markdown, HTML, text or JSONL file (by its extension)' });
        else await readOne(path, format, dirname(path));
      }
    } catch (error) {
      if ((error as Error).name === 'LocalIndexError') throw error;
      result.problems.push({ path, reason: message(error) });
    }
  }
  result.ignored = ignored.count;
  return result;
}

/**
 * Streams a JSONL file in batches. Blank lines are skipped; a line that is not JSON is reported
 * here, and a JSON line that is not a valid document is reported by the index, both by line number.
 */
async function readJsonl(
  path: string,
  onBatch: (docs: LocalDocument[], lines: number[], bad: IngestProblem[]) => void,
): Promise<void> {
  const lines = lineReader().createInterface({
    input: createReadStream(path, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let docs: LocalDocument[] = [];
  let numbers: number[] = [];
  let bad: IngestProblem[] = [];
  let number = 0;
  for await (const line of lines) {
    number += 1;
    if (line.trim() === '') continue;
    try {
      docs.push(JSON.parse(line) as LocalDocument);
      numbers.push(number);
    } catch {
      bad.push({ path, line: number, reason: 'not valid JSON' });
    }
    if (docs.length >= JSONL_BATCH) {
      onBatch(docs, numbers, bad);
      docs = [];
      numbers = [];
      bad = [];
    }
  }
  if (docs.length > 0 || bad.length > 0) onBatch(docs, numbers, bad);
}
