import { type DoctorCheck, ProviderError } from '../../provider.ts';
import { createHttpClient, type HttpAnswer } from '../shared/http-client.ts';
import { sendRequest } from '../shared/json-answer.ts';
import { type OpenAIProviderConfig, resolveOpenAIConfig } from './config.ts';
import { responsesRequest } from './provider.ts';
import { OPENAI_MAX_OUTPUT_TOKENS } from './request.ts';

/** Level 1 asks for one word with the tool declared: acceptance only, not evidence of search. */
export const OPENAI_PROBE_LEVEL1_INPUT = 'Reply with exactly one word: ok';
/** Level 1's output ceiling: one word needs no more. */
export const OPENAI_PROBE_LEVEL1_MAX_OUTPUT_TOKENS = 32;
/** Level 2 asks what training data cannot answer, so a real answer needs a real search. */
export const OPENAI_PROBE_LEVEL2_INPUT = 'What is the latest released version of Node.js today? Cite the source.';

function failure(error: unknown): string {
  if (error instanceof ProviderError) return `${error.code}: ${error.message}`;
  return 'the probe was cancelled or could not run';
}

/**
 * The live two-level probe, for `openmates doctor --live`: level 1 declares the tool
 * and records the HTTP status; level 2 checks that a search really ran (a completed
 * `web_search_call`) and was cited (`url_citation`). It calls OpenAI and may cost money: opt-in
 * only. Sends fixed probe text, never a user's query.
 */
export async function liveProbe(config: OpenAIProviderConfig, signal: AbortSignal): Promise<DoctorCheck[]> {
  // Loaded here, as by the provider's search: see provider.ts.
  const { readReceipt } = await import('./transport.ts');
  const resolved = resolveOpenAIConfig(config);
  const client = createHttpClient(new URL(resolved.baseUrl));
  const send = (input: string, maxOutputTokens: number): Promise<HttpAnswer> => {
    const request = responsesRequest({ query: input, country: 'ALL' }, resolved);
    const body = { json: { ...(request.body as { json: object }).json, max_output_tokens: maxOutputTokens } };
    return sendRequest(client, { ...request, body }, signal, { name: 'OpenAI' });
  };
  const checks: DoctorCheck[] = [];
  try {
    try {
      const answer = await send(OPENAI_PROBE_LEVEL1_INPUT, OPENAI_PROBE_LEVEL1_MAX_OUTPUT_TOKENS);
      client.discard(answer);
      checks.push({
        name: 'openai level 1: web_search accepted',
        ok: answer.status === 200,
        detail: `HTTP ${answer.status} from ${resolved.recipient} for model ${resolved.model} (acceptance only, not proof of search)`,
        ...(answer.status === 200
          ? {}
          : { fix: 'check the API key, the model name and the account’s access to hosted web_search' }),
      });
    } catch (error) {
      checks.push({
        name: 'openai level 1: web_search accepted',
        ok: false,
        detail: failure(error),
        fix: 'check OPENAI_BASE_URL and network access',
      });
      return checks;
    }
    if (checks[0]?.ok !== true) return checks;
    checks.push(await level2(send, readReceipt, resolved.maxSearches, signal));
    return checks;
  } finally {
    client.close();
  }
}

/** Level 2: a search that must run and be cited. */
async function level2(
  send: (input: string, maxOutputTokens: number) => Promise<HttpAnswer>,
  readReceipt: typeof import('./transport.ts').readReceipt,
  maxSearches: number,
  signal: AbortSignal,
): Promise<DoctorCheck> {
  const name = 'openai level 2: search executed and cited';
  try {
    const answer = await send(OPENAI_PROBE_LEVEL2_INPUT, OPENAI_MAX_OUTPUT_TOKENS);
    if (answer.status !== 200) {
      answer.body.on('error', () => {});
      answer.body.destroy();
      return { name, ok: false, detail: `HTTP ${answer.status}` };
    }
    const receipt = await readReceipt(answer, maxSearches, signal);
    // The same citation is observed as a stream event, in its message item and in the final response.
    const citations = new Set<string>();
    for (const { annotation } of receipt.annotations) {
      const { type, url } = (annotation ?? {}) as { type?: unknown; url?: unknown };
      if (type === 'url_citation' && typeof url === 'string') citations.add(url);
    }
    const ok = receipt.calls.length > 0 && citations.size > 0;
    return {
      name,
      ok,
      detail: `${receipt.calls.length} completed web_search_call(s), ${citations.size} cited URL(s)`,
      ...(ok
        ? {}
        : { fix: 'the model accepted the tool but did not cite a search; try another OPENMATES_OPENAI_SEARCH_MODEL' }),
    };
  } catch (error) {
    return {
      name,
      ok: false,
      detail: failure(error),
      fix: 'the model may accept web_search without running it; try another OPENMATES_OPENAI_SEARCH_MODEL',
    };
  }
}
