import { ErrorResponseSchema, ResultGroupSchema, WebSearchResponseSchema } from './response-schemas.ts';
import { z } from './zod.ts';

/** The media type a client names in `Accept` to get the search as a stream of events (ADR 0059). */
export const EVENT_STREAM_MEDIA_TYPE = 'text/event-stream';

/** Default interval of the stream's keep-alive comment lines, in ms (the server's setting overrides it). */
export const DEFAULT_STREAM_KEEPALIVE_MS = 15_000;

/** `event: group`: one query's ResultGroup as it finishes, in completion order; provisional (fitting may still cut it). */
export const SearchStreamGroupEventSchema = z
  .strictObject({ event: z.literal('group'), data: ResultGroupSchema })
  .openapi('SearchStreamGroupEvent', {
    description:
      'One group as its query finishes (completion order), already sanitized, bounded and admitted. Provisional: the `done` response is authoritative.',
  });

/** `event: done`: the WebSearchResponse, equal to the non-streamed answer (including an all-failed batch). */
export const SearchStreamDoneEventSchema = z
  .strictObject({ event: z.literal('done'), data: WebSearchResponseSchema })
  .openapi('SearchStreamDoneEvent', {
    description:
      'The last event of a stream that finished: the WebSearchResponse the same request gets without streaming, including a batch in which every group failed.',
  });

/** `event: error`: a failure after the stream began (`not_configured`, `internal_error`); the stream then ends. */
export const SearchStreamErrorEventSchema = z
  .strictObject({ event: z.literal('error'), data: ErrorResponseSchema })
  .openapi('SearchStreamErrorEvent', {
    description:
      'The last event of a stream that failed after it began (`not_configured`, `internal_error`). A refusal before it began (400, 401, 413, 415, 429) is the ordinary JSON answer instead.',
  });

/**
 * One event of the search stream, as `{ event, data }`: on the wire, `event: <event>` and
 * `data: <data as one line of JSON>`. The CLI's `--jsonl` prints exactly these objects.
 */
export const SearchStreamEventSchema = z
  .discriminatedUnion('event', [
    SearchStreamGroupEventSchema,
    SearchStreamDoneEventSchema,
    SearchStreamErrorEventSchema,
  ])
  .openapi('SearchStreamEvent', {
    description:
      'An event of the search stream: zero or more `group` events, then exactly one `done` or `error`. There is no `retry:` field and no replay: a retry would re-run paid searches.',
  });

export type SearchStreamGroupEvent = z.infer<typeof SearchStreamGroupEventSchema>;
export type SearchStreamDoneEvent = z.infer<typeof SearchStreamDoneEventSchema>;
export type SearchStreamErrorEvent = z.infer<typeof SearchStreamErrorEventSchema>;
export type SearchStreamEvent = z.infer<typeof SearchStreamEventSchema>;
