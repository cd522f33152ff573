import type { ErrorResponse, ResultGroup, WebSearchResponse } from '@openmates/contract';
import type { RetryInfo } from '@openmates/sdk';
import type { LiveOptions, SearchOutcome } from './outcome.ts';

/** A wait as a person reads it: `1.5 s`, `12 s`, `250 ms`. */
function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return ms < 10_000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms / 1000)} s`;
}

/** What the CLI says before waiting to try again: why, for how long, and how to stop it. */
export function waitNotice(apiUrl: string, status: number, code: string | undefined, ms: number): string {
  const why =
    status === 429 ? `${apiUrl} rate limited this client` : `${apiUrl} answered ${status}${code ? ` (${code})` : ''}`;
  const stop = status === 429 ? 'Ctrl-C stops, --no-wait exits at once' : 'Ctrl-C stops';
  return `${why}: waiting ${duration(ms)} before trying again (${stop})`;
}

function isErrorResponse(body: unknown): body is ErrorResponse {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as ErrorResponse).error === 'string' &&
    typeof (body as ErrorResponse).code === 'string'
  );
}

/**
 * Runs the search through an OpenMates server with the SDK, mapping its errors back to the
 * shapes the server sent: a 502's WebSearchResponse, any other status's ErrorResponse.
 */
export async function searchRemote(
  request: unknown,
  apiUrl: string,
  apiKey: string | undefined,
  live: LiveOptions = {},
): Promise<SearchOutcome> {
  const { signal, onGroup, onWait, wait = true } = live;
  const { APIConnectionError, APIError, APITimeoutError, OpenMates, ProviderError } = await import('@openmates/sdk');
  // Before each wait the SDK would make: a 429 is waited on only for `rate_limited` (never a
  // quota), and nothing is waited on with `--no-wait`; otherwise the person is told (ADR 0122).
  const onRetry = ({ status, delayMs, error }: RetryInfo) => {
    const code = error instanceof APIError ? error.code : undefined;
    if (!wait || (status === 429 && code !== 'rate_limited')) throw error;
    // A connection failure's backoff is short (the SDK's); its one line comes if the retries fail too.
    if (status !== undefined) onWait?.(waitNotice(apiUrl, status, code, delayMs));
  };
  const client = new OpenMates({ baseURL: apiUrl, apiKey: apiKey ?? '', onRetry });
  try {
    // The SDK's parameter type is the valid request; an invalid one goes as is, for the server to refuse.
    const params = request as Parameters<typeof client.apps.web.search>[0];
    const options = signal ? { signal } : {};
    if (!onGroup) {
      const response = await client.apps.web.search(params, options);
      return { kind: 'response', response: response as WebSearchResponse };
    }
    // The event stream: each group as its query finishes; the final response settles as search would.
    const stream = client.apps.web.searchStream(params, options);
    for await (const event of stream) if (event.event === 'group') onGroup(event.data as ResultGroup);
    return { kind: 'response', response: (await stream.finalResponse()) as WebSearchResponse };
  } catch (error) {
    if (signal?.aborted) return { kind: 'aborted' };
    if (error instanceof ProviderError) return { kind: 'response', response: error.response as WebSearchResponse };
    if (error instanceof APIError) {
      if (isErrorResponse(error.body)) return { kind: 'error', body: error.body };
      return {
        kind: 'error',
        body: { error: `${apiUrl} answered HTTP ${error.status}, not an OpenMates response`, code: 'internal_error' },
      };
    }
    if (error instanceof APITimeoutError)
      return { kind: 'unreachable', message: `${apiUrl} did not answer in time: is it an OpenMates server?` };
    if (error instanceof APIConnectionError)
      return { kind: 'unreachable', message: `cannot reach ${apiUrl}: is \`openmates serve\` running there?` };
    throw error;
  }
}
