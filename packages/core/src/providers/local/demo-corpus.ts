import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DEMO_CORPUS_DIGEST, DEMO_CORPUS_PACKAGES } from './demo-corpus-digest.ts';
import { DEMO_META_KEY } from './index-stats.ts';
import type { LocalDocument } from './local-document.ts';
import { type AddProgress, type LocalIndex, LocalIndexError, openIndex } from './local-index.ts';
import { pageText, pageTextOf } from './page-text.ts';

export { DEMO_META_KEY };

/**
 * The demo corpus: MDN reference pages described by `@mdn/browser-compat-data` (BCD) and the web
 * platform features of `web-features`, built at run time from the pinned packages in node_modules so
 * that a fresh install answers real queries offline. Each MDN page that has one gets its own summary
 * and text from the page text the core package's build extracts (`generated/page-text.js`, MDN's
 * text under CC-BY-SA 2.5: see scripts/build-page-text.ts). No third-party text is committed.
 */

/** `source` tag of demo documents; a rebuild replaces these and nothing else. */
export const DEMO_SOURCE = 'demo';
/** How long a process waits for another one building the corpus (it takes seconds). */
const BUILD_WAIT_MS = 120_000;

interface CompatStatement {
  mdn_url?: string;
  description?: string;
}
type CompatTree = { __compat?: CompatStatement } & { [key: string]: unknown };

interface WebFeature {
  kind: string;
  name?: string;
  description?: string;
  compat_features?: string[];
  caniuse?: string[];
  spec?: string | string[];
}

const require = createRequire(import.meta.url);

function packageVersion(entry: string): string {
  const json = JSON.parse(readFileSync(join(dirname(entry), 'package.json'), 'utf8')) as { version: string };
  return json.version;
}

function dataPaths(): { bcd: string; features: string } {
  return { bcd: require.resolve('@mdn/browser-compat-data'), features: require.resolve('web-features/data.json') };
}

/**
 * The versions of the data packages as installed, resolved from node_modules. Only the builder and
 * the generator of `demo-corpus-digest.ts` resolve them: every search names the corpus's version,
 * and resolving two packages would cost each start, so the generated file holds them and a
 * test fails when they drift from what is installed.
 */
export function installedDemoPackages(): { bcd: string; webFeatures: string } {
  const paths = dataPaths();
  return { bcd: packageVersion(paths.bcd), webFeatures: packageVersion(paths.features) };
}

/**
 * The version string of the demo corpus, e.g.
 * `bcd@8.1.9+web-features@3.40.0+@vscode/web-custom-data@0.6.3+@types/web@0.0.359+3f2a9c41d0be`: the data
 * packages, those the page text came from, and the digest of the documents built from them (`DEMO_CORPUS_DIGEST`), both generated
 * and kept current by tests. A demo index of another version is rebuilt on its next open, so a
 * change to the recipe or to the page text (which the digest covers) reaches existing users without them deleting their index.
 */
export function demoCorpusVersion(): string {
  const { bcd, webFeatures, pageText: sources } = DEMO_CORPUS_PACKAGES;
  const text = Object.entries(sources).map(([name, version]) => `+${name}@${version}`);
  return `bcd@${bcd}+web-features@${webFeatures}${text.join('')}+${DEMO_CORPUS_DIGEST}`;
}

/** Readable category of a BCD key prefix, longest prefix first. */
const LABELS: [prefix: string, label: string][] = [
  ['css.properties', 'CSS property'],
  ['css.selectors', 'CSS selector'],
  ['css.at-rules', 'CSS at-rule'],
  ['css.types', 'CSS value type'],
  ['html.elements', 'HTML element'],
  ['html.global_attributes', 'HTML global attribute'],
  ['html.manifest', 'Web app manifest member'],
  ['http.headers', 'HTTP header'],
  ['http.status', 'HTTP response status'],
  ['http.methods', 'HTTP request method'],
  ['svg.elements', 'SVG element'],
  ['svg.global_attributes', 'SVG attribute'],
  ['mathml.elements', 'MathML element'],
  ['javascript.builtins', 'JavaScript built-in'],
  ['javascript.statements', 'JavaScript statement'],
  ['javascript.operators', 'JavaScript operator'],
  ['javascript', 'JavaScript'],
  ['webextensions.api', 'WebExtensions API'],
  ['webextensions', 'WebExtensions'],
  ['webassembly', 'WebAssembly'],
  ['webdriver', 'WebDriver'],
  ['manifests', 'Web app manifest'],
  ['mediatypes', 'Media type'],
  ['api', 'Web API'],
  ['css', 'CSS'],
  ['html', 'HTML'],
  ['http', 'HTTP'],
  ['svg', 'SVG'],
  ['mathml', 'MathML'],
];

