// The cleaning reference of the markup variant: the keep-alive proxy of `references.ts`, answering
// what the server answers, made the plain way with standard parts: every text field of a result
// (title, description, age, language, the breadcrumb path, extra snippets) as htmlparser2's text
// (entities decoded), `normalize('NFC')`; WHATWG `URL` for every URL; `JSON.stringify` of the
// answer. The server must be no slower than this obvious way of doing the same work.
// `checkCleaning` holds its whole answer to the server's before any timing (ADR 0109).
import { randomUUID } from 'node:crypto';
import { DEFAULT_MAX_SOURCES } from '@openmates/contract';
import { Parser } from 'htmlparser2';

/** One result as the cleaning proxy answers it: the server's fields in the server's order (undefined: left out). */
interface CleanResult {
  title: string;
  url: string;
  description: string;
  age: string | undefined;
  language: string | undefined;
  family_friendly: boolean | undefined;
  meta_url: { scheme: string; netloc: string; hostname: string; path: string; favicon?: string };
  extra_snippets: string[] | undefined;
}

interface BraveResult {
  url?: unknown;
  title?: unknown;
  description?: unknown;
  age?: unknown;
  language?: unknown;
  family_friendly?: unknown;
  meta_url?: { netloc?: unknown; path?: unknown; favicon?: unknown };
  extra_snippets?: unknown;
}

interface BraveAnswer {
  query?: { more_results_available?: unknown };
  web?: { results?: BraveResult[] };
}

/** The text htmlparser2 reads in `html`: its text nodes joined, entities decoded. */
function htmlText(html: string): string {
  let text = '';
  const parser = new Parser({
    ontext(piece) {
      text += piece;
    },
  });
  parser.end(html);
  return text;
}

/** Clean text: the HTML's text, whitespace runs as one space, trimmed, in NFC; '' for a non-string. */
function cleanText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return htmlText(value).replace(/\s+/g, ' ').trim().normalize('NFC');
}

/** The URL parsed by WHATWG `URL`, when it parses and is http(s); else undefined. */
function parsedUrl(value: unknown): URL | undefined {
  const url = typeof value === 'string' ? URL.parse(value) : null;
  return url?.protocol === 'https:' || url?.protocol === 'http:' ? url : undefined;
}

/** The display parts of `url`: Brave's host name and breadcrumb when they are clean, else the URL's own. */
function metaUrl(url: URL, brave: BraveResult['meta_url']): CleanResult['meta_url'] {
  const netloc = typeof brave?.netloc === 'string' ? brave.netloc.toLowerCase() : '';
  const path = cleanText(brave?.path);
  const meta: CleanResult['meta_url'] = {
    scheme: url.protocol.slice(0, -1),
    netloc: netloc === url.host || `www.${netloc}` === url.host ? netloc : url.host,
    hostname: url.hostname,
    path: path === '' ? url.pathname : path,
  };
  const favicon = parsedUrl(brave?.favicon);
  if (favicon?.protocol === 'https:') meta.favicon = favicon.href;
  return meta;
}

/** Clean text, or undefined when nothing is left. */
const cleanOrNone = (value: unknown) => cleanText(value) || undefined;

/** One Brave result as cleaned, or undefined without a usable URL and title. */
function cleanResult(result: BraveResult): CleanResult | undefined {
  const url = parsedUrl(result.url);
  const title = cleanText(result.title);
  if (url === undefined || title === '') return undefined;
  return {
    title,
    url: url.href,
    description: cleanText(result.description),
    age: cleanOrNone(result.age),
    language: cleanOrNone(result.language),
    family_friendly: typeof result.family_friendly === 'boolean' ? result.family_friendly : undefined,
    meta_url: metaUrl(url, result.meta_url),
    extra_snippets: Array.isArray(result.extra_snippets) ? result.extra_snippets.map(cleanText) : undefined,
  };
}

/** Brave's answer (its JSON text) as one group of cleaned results. */
function cleanGroup(text: string, id: number) {
  const answer = JSON.parse(text) as BraveAnswer;
  const results: CleanResult[] = [];
  for (const result of answer.web?.results ?? []) {
    const cleaned = cleanResult(result);
    if (cleaned !== undefined) results.push(cleaned);
  }
  return { id, results, more: answer.query?.more_results_available === true };
}

/** The cleaning proxy's answer to a request: the server's answer, its request id and its JSON. */
export async function cleaningAnswer(
  queries: readonly string[],
  fetchAnswer: (query: string) => Promise<string>,
): Promise<{ requestId: string; json: string }> {
  const groups = await Promise.all(
    queries.map(async (query, index) => cleanGroup(await fetchAnswer(query), index + 1)),
  );
  const admitted = groups.reduce((sum, group) => sum + group.results.length, 0);
  const requestId = randomUUID();
  const json = JSON.stringify({
    results: groups,
    provider: 'Brave Search',
    request_id: requestId,
    budget: {
      calls_used: queries.length,
      max_sources: DEFAULT_MAX_SOURCES,
      sources_admitted: admitted,
      sources_cut: 0,
      notes_fitted_out: 0,
      suggestions_fitted_out: 0,
      results_fitted_out: 0,
    },
  });
  return { requestId, json };
}

/** An answer without its request id, which is its own on each side. */
const withoutId = (answer: object) => JSON.stringify({ ...answer, request_id: undefined });

/**
 * Throws unless the cleaning proxy's answer and the server's to the same request, over the same
 * provider answers, are the same JSON, request ids aside: the reference then does the server's
 * work, no less and no more. Returns how many results were compared.
 */
export function checkCleaning(serverJson: string, proxyJson: string): number {
  const served = JSON.parse(serverJson) as { results: { results: unknown[] }[] };
  const compared = served.results.flatMap((g) => g.results).length;
  const [server, proxy] = [withoutId(served), withoutId(JSON.parse(proxyJson) as object)];
  if (compared === 0 || server !== proxy) {
    const at = [...server].findIndex((c, i) => c !== proxy[i]);
    throw new Error(
      `the cleaning proxy's answer differs from the server's at ${at}: …${server.slice(Math.max(0, at - 80), at + 80)}… against …${proxy.slice(Math.max(0, at - 80), at + 80)}…`,
    );
  }
  return compared;
}
