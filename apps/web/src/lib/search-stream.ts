import { ERROR_TABLE, type ErrorResponse, type ResultGroup, type SearchStreamEvent } from '@openmates/contract';
import type { WebSearchRequest } from '@openmates/sdk';
import { createParser } from 'eventsource-parser';
import { type Outcome, refusalOutcome } from './outcome.ts';

/** The page's same-origin stream endpoint (`src/routes/search/stream/+server.ts`). */
export const STREAM_PATH = '/search/stream';

const BROKEN_OFF: Outcome = {
  kind: 'error',
  status: 0,
  code: 'connection_error',
  message: 'The search broke off before it finished. Search again to retry.',
  issues: [],
};

/**
 * Runs a search through the page's stream endpoint (browser only): `onGroup` gets each group as
 * its query finishes (provisional), and the promise resolves to the outcome of the last event:
 * the `done` response, an `error` event, or a refusal before the stream began, each as the server
 * path would show it. Rejects only when `signal` aborts it; a broken connection is an outcome.
 */
export async function streamSearch(
  request: WebSearchRequest,
  {
    signal,
    onGroup,
    endpoint = STREAM_PATH,
  }: {
    signal: AbortSignal;
    onGroup: (group: ResultGroup) => void;
    /** Where to post (default the page's own `STREAM_PATH`). */
    endpoint?: string;
  },
): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(request),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    return BROKEN_OFF;
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.startsWith('text/event-stream')) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's page): refusalOutcome shows the contract's message for the status.
    }
    return refusalOutcome(response.status, body, response.headers.get('x-request-id'));
  }

  let last: Outcome | undefined;
  const parser = createParser({
    onEvent({ event, data }) {
      if (last) return;
      const parsed = { event, data: JSON.parse(data) } as SearchStreamEvent;
      if (parsed.event === 'group') onGroup(parsed.data);
      else if (parsed.event === 'done') last = { kind: 'results', response: parsed.data };
      else if (parsed.event === 'error') last = streamError(parsed.data, response.headers.get('x-request-id'));
    },
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  try {
    while (!last) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    if (signal.aborted) throw error;
  } finally {
    reader.cancel().catch(() => {});
  }
  return last ?? BROKEN_OFF;
}

/** An `error` event (the stream had begun): shown as the JSON answer's refusal would be. */
function streamError(body: ErrorResponse, requestId: string | null): Outcome {
  const status = body.code in ERROR_TABLE ? ERROR_TABLE[body.code].status : 500;
  return refusalOutcome(status, body, requestId);
}

/** What the page's live region says when a group arrives: its query and what it came to. */
export function groupAnnouncement(query: string, group: ResultGroup): string {
  const n = group.results.length;
  const what = group.error
    ? `failed (${group.error.code})`
    : n === 0
      ? 'no results'
      : `${n} ${n === 1 ? 'result' : 'results'}`;
  return `‘${query.trim()}’: ${what}`;
}
