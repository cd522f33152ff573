import { basename, extname } from 'node:path';
import type { Tokens } from 'marked';
import { readHtml } from './html-text.ts';
import type { LocalDocument } from './local-document.ts';

/**
 * A document read from a file. `url` is the file's own URL (front matter, canonical link) or
 * undefined: `ingestPaths` then derives one from a base URL, or refuses the file.
 */
export type FileDocument = Omit<LocalDocument, 'url'> & { url: string | undefined };

/** The file formats `ingestPaths` reads, by extension. */
export type FileFormat = 'markdown' | 'html' | 'text' | 'jsonl';

const FORMATS: Record<string, FileFormat> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdx': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.txt': 'text',
  '.text': 'text',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
};

/** The format of a file by its extension (case-insensitive), or undefined when it is not one we read. */
export function fileFormat(path: string): FileFormat | undefined {
  return FORMATS[extname(path).toLowerCase()];
}

function stem(path: string): string {
  return basename(path, extname(path));
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** YAML front matter: a first line `---`, the YAML, a line `---` (or `...`). */
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * Reads a Markdown file: YAML front matter (`url`, `title`, `language`/`lang`, `date`/`published`,
 * `description`, `family_friendly`) parsed with `yaml`, the rest rendered with `marked` and reduced
 * to text. Without front matter the title is the first `# heading`, else the file name, and there
 * is no URL. A front matter that is not valid YAML is a reason, not a crash.
 */
export async function markdownDocument(path: string, source: string): Promise<FileDocument | string> {
  const { marked } = await import('marked');
  let meta: Record<string, unknown> = {};
  let content = source;
  const front = FRONT_MATTER.exec(source);
  if (front !== null) {
    // Loaded here, not at import: searching never needs a YAML parser.
    const { parse: parseYaml } = await import('yaml');
    try {
      const parsed: unknown = parseYaml(front[1] ?? '');
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
        meta = parsed as Record<string, unknown>;
    } catch (error) {
      return `front matter is not valid YAML (${(error instanceof Error ? error.message : String(error)).split('\n')[0]})`;
    }
    content = source.slice(front[0].length);
  }
  const tokens = marked.lexer(content);
  const heading = tokens.find((token): token is Tokens.Heading => token.type === 'heading' && token.depth === 1);
  const page = readHtml(marked.parser(tokens));
  const doc: FileDocument = {
    url: text(meta.url),
    title:
      text(meta.title) ??
      (heading === undefined ? undefined : readHtml(marked.parseInline(heading.text) as string).text) ??
      stem(path),
    body: page.text,
  };
  const description = text(meta.description);
  if (description !== undefined) doc.description = description;
  const language = text(meta.language) ?? text(meta.lang);
  if (language !== undefined) doc.language = language;
  const date = meta.published ?? meta.date;
  // YAML 1.1 timestamps may arrive as Date objects; ISO strings pass through.
  const published = date instanceof Date ? date.toISOString() : text(date);
  if (published !== undefined) doc.published = published;
  if (typeof meta.family_friendly === 'boolean') doc.family_friendly = meta.family_friendly;
  return doc;
}

/**
 * Reads an HTML file with htmlparser2: title from `<title>`, else the first `<h1>`, else the file
 * name; URL from `<link rel=canonical>`, else `<meta property=og:url>`, else none; language
 * from `<html lang>`; description from `<meta name=description>`.
 */
export function htmlDocument(path: string, source: string): FileDocument {
  const page = readHtml(source);
  const doc: FileDocument = {
    url: page.canonical ?? page.ogUrl,
    title: page.title ?? page.h1 ?? stem(path),
    body: page.text,
  };
  if (page.description !== undefined) doc.description = page.description;
  if (page.lang !== undefined) doc.language = page.lang;
  return doc;
}

/**
 * Reads a plain text file: the first line is the title when it is short (≤ 120 characters), else
 * the file name. A text file has no URL of its own.
 */
export function textDocument(path: string, source: string): FileDocument {
  const first = source
    .split(/\r?\n/, 50)
    .find((line) => line.trim() !== '')
    ?.trim();
  const title = first !== undefined && first.length <= 120 ? first : stem(path);
  return { url: undefined, title, body: source };
}
