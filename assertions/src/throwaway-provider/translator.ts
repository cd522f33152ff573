import { type JsonTranslator, lazyHttpClient } from '@openmates/core';

/** Reads a value as a record, or undefined. */
const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/**
 * Kestrel's wire format: a search is a `POST /v2/search` of `{ "terms", "size", "offset" }` as JSON,
 * with its key as a bearer token; the answer is `{ "items": [{ "href", "heading", "snippet" }],
 * "more": boolean }`. A 401 means the key was refused.
 */
export function kestrelTranslator(baseUrl: string, apiKey: string): { translator: JsonTranslator; close(): void } {
  const origin = new URL(baseUrl);
  const client = lazyHttpClient(origin);
  const translator: JsonTranslator = {
    kind: 'http',
    client: client.get,
    buildRequest(query, page) {
      return {
        method: 'POST',
        url: new URL('/v2/search', origin),
        headers: { accept: 'application/json', authorization: `Bearer ${apiKey}` },
        body: { json: { terms: query.query, size: Math.min(query.fetchCount, 10), offset: page.page * 10 } },
      };
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
  return { translator, close: client.close };
}
