/**
 * Writes the demo corpus's page text (`src/providers/local/generated/page-text.js`): each MDN page's
 * own summary and a longer text made of its parts' summaries, taken from two packages that ship
 * MDN's summaries, so that every offline page reads as itself:
 * - `@vscode/web-custom-data`: CSS properties (with their values), at-rules (with their
 *   descriptors), pseudo-classes and pseudo-elements, HTML elements (with their attributes) and
 *   global attributes, each with its MDN URL;
 * - `@types/web`: the JSDoc of every Web API interface and member, MDN's summary with its
 *   `[MDN Reference](…)` link.
 * Both are devDependencies: the file is built here (`pnpm turbo run build --filter=@openmates/core`)
 * and shipped inside the built CLI, so neither package reaches a user's install. The file is not
 * committed; only the MDN pages the demo corpus has (its `@mdn/browser-compat-data` URLs) are kept.
 * MDN's text is by Mozilla's contributors under CC-BY-SA 2.5, said wherever the corpus is shown.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { marked } from 'marked';
import { htmlToText } from '../src/hygiene/index.ts';

/** Where the generated module goes; its types (`page-text.d.ts`) are committed beside it. */
export const PAGE_TEXT_FILE = fileURLToPath(new URL('../src/providers/local/generated/page-text.js', import.meta.url));
const MDN = 'https://developer.mozilla.org/docs/';
/** Longest own summary kept, in code points (a description is at most 1000). */
const MAX_SUMMARY = 600;

const require = createRequire(import.meta.url);

/** A page's summary and its longer text, keyed by its MDN path (lowercase, after `/docs/`). */
export type PageTexts = Map<string, { description: string; parts: string[] }>;

interface Described {
  name: string;
  description?: string | { kind: string; value: string };
  references?: { name: string; url: string }[];
}
interface CssEntry extends Described {
  values?: Described[];
  descriptors?: Described[];
}
interface HtmlTag extends Described {
  attributes?: Described[];
}

/** MDN's markdown (links, code, emphasis, lists) as one line of plain text. */
export function markdownText(markdown: string, max = MAX_SUMMARY): string {
  return htmlToText(marked.parse(markdown, { async: false }), max);
}

function textOf(description: Described['description'], max = MAX_SUMMARY): string {
  if (description === undefined) return '';
  return typeof description === 'string' ? markdownText(description, max) : markdownText(description.value, max);
}

function keyOf(url: string): string | undefined {
  return url.startsWith(MDN) ? url.slice(MDN.length).toLowerCase() : undefined;
}

function mdnKey(entry: Described): string | undefined {
  const url = entry.references?.find((reference) => reference.name === 'MDN Reference')?.url;
  return url === undefined ? undefined : keyOf(url);
}

function add(pages: PageTexts, key: string | undefined, description: string, parts: string[] = []): void {
  if (key === undefined || description === '') return;
  const page = pages.get(key);
  if (page === undefined) pages.set(key, { description, parts: parts.filter((part) => part !== '') });
  else page.parts.push(...parts.filter((part) => part !== '' && !page.parts.includes(part)));
}

/**
 * `label — summary` for each part that has a summary, the label written as the page writes the
 * part (`display: block`, `<dialog open>`, `@media any-hover`), so the text names its page as
 * MDN's own does.
 */
function partsOf(entries: readonly Described[] | undefined, label: (name: string) => string): string[] {
  return (entries ?? []).map((entry) => {
    const text = textOf(entry.description);
    return text === '' ? '' : `${label(entry.name)} — ${text}`;
  });
}

function fromCustomData(pages: PageTexts): void {
  const css = require('@vscode/web-custom-data/data/browsers.css-data.json') as Record<string, CssEntry[]>;
  for (const list of ['properties', 'atDirectives', 'pseudoClasses', 'pseudoElements'])
    for (const entry of css[list] ?? []) {
      add(pages, mdnKey(entry), textOf(entry.description), [
        ...partsOf(entry.values, (value) => `${entry.name}: ${value}`),
        ...partsOf(entry.descriptors, (descriptor) => `${entry.name} ${descriptor}`),
      ]);
      for (const descriptor of entry.descriptors ?? []) add(pages, mdnKey(descriptor), textOf(descriptor.description));
    }
  const html = require('@vscode/web-custom-data/data/browsers.html-data.json') as {
    tags: HtmlTag[];
    globalAttributes: Described[];
  };
  for (const tag of html.tags)
    add(
      pages,
      mdnKey(tag),
      textOf(tag.description),
      partsOf(tag.attributes, (attribute) => `<${tag.name} ${attribute}>`),
    );
  for (const attribute of html.globalAttributes) add(pages, mdnKey(attribute), textOf(attribute.description));
}

