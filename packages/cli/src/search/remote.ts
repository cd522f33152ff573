import type { ErrorResponse, ResultGroup, WebSearchResponse } from '@openmates/contract';
import type { LiveOptions, SearchOutcome } from './outcome.ts';

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
  const { signal, onGroup } = live;
  const { APIConnectionError, APIError, APITimeoutError, OpenMates, ProviderError } = await import('@openmates/sdk');
  const client = new OpenMates({ baseURL: apiUrl, apiKey: apiKey ?? '' });
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
