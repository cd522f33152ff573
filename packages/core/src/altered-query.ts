import { cleanText, MAX_ALTERED_QUERY_LENGTH } from '@openmates/contract';
import { truncate } from './hygiene/index.ts';
import { type ScopedQuery, withoutSiteOperators } from './providers/shared/site-operators.ts';

/**
 * A group's `altered_query` from what the provider said it searched for instead: plain text
 * (invisible characters removed, whitespace collapsed, NFC), redacted, without the operators the
 * engine added to the query it sent (`site:`, `-site:`), bounded like a query. Undefined when there
 * is nothing, or nothing but the query itself (in any case or spacing): then the provider searched
 * for what it was sent.
 */
export function alteredQueryOf(raw: unknown, item: ScopedQuery, redact: (text: string) => string): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const text = truncate(redact(withoutSiteOperators(cleanText(raw).normalize('NFC'), item)), MAX_ALTERED_QUERY_LENGTH);
  const fold = (value: string) => value.replace(/\s+/g, ' ').trim().toLowerCase();
  return fold(text) === '' || fold(text) === fold(item.query) ? undefined : text;
}
