import type { ProviderAnswer, RawCandidate } from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';
import { citationNote } from '../openai/citing-sentence.ts';
import type { AnthropicReceipt } from './receipt.ts';

/** What the answer's citations say of one URL: its title, the passages quoted from it, the sentence citing it. */
interface Cited {
  title: unknown;
  quotes: string[];
  note: string | undefined;
}

const nonBlank = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * The citations of the answer's text, by URL in the order first cited. A citation's `cited_text` is
 * a quotation of the page (page text, kept as its excerpt); the sentence of the model's answer that
 * the citing text block ends in is a generated note, found as OpenAI's are (ADR 0098) in the text of
 * every block put together.
 */
function citations(receipt: AnthropicReceipt): Map<string, Cited> {
  const cited = new Map<string, Cited>();
  const whole = receipt.texts.map((block) => (typeof block.text === 'string' ? block.text : '')).join('');
  let offset = 0;
  for (const block of receipt.texts) {
    const length = Array.from(typeof block.text === 'string' ? block.text : '').length;
    const last = offset + Math.max(0, length - 1);
    offset += length;
    if (!Array.isArray(block.citations)) continue;
    for (const citation of block.citations) {
      if (!isRecord(citation) || citation.type !== 'web_search_result_location' || !nonBlank(citation.url)) continue;
      let entry = cited.get(citation.url);
      if (entry === undefined) {
        entry = { title: citation.title, quotes: [], note: length > 0 ? citationNote(whole, last, last) : undefined };
        cited.set(citation.url, entry);
      }
      if (nonBlank(citation.cited_text) && !entry.quotes.includes(citation.cited_text))
        entry.quotes.push(citation.cited_text);
    }
  }
  return cited;
}

/**
 * Turns a receipt into candidates and suggestions (ADR 0129). Results are the `web_search_result`
 * entries (title, URL, `page_age` as the age; `encrypted_content` is never read), the cited ones
 * first in the order first cited, each with its first quoted passage as the excerpt, further ones as
 * extra snippets, and the citing sentence as its note; a URL is kept once. Suggestions are the
 * queries the hosted search ran, other than the query.
 */
export function answerFromReceipt(receipt: AnthropicReceipt, query: string): ProviderAnswer {
  const found = new Map<string, Record<string, unknown>>();
  for (const search of receipt.searches)
    for (const result of search.results)
      if (nonBlank(result.url) && !found.has(result.url)) found.set(result.url, result);
  const cited = citations(receipt);

  const candidates: RawCandidate[] = [];
  const seen = new Set<string>();
  const add = (url: string) => {
    if (seen.has(url)) return;
    seen.add(url);
    const result = found.get(url);
    const quote = cited.get(url);
    // The excerpts quote pages as sent: entities such as `&#x27;` stand in them, so they are read as HTML.
    const candidate: RawCandidate = { format: 'html', url, title: result?.title ?? quote?.title };
    if (result?.page_age !== undefined && result.page_age !== null) candidate.age = result.page_age;
    if (quote !== undefined) {
      const [first, ...more] = quote.quotes;
      if (first !== undefined) candidate.description = first;
      if (more.length > 0) candidate.extra_snippets = more;
      if (quote.note !== undefined) candidate.note = quote.note;
    }
    candidates.push(candidate);
  };
  for (const url of cited.keys()) add(url);
  for (const url of found.keys()) add(url);

  const own = query.trim().toLowerCase();
  const suggestions: string[] = [];
  for (const search of receipt.searches) {
    const text = search.query;
    if (nonBlank(text) && text.trim().toLowerCase() !== own && !suggestions.includes(text)) suggestions.push(text);
  }
  const answer: ProviderAnswer = { candidates };
  if (suggestions.length > 0) answer.suggestions = suggestions;
  return answer;
}