const JSDOC = /\/\*\*([\s\S]*?)\*\//g;
const REFERENCE = /\[MDN Reference\]\((https:[^)\s]+)\)/;

/** A JSDoc block's summary: its lines before the first tag or the MDN link, as plain text. */
function jsdocSummary(block: string): string {
  const lines: string[] = [];
  for (const raw of block.split('\n')) {
    const line = raw.replace(/^\s*\*? ?/, '');
    if (line.startsWith('@') || REFERENCE.test(line)) break;
    lines.push(line.replace(/\{@link\s+([^}\s]+)\s*\}/g, '$1'));
  }
  return markdownText(lines.join('\n'));
}

function fromWebTypes(pages: PageTexts): void {
  const source = readFileSync(require.resolve('@types/web/index.d.ts'), 'utf8');
  const summaries = new Map<string, { summary: string; name: string }>();
  for (const [, block = ''] of source.matchAll(JSDOC)) {
    const url = REFERENCE.exec(block)?.[1];
    const key = url === undefined ? undefined : keyOf(url);
    const summary = jsdocSummary(block);
    // `Web/API/AbortController/signal` is named `AbortController.signal`.
    const name = url?.slice(`${MDN}Web/API/`.length).replaceAll('/', '.');
    if (name !== undefined && key !== undefined && summary !== '' && !summaries.has(key))
      summaries.set(key, { summary, name });
  }
  for (const [key, { summary }] of summaries) add(pages, key, summary);
  // An interface's text holds its members' summaries, as its MDN page lists them.
  for (const [key, { summary, name }] of summaries) {
    const parent = key.slice(0, key.lastIndexOf('/'));
    const page = pages.get(parent);
    if (page !== undefined && parent.startsWith('web/api/')) page.parts.push(`${name} — ${summary}`);
  }
}

/** The versions of the source packages, recorded in the file so an upgrade rebuilds the index. */
export function sourceVersions(): Record<string, string> {
  const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  return { '@vscode/web-custom-data': version('@vscode/web-custom-data'), '@types/web': version('@types/web') };
}

/** The page texts of the MDN pages the demo corpus has (`keep`, MDN paths as `keyOf` makes them). */
export function pageTexts(keep: ReadonlySet<string>): PageTexts {
  const pages: PageTexts = new Map();
  fromCustomData(pages);
  fromWebTypes(pages);
  for (const key of pages.keys()) if (!keep.has(key)) pages.delete(key);
  return pages;
}

/** Every MDN URL of `@mdn/browser-compat-data`, as `keyOf` makes them. */
function compatKeys(): Set<string> {
  const keys = new Set<string>();
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    for (const [name, value] of Object.entries(node)) {
      const url = name === '__compat' ? (value as { mdn_url?: string }).mdn_url : undefined;
      const key = url === undefined ? undefined : keyOf(url);
      if (key !== undefined) keys.add(key);
      else if (name !== '__compat') walk(value);
    }
  };
  walk(JSON.parse(readFileSync(require.resolve('@mdn/browser-compat-data'), 'utf8')));
  return keys;
}

/** The generated module's text. */
export function pageTextModule(pages: PageTexts, versions: Record<string, string>): string {
  const entries = [...pages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const data = Object.fromEntries(entries.map(([key, page]) => [key, [page.description, ...page.parts]]));
  return [
    '// Generated by packages/core/scripts/build-page-text.ts (the core package build); not committed, do not edit.',
    '// Text from MDN Web Docs (https://developer.mozilla.org) by Mozilla Contributors, CC-BY-SA 2.5,',
    `// as shipped in ${Object.entries(versions)
      .map(([name, version]) => `${name}@${version}`)
      .join(' and ')}.`,
    `export const PAGE_TEXT_SOURCES = ${JSON.stringify(versions)};`,
    `export const PAGE_TEXT = JSON.parse(${JSON.stringify(JSON.stringify(data))});`,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pages = pageTexts(compatKeys());
  mkdirSync(dirname(PAGE_TEXT_FILE), { recursive: true });
  writeFileSync(PAGE_TEXT_FILE, pageTextModule(pages, sourceVersions()));
  console.log(`wrote ${join('src/providers/local/generated', 'page-text.js')}: ${pages.size} pages`);
}
