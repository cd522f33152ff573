import { createUndiciGetClient, type HttpTranslator } from '@openmates/core';

/** Reads a value as a record, or undefined. */
const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/**
 * Kestrel's wire format: a search is `/v2/search` with the terms, the page size and the offset;
 * the answer is `{ "items": [{ "href", "heading", "snippet" }], "more": boolean }`.
 */
export function kestrelTranslator(baseUrl: string): { translator: HttpTranslator; close(): void } {
  const origin = new URL(baseUrl);
  let client: ReturnType<typeof createUndiciGetClient> | undefined;
  const translator: HttpTranslator = {
    kind: 'http',
    client: () => {
      client ??= createUndiciGetClient(origin);
      return client;
    },
    buildRequest(query, page) {
      const url = new URL('/v2/search', origin);
      url.search = new URLSearchParams({
        terms: query.query,
        size: String(Math.min(query.fetchCount, 10)),
        offset: String(page.page * 10),
      }).toString();
      return { url, headers: { accept: 'application/json' } };
    },
    parseAnswer(json) {
      const answer = record(json);
      if (!answer || !Array.isArray(answer.items)) return undefined;
      const candidates = answer.items.flatMap((item) => {
        const hit = record(item);
        return hit ? [{ format: 'text' as const, url: hit.href, title: hit.heading, description: hit.snippet }] : [];
      });
      return { candidates, more: answer.more === true };
    },
  };
  return { translator, close: () => client?.close() };
}
