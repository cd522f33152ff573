import type { ProviderAnswer, RawCandidate } from '../../provider.ts';
import { isRecord } from '../../shared/is-record.ts';
import { type CodePointSpan, citationNote } from './citing-sentence.ts';
import type { SearchReceipt } from './receipts.ts';
import { textPartKey } from './text-part.ts';

function actionOf(call: SearchReceipt['calls'][number]): Record<string, unknown> {
  return isRecord(call.action) ? call.action : {};
}

/** The spans of every citation, by the text part they cite in (`itemId:contentIndex`). */
function citationSpans(receipt: SearchReceipt): Map<string, CodePointSpan[]> {
  const spans = new Map<string, CodePointSpan[]>();
  for (const { itemId, contentIndex, annotation } of receipt.annotations) {
    if (!isRecord(annotation) || annotation.type !== 'url_citation') continue;
    const { start_index: start, end_index: end } = annotation;
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) continue;
    const key = textPartKey(itemId, contentIndex);
    const part = spans.get(key);
    if (part === undefined) spans.set(key, [[start as number, end as number]]);
    else part.push([start as number, end as number]);
  }
  return spans;
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
  const spans = citationSpans(receipt);

  for (const { itemId, contentIndex, annotation } of receipt.annotations) {
    if (!isRecord(annotation) || annotation.type !== 'url_citation') continue;
    const { url } = annotation;
    if (typeof url !== 'string' || seen.has(url)) continue;
    seen.add(url);
    // A citation's title is the page's title as plain text, and the note is the model's own
    // (markdown) text: neither is HTML, so `Vec<T>` in either stays as written.
    const candidate: RawCandidate = { format: 'text', url, title: annotation.title };
    const key = textPartKey(itemId, contentIndex);
    const note = citationNote(receipt.texts.get(key), annotation.start_index, annotation.end_index, spans.get(key));
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
