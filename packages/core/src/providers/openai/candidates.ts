import { MAX_DESCRIPTION_LENGTH } from '@openmates/contract';
import type { ProviderAnswer, RawCandidate } from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';
import type { SearchReceipt } from './receipts.ts';

const SENTENCE_END = new Set(['.', '!', '?', '\n']);

/**
 * The sentence of the answer around a citation, without the citation's own span (usually a
 * markdown link). Indices count code points. Undefined when the indices do not fit the text.
 */
export function citationNote(text: string | undefined, start: unknown, end: unknown): string | undefined {
  if (text === undefined || !Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return undefined;
  const chars = Array.from(text);
  const from = start as number;
  const to = end as number;
  if (from < 0 || to < from || to > chars.length) return undefined;
  const isEnd = (i: number) =>
    SENTENCE_END.has(chars[i] ?? '') && (i + 1 >= chars.length || /\s/.test(chars[i + 1] ?? ''));
  let head = from;
  while (head > 0 && !isEnd(head - 1)) head -= 1;
  let tail = to;
  while (tail < chars.length && !isEnd(tail)) tail += 1;
  if (tail < chars.length) tail += 1;
  const note = `${chars.slice(head, from).join('')}${chars.slice(to, tail).join('')}`
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim();
  if (note === '' || /^[.,;:!?]+$/.test(note)) return undefined;
  return Array.from(note).slice(0, MAX_DESCRIPTION_LENGTH).join('');
}

function actionOf(call: SearchReceipt['calls'][number]): Record<string, unknown> {
  return isRecord(call.action) ? call.action : {};
}

/**
 * Turns a receipt into candidates and suggestions. Answer-linked `url_citation`s come first (with
 * their titles, and the citing sentence as a generated `note`), then the URL sources of the
 * completed searches; non-URL sources (`{ type: "api" }`) are left out. Duplicate URL strings
 * keep their first place. Suggestions are the queries the hosted search ran, other than the query.
 */
export function answerFromReceipt(receipt: SearchReceipt, query: string): ProviderAnswer {
  const candidates: RawCandidate[] = [];
  const seen = new Set<string>();

  for (const { itemId, contentIndex, annotation } of receipt.annotations) {
    if (!isRecord(annotation) || annotation.type !== 'url_citation') continue;
    const { url } = annotation;
    if (typeof url !== 'string' || seen.has(url)) continue;
    seen.add(url);
    // A citation's title is the page's title as plain text, and the note is the model's own
    // (markdown) text: neither is HTML, so `Vec<T>` in either stays as written.
    const candidate: RawCandidate = { format: 'text', url, title: annotation.title };
    const note = citationNote(
      receipt.texts.get(`${itemId}:${contentIndex}`),
      annotation.start_index,
      annotation.end_index,
    );
    if (note !== undefined) candidate.note = note;
    candidates.push(candidate);
  }

  for (const call of receipt.calls) {
    const sources = actionOf(call).sources;
    if (!Array.isArray(sources)) continue;
    for (const source of sources) {
      if (!isRecord(source) || source.type !== 'url') continue;
      const { url } = source;
      if (typeof url !== 'string' || seen.has(url)) continue;
      seen.add(url);
      candidates.push({ format: 'text', url });
    }
  }

  const own = query.trim().toLowerCase();
  const suggestions: string[] = [];
  for (const call of receipt.calls) {
    const action = actionOf(call);
    const ran = [...(Array.isArray(action.queries) ? action.queries : []), action.query];
    for (const text of ran)
      if (
        typeof text === 'string' &&
        text.trim() !== '' &&
        text.trim().toLowerCase() !== own &&
        !suggestions.includes(text)
      )
        suggestions.push(text);
  }

  const answer: ProviderAnswer = { candidates };
  if (suggestions.length > 0) answer.suggestions = suggestions;
  return answer;
}
