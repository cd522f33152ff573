import { type DoctorCheck, ProviderError } from '../../provider.ts';
import { createHttpClient } from '../shared/http-client.ts';
import { sendRequest } from '../shared/json-answer.ts';
import { receiptOf } from './receipt.ts';
import { type AnthropicSettings, messagesRequest } from './request.ts';

/** The probe asks what training data cannot answer, so a real answer needs a real search. */
export const ANTHROPIC_PROBE_INPUT = 'What is the latest released version of Node.js today? Cite the source.';

/**
 * `openmates doctor --live`: one real, billed search with fixed text (never a user's query), held
 * to the receipt rule of every search (ADR 0129).
 */
export async function liveProbe(
  settings: AnthropicSettings & { apiKey: string },
  signal: AbortSignal,
): Promise<DoctorCheck[]> {
  const { readMessage } = await import('./transport.ts');
  const request = messagesRequest({ query: ANTHROPIC_PROBE_INPUT, country: 'ALL' }, settings);
  const client = createHttpClient(request.url);
  const name = 'anthropic: search executed and cited';
  try {
    const answer = await sendRequest(client, request, signal, { name: 'Anthropic' });
    if (answer.status !== 200) {
      client.discard(answer);
      return [
        {
          name,
          ok: false,
          detail: `HTTP ${answer.status}`,
          fix: 'check ANTHROPIC_API_KEY and OPENMATES_ANTHROPIC_SEARCH_MODEL',
        },
      ];
    }
    const receipt = receiptOf(await readMessage(client, answer, signal), settings.maxSearches);
    const results = receipt.searches.reduce((sum, search) => sum + search.results.length, 0);
    return [{ name, ok: true, detail: `${receipt.searches.length} search(es), ${results} result(s)` }];
  } catch (error) {
    const detail =
      error instanceof ProviderError ? `${error.code}: ${error.message}` : 'the probe was cancelled or could not run';
    return [{ name, ok: false, detail, fix: 'check ANTHROPIC_BASE_URL, the key and the model’s access to web search' }];
  } finally {
    client.close();
  }
}