function labelFor(key: string): { label: string; depth: number } {
  for (const [prefix, label] of LABELS)
    if (key === prefix || key.startsWith(`${prefix}.`)) return { label, depth: prefix.split('.').length };
  return { label: 'Web platform', depth: 1 };
}

/** How a feature's own name reads at the top of its category (`<div>`, `@media`, `<length>`). */
function decorate(prefix: string, name: string): string {
  if (prefix.endsWith('elements')) return `<${name}>`;
  if (prefix === 'css.at-rules') return `@${name}`;
  if (prefix === 'css.types') return `<${name}>`;
  return name;
}

/**
 * The markup-like name of an element, CSS type or at-rule page (`<div>`, `<color>`, `@media`, or BCD's
 * own label such as `calc()`), else undefined.
 */
function literalName(key: string, description: string | undefined): string | undefined {
  const parts = key.split('.');
  const { depth } = labelFor(key);
  const prefix = parts.slice(0, depth).join('.');
  const head = parts[depth];
  if (head === undefined || parts.length !== depth + 1) return undefined;
  if (!prefix.endsWith('elements') && prefix !== 'css.types' && prefix !== 'css.at-rules') return undefined;
  return description || decorate(prefix, head);
}

/** A member of an interface or object, as MDN titles it. */
function memberName(leaf: string, owner: string, isMethod: boolean): string {
  if (leaf === owner) return `${leaf}() constructor`;
  if (leaf.endsWith('_event')) return `${leaf.slice(0, -'_event'.length)} event`;
  if (leaf.endsWith('_static')) {
    const base = leaf.slice(0, -'_static'.length);
    return isMethod ? `${base}() static method` : `${base} static property`;
  }
  if (leaf.endsWith('_parameter')) return `${leaf.slice(0, -'_parameter'.length)} parameter`;
  if (leaf === '@@iterator') return '[Symbol.iterator]()';
  return isMethod ? `${leaf}() method` : leaf;
}

/**
 * The title of the MDN page of a BCD key: `api.AbortController` → `AbortController`,
 * `api.AbortController.abort` → `AbortController: abort() method`, `css.properties.color` →
 * `color CSS property`. `description` is BCD's own short label (plain text), used when present.
 */
export function bcdTitle(key: string, description: string | undefined, isMethod: boolean): string {
  const parts = key.split('.');
  const { label, depth } = labelFor(key);
  const prefix = parts.slice(0, depth).join('.');
  const own = parts.slice(depth);
  const [head, ...rest] = own;
  if (head === undefined) return description || label;
  if (rest.length === 0) {
    const name = description || decorate(prefix, head);
    return prefix === 'api' || prefix === 'javascript.builtins' ? name : `${name} ${label}`;
  }
  const owner = [decorate(prefix, head), ...rest.slice(0, -1)].join('.');
  const leaf = rest.at(-1) ?? head;
  return `${owner}: ${description || memberName(leaf, head, isMethod)}`;
}

interface Entry {
  key: string;
  description: string | undefined;
  isMethod: boolean;
}

function collectBcd(tree: Record<string, unknown>, htmlToText: (html: string) => string): Map<string, Entry[]> {
  const byUrl = new Map<string, Entry[]>();
  const walk = (node: CompatTree, path: string[]) => {
    const compat = node.__compat;
    const children = Object.keys(node).filter((key) => key !== '__compat');
    if (compat?.mdn_url !== undefined && path.length > 1) {
      const entries = byUrl.get(compat.mdn_url) ?? [];
      entries.push({
        key: path.join('.'),
        description: compat.description ? htmlToText(compat.description) : undefined,
        // BCD records a method's parameters as `*_parameter` sub-features; nothing else says "method".
        isMethod: children.some((child) => child.endsWith('_parameter')),
      });
      byUrl.set(compat.mdn_url, entries);
    }
    for (const child of children) {
      const value = node[child];
      if (typeof value === 'object' && value !== null) walk(value as CompatTree, [...path, child]);
    }
  };
  for (const [category, value] of Object.entries(tree))
    if (category !== '__meta' && category !== 'browsers' && typeof value === 'object' && value !== null)
      walk(value as CompatTree, [category]);
  return byUrl;
}

