// The cleaning reference of the markup variant: the keep-alive proxy of `references.ts`, cleaning
// every title, description and extra snippet the plain way with standard parts — htmlparser2's text
// of each string (entities decoded), `normalize('NFC')`, WHATWG `URL` for every URL — and answering
// `JSON.stringify` of what it kept. The server must be no slower than this obvious way of doing the
// same work. `checkCleaning` holds its output to the server's before any timing.
import { Parser } from 'htmlparser2';

/** One result as the cleaning proxy answers it. */
export interface CleanResult {
  url: string;
  title: string;
  description: string;
  favicon?: string;
  extra_snippets?: string[];
}

interface BraveResult {
  url?: unknown;
  title?: unknown;
  description?: unknown;
  meta_url?: { favicon?: unknown };
  extra_snippets?: unknown;
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

/** Clean text: the HTML's text, whitespace runs as one space, trimmed, in NFC. */
function cleanText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return htmlText(value).replace(/\s+/g, ' ').trim().normalize('NFC');
}

/** The URL as WHATWG `URL` writes it, when it parses and is http(s); else undefined. */
function cleanUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
}

/** Brave's answer (its JSON text) as cleaned results: one per result with a usable URL and a title. */
export function cleanBraveAnswer(text: string): CleanResult[] {
  const answer = JSON.parse(text) as { web?: { results?: BraveResult[] } };
  const out: CleanResult[] = [];
  for (const result of answer.web?.results ?? []) {
    const url = cleanUrl(result.url);
    const title = cleanText(result.title);
    if (url === undefined || title === '') continue;
    const cleaned: CleanResult = { url, title, description: cleanText(result.description) };
    const favicon = cleanUrl(result.meta_url?.favicon);
    if (favicon !== undefined) cleaned.favicon = favicon;
    if (Array.isArray(result.extra_snippets)) cleaned.extra_snippets = result.extra_snippets.map(cleanText);
    out.push(cleaned);
  }
  return out;
}

/** The cleaning proxy's answer to a request: each query's cleaned results, as JSON. */
export async function cleaningAnswer(
  queries: readonly string[],
  fetchAnswer: (query: string) => Promise<string>,
): Promise<string> {
  const groups = await Promise.all(
    queries.map(async (query, id) => ({ id, results: cleanBraveAnswer(await fetchAnswer(query)) })),
  );
  return JSON.stringify({ results: groups, provider: 'Brave' });
}

type Compared = { id: unknown; results: { url: string; title: string; description: string }[] };

/**
 * Throws unless the cleaning proxy's answer and the server's to the same request, over the same
 * provider answers, hold the same titles, descriptions and URLs in the same order: the reference
 * then does the server's cleaning, no less and no more.
 */
export function checkCleaning(serverJson: string, proxyJson: string): number {
  const pick = (json: string) =>
    (JSON.parse(json) as { results: Compared[] }).results.map((group) =>
      group.results.map(({ url, title, description }) => ({ url, title, description })),
    );
  const [server, proxy] = [pick(serverJson), pick(proxyJson)];
  const compared = server.flat().length;
  if (compared === 0 || JSON.stringify(server) !== JSON.stringify(proxy)) {
    const first = server.flat().find((r, i) => JSON.stringify(r) !== JSON.stringify(proxy.flat()[i]));
    throw new Error(
      `the cleaning proxy's titles, descriptions or URLs differ from the server's (first: ${JSON.stringify(first)})`,
    );
  }
  return compared;
}
