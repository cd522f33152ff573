import {
  ErrorResponseSchema,
  PATHS,
  SearchStreamEventSchema,
  type WebSearchResponse,
  WebSearchResponseSchema,
} from '@openmates/contract';
import { APIError, OpenMates, ProviderError } from '@openmates/sdk';
import { createParser } from 'eventsource-parser';
import type { CaseEnvironment, DriverResult, ParityCase, RecordedRetry, Surface, SurfaceDriver } from '../case.ts';
import { outcomeOfError, outcomeOfResponse } from '../outcome.ts';
import { startCaseServer } from './case-engine.ts';
import { retryFront } from './scripted-upstream.ts';

/** What one way of streaming handed back: the last document and the ids of the `group` events before it. */
interface Streamed {
  document: unknown;
  groups: unknown[];
  transcript: string;
  /** False when the answer was a JSON refusal before any stream (a retry case's scripted 502 among them). */
  streamed: boolean;
}

/** REST with `Accept: text/event-stream`: every event as the wire carries it, parsed by eventsource-parser (no retries). */
async function restStream(url: string, testCase: ParityCase, _retrying: Retrying): Promise<Streamed> {
  const response = await fetch(`${url}${PATHS.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(testCase.request),
  });
  const text = await response.text();
  const transcript = `${response.status}\n${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${text}`;
  // A refusal before the stream began is the ordinary JSON answer.
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream'))
    return { document: JSON.parse(text), groups: [], transcript, streamed: false };
  if (response.headers.get('cache-control') !== 'no-store' || response.headers.get('x-accel-buffering') !== 'no')
    throw new Error('stream: the event stream lacks Cache-Control: no-store or X-Accel-Buffering: no');
  const events: { event: string; data: unknown }[] = [];
  const parser = createParser({
    onEvent: ({ event, data }) => events.push(SearchStreamEventSchema.parse({ event, data: JSON.parse(data) })),
    onRetry: () => {
      throw new Error('stream: the server sent a retry: field');
    },
  });
  parser.feed(text);
  const last = events.at(-1);
  const ends = events.filter((e) => e.event !== 'group');
  if (!last || ends.length !== 1 || last.event === 'group')
    throw new Error(`stream: expected group events then one done or error, got ${events.map((e) => e.event)}`);
  const groups = events.slice(0, -1).map((e) => (e.data as { id: unknown }).id);
  return { document: last.data, groups, transcript, streamed: true };
}

/** How many retries a read may make, and where it records each (the SDK's `onRetry`). */
interface Retrying {
  maxRetries: number;
  retries: RecordedRetry[];
}

/** The npm SDK's `searchStream`: the events it yields and the document its final response resolves or rejects with. */
async function sdkStream(url: string, testCase: ParityCase, { maxRetries, retries }: Retrying): Promise<Streamed> {
  const client = new OpenMates({
    baseURL: url,
    apiKey: null,
    maxRetries,
    onRetry: ({ status, delayMs }) => retries.push({ status: status ?? null, delayMs }),
  });
  const stream = client.apps.web.searchStream(testCase.request as Parameters<typeof client.apps.web.search>[0]);
  const groups: unknown[] = [];
  let streamed = false;
  try {
    for await (const event of stream) {
      streamed = true;
      if (event.event === 'group') groups.push(event.data.id);
    }
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
  }
  try {
    const response = await stream.finalResponse();
    return { document: response, groups, transcript: JSON.stringify(response), streamed };
  } catch (error) {
    if (error instanceof ProviderError)
      return { document: error.response, groups, transcript: error.message, streamed };
    if (!(error instanceof APIError)) throw error;
    return { document: error.body, groups, transcript: `${error.message}\n${JSON.stringify(error.body)}`, streamed };
  }
}

/** Throws unless the `group` events before `done` were exactly one per query of its response. */
export function checkGroups(surface: Surface, groups: readonly unknown[], done: WebSearchResponse): void {
  if (JSON.stringify([...groups].map(String).sort()) !== JSON.stringify(done.results.map((g) => String(g.id)).sort()))
    throw new Error(`${surface}: group events ${JSON.stringify(groups)} are not one per query of done`);
}

/**
 * The event stream (ADR 0059) as a column: `stream` reads REST's `text/event-stream` answer off the
 * wire, `sdk-stream` the npm SDK's `searchStream`. Each runs every case the SDK can express (typed
 * requests). Its document is the `done` response (or the `error` event's, or the JSON refusal), so
 * the suite's whole-document comparison proves it equals the non-streamed answer; before it, every
 * query of a `done` must have had exactly one `group` event.
 */
function createStreamColumn(surface: 'stream' | 'sdk-stream', read: typeof restStream): SurfaceDriver {
  return {
    surface,
    supports: (testCase) => testCase.http === undefined,
    async run(testCase: ParityCase, environment: CaseEnvironment): Promise<DriverResult> {
      const server = await startCaseServer(environment.env);
      const front = await retryFront(testCase, server.url);
      const retries: RecordedRetry[] = [];
      try {
        const streamed = await read(front.url, testCase, { maxRetries: front.maxRetries, retries });
        const done = WebSearchResponseSchema.safeParse(streamed.document);
        if (done.success && streamed.streamed) checkGroups(surface, streamed.groups, done.data);
        const outcome = done.success
          ? outcomeOfResponse(done.data)
          : outcomeOfError(ErrorResponseSchema.parse(streamed.document));
        const result = { outcome, transcript: streamed.transcript + server.logs.join(''), document: streamed.document };
        const made = front.finish(retries);
        return made ? { ...result, retries: made } : result;
      } finally {
        await front.close();
        await server.close();
      }
    },
  };
}

/** REST's event stream, read off the wire. */
export const createStreamDriver = (): SurfaceDriver => createStreamColumn('stream', restStream);

/** The npm SDK's `searchStream`. */
export const createSdkStreamDriver = (): SurfaceDriver => createStreamColumn('sdk-stream', sdkStream);