/** The web feature a BCD key belongs to: its own listing, else its nearest listed ancestor's. */
function featureOf(key: string, byKey: Map<string, WebFeature>): WebFeature | undefined {
  for (let parts = key.split('.'); parts.length > 1; parts = parts.slice(0, -1)) {
    const feature = byKey.get(parts.join('.'));
    if (feature !== undefined) return feature;
  }
  return undefined;
}

/** Words a reader might search for in a key: `api.AbortSignal.abort_static` → `AbortSignal abort static`. */
function readableKey(key: string): string {
  return key.split('.').slice(1).join(' ').replaceAll('_', ' ').replaceAll('@@', '');
}

/**
 * True when a web feature's sentence names the page itself: its markup-like name (`<dialog>`), BCD's
 * own label for it (`type="date"`) or its key's last part as a whole word (`grid`, not `grid-area`).
 */
function speaksOf(sentence: string, primary: Entry): boolean {
  const names = [literalName(primary.key, primary.description), primary.description];
  if (names.some((name) => name !== undefined && sentence.includes(name))) return true;
  const leaf = (primary.key.split('.').at(-1) ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return leaf !== '' && new RegExp(`(^|[^\\w-])${leaf}($|[^\\w-])`, 'i').test(sentence);
}

/**
 * A page's own description: its own summary from the page text, after its title when the summary
 * does not name the page in its markup-like form (`<dialog> HTML element: The dialog element
 * represents…`). A page without one takes the sentence of the web feature it belongs to only when
 * that sentence speaks of the page (see `speaksOf`), after its title; otherwise the sentence is
 * about the feature and would repeat on every page of it (`grid-area` read as `grid`), so the page
 * gets a sentence naming itself and its feature. BCD's own label serves a page of no feature.
 */
function pageDescription(
  primary: Entry,
  title: string,
  summary: string | undefined,
  feature: WebFeature | undefined,
): string | undefined {
  const literal = literalName(primary.key, primary.description);
  if (summary !== undefined)
    return literal === undefined || summary.includes(literal) ? summary : `${title}: ${summary}`;
  if (!feature?.name) return primary.description;
  if (feature.description !== undefined && speaksOf(feature.description, primary))
    return `${title} on MDN Web Docs. ${feature.description}`;
  return `${title} on MDN Web Docs, part of the ${feature.name} web platform feature.`;
}

/** Gives the title first to every description that more than one document would share. */
function ownDescriptions(docs: LocalDocument[]): void {
  const uses = new Map<string, number>();
  for (const { description } of docs) if (description) uses.set(description, (uses.get(description) ?? 0) + 1);
  for (const doc of docs)
    if (doc.description && (uses.get(doc.description) ?? 0) > 1) doc.description = `${doc.title}: ${doc.description}`;
}

/** Builds the demo documents from the installed data packages (about 13,000; takes about a second). */
export async function demoDocuments(): Promise<LocalDocument[]> {
  const { htmlToText } = await import('./html-text.ts');
  const { pages: texts } = await pageText();
  const paths = dataPaths();
  const bcd = JSON.parse(readFileSync(paths.bcd, 'utf8')) as Record<string, unknown>;
  const { features } = JSON.parse(readFileSync(paths.features, 'utf8')) as { features: Record<string, WebFeature> };

  const byKey = new Map<string, WebFeature>();
  const docs: LocalDocument[] = [];
  for (const [id, feature] of Object.entries(features)) {
    if (feature.kind !== 'feature' || !feature.name) continue;
    for (const key of feature.compat_features ?? []) byKey.set(key, feature);
    const specs = typeof feature.spec === 'string' ? [feature.spec] : (feature.spec ?? []);
    const doc: LocalDocument = {
      url: `https://webstatus.dev/features/${encodeURIComponent(id)}`,
      title: `${feature.name} (web platform feature)`,
      body: [
        feature.name,
        feature.description ?? '',
        `Feature id: ${id}.`,
        feature.compat_features?.length ? `Covers ${feature.compat_features.map(readableKey).join(', ')}.` : '',
        feature.caniuse?.length ? `Can I use: ${feature.caniuse.join(', ')}.` : '',
        specs.length ? `Specification: ${specs.join(' ')}` : '',
      ]
        .filter((part) => part !== '')
        .join('\n'),
      language: 'en',
      family_friendly: true,
    };
    if (feature.description) doc.description = feature.description;
    docs.push(doc);
  }

  const pages = collectBcd(bcd, htmlToText);
  // An interface's page lists its members, as MDN's does, so `fetch abort` finds AbortController.
  const members = new Map<string, string[]>();
  for (const entries of pages.values())
    for (const entry of entries) {
      const parts = entry.key.split('.');
      const leaf = parts.at(-1) ?? '';
      const parent = parts.slice(0, -1).join('.');
      const names = members.get(parent) ?? [];
      names.push(entry.description || memberName(leaf, parts.at(-2) ?? '', entry.isMethod));
      members.set(parent, names);
    }
  for (const [url, entries] of pages) {
    // Several keys can share one page (a method and its parameters); the shortest key names it.
    entries.sort((a, b) => a.key.split('.').length - b.key.split('.').length || a.key.localeCompare(b.key));
    const primary = entries[0];
    if (primary === undefined) continue;
    const title = bcdTitle(primary.key, primary.description, primary.isMethod);
    const feature = entries.map((entry) => featureOf(entry.key, byKey)).find((found) => found !== undefined);
    const [summary, ...parts] = pageTextOf(texts, url) ?? [];
    const keys = entries.map((entry) => readableKey(entry.key)).join(', ');
    const { label } = labelFor(primary.key);
    // A page with its own summary reads as itself, the first of its parts' summaries after it. BM25
    // in the index weighs a document's whole length, so every word added pushes a page below siblings
    // without text of their own: with every part, `pnpm bench:quality` fell (ADR 0086).
    const lines =
      summary === undefined
        ? [`${label} reference on MDN Web Docs: ${keys}.`]
        : [`${keys}: ${summary}`, ...parts.slice(0, 1)];
    const own = members.get(primary.key);
    if (own !== undefined) lines.push(`Members: ${own.join(', ')}.`);
    if (feature?.name)
      lines.push(
        summary === undefined ? `Part of ${feature.name}: ${feature.description ?? ''}` : `Part of ${feature.name}.`,
      );
    const doc: LocalDocument = {
      url,
      title,
      body: lines.join('\n'),
      language: 'en',
      family_friendly: true,
    };
    const description = pageDescription(primary, title, summary, feature);
    if (description) doc.description = description;
    docs.push(doc);
  }
  ownDescriptions(docs);
  return docs;
}

/** What `ensureDemoCorpus` did. */
export interface DemoCorpusResult {
  /** True when this call built (or rebuilt) the corpus; false when it was already there or not wanted. */
  built: boolean;
  version: string;
  documents: number;
}

/**
 * Whether the index wants the demo corpus: it has never had one and holds nothing, or it has an
 * older version. An index the user cleared, or filled with their own documents first, is left alone.
 */
function wantsDemo(index: LocalIndex, version: string): boolean {
  const recorded = index.getMeta(DEMO_META_KEY);
  if (recorded === undefined) return index.count() === 0;
  return recorded !== 'cleared' && recorded !== version;
}

/**
 * Builds the demo corpus into `index` under SQLite's write lock, when it wants one (see above).
 * The check runs again once the lock is held, so a server and a CLI starting together build it
 * once; the lock is released by the OS if the builder dies, so there is no stale lock to clean.
 * `force` rebuilds the demo documents whatever the index holds (`openmates index add --demo`).
 */
export async function ensureDemoCorpusIn(
  index: LocalIndex,
  onProgress?: (progress: AddProgress) => void,
  options: { force?: boolean } = {},
): Promise<DemoCorpusResult> {
  const version = await demoCorpusVersion();
  const wanted = () => options.force === true || wantsDemo(index, version);
  if (!wanted()) return { built: false, version, documents: index.count() };
  const docs = await demoDocuments();
  const built = index.exclusive(() => {
    if (!wanted()) return false;
    index.removeSource(DEMO_SOURCE);
    const result = index.addDocuments(docs, onProgress, { source: DEMO_SOURCE });
    if (result.rejected > 0)
      throw new LocalIndexError(`the demo corpus has ${result.rejected} invalid documents (a builder bug)`);
    index.setMeta(DEMO_META_KEY, version);
    return true;
  }, BUILD_WAIT_MS);
  return { built, version, documents: index.count() };
}

/** Opens the index at `indexPath`, builds the demo corpus when it wants one, and closes it. */
export async function ensureDemoCorpus(
  indexPath: string,
  onProgress?: (progress: AddProgress) => void,
): Promise<DemoCorpusResult> {
  const index = openIndex(indexPath);
  try {
    return await ensureDemoCorpusIn(index, onProgress);
  } finally {
    index.close();
  }
}
