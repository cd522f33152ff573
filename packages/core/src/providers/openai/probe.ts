import { type DoctorCheck, type HttpRequest, ProviderError } from '../../provider.ts';
import { createHttpClient, type HttpAnswer } from '../shared/http-client.ts';
import { sendRequest } from '../shared/json-answer.ts';
import { type OpenAIProviderConfig, resolveOpenAIConfig } from './config.ts';
import { responsesRequest } from './provider.ts';
import type { ReceiptRule } from './receipts.ts';
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

/** What the live probe needs of an endpoint serving the Responses API (OpenAI's own, Azure's). */
export interface ProbeTarget {
  /** The provider id, naming the checks (`openai level 1: …`). */
  id: string;
  /** Who answers, as an error message names it (`OpenAI`). */
  name: string;
  /** Who receives the probe (a host). */
  recipient: string;
  /** The model or deployment, as the checks name it. */
  model: string;
  origin: URL;
  maxSearches: number;
  /** The endpoint's receipt rule (OpenAI's own when not given). */
  rule?: ReceiptRule;
  /** The request of one fixed probe input. */
  request(input: string): HttpRequest;
  /** The variables a person fixes: the endpoint's and the model's. */
  endpointVariable: string;
  modelVariable: string;
}

/**
 * The live two-level probe, for `openmates doctor --live`: level 1 declares the tool
 * and records the HTTP status; level 2 checks that a search really ran (a completed
 * `web_search_call`) and was cited (`url_citation`). It calls OpenAI and may cost money: opt-in
 * only. Sends fixed probe text, never a user's query.
 */
export async function liveProbe(config: OpenAIProviderConfig, signal: AbortSignal): Promise<DoctorCheck[]> {
  const resolved = resolveOpenAIConfig(config);
  return probeResponses(
    {
      id: 'openai',
      name: 'OpenAI',
      recipient: resolved.recipient,
      model: resolved.model,
      origin: new URL(resolved.baseUrl),
      maxSearches: resolved.maxSearches,
      request: (input) => responsesRequest({ query: input, country: 'ALL' }, resolved),
      endpointVariable: 'OPENAI_BASE_URL',
      modelVariable: 'OPENMATES_OPENAI_SEARCH_MODEL',
    },
    signal,
  );
}

/** The two-level probe of `target` (see `liveProbe`). */
export async function probeResponses(target: ProbeTarget, signal: AbortSignal): Promise<DoctorCheck[]> {
  // Loaded here, as by the provider's search: see provider.ts.
  const { readReceipt } = await import('./transport.ts');
  const client = createHttpClient(target.origin);
  const send = (input: string, maxOutputTokens: number): Promise<HttpAnswer> => {
    const request = target.request(input);
    const body = { json: { ...(request.body as { json: object }).json, max_output_tokens: maxOutputTokens } };
    return sendRequest(client, { ...request, body }, signal, { name: target.name });
  };
  const level1 = `${target.id} level 1: web_search accepted`;
  const checks: DoctorCheck[] = [];
  try {
    try {
      const answer = await send(OPENAI_PROBE_LEVEL1_INPUT, OPENAI_PROBE_LEVEL1_MAX_OUTPUT_TOKENS);
      client.discard(answer);
      checks.push({
        name: level1,
        ok: answer.status === 200,
        detail: `HTTP ${answer.status} from ${target.recipient} for model ${target.model} (acceptance only, not proof of search)`,
        ...(answer.status === 200
          ? {}
          : { fix: 'check the API key, the model name and the account’s access to hosted web_search' }),
      });
    } catch (error) {
      checks.push({
        name: level1,
        ok: false,
        detail: failure(error),
        fix: `check ${target.endpointVariable} and network access`,
      });
      return checks;
    }
    if (checks[0]?.ok !== true) return checks;
    checks.push(await level2(send, readReceipt, target, signal));
    return checks;
  } finally {
    client.close();
  }
}

/** Level 2: a search that must run and be cited. */
async function level2(
  send: (input: string, maxOutputTokens: number) => Promise<HttpAnswer>,
  readReceipt: typeof import('./transport.ts').readReceipt,
  target: ProbeTarget,
  signal: AbortSignal,
): Promise<DoctorCheck> {
  const name = `${target.id} level 2: search executed and cited`;
  try {
    const answer = await send(OPENAI_PROBE_LEVEL2_INPUT, OPENAI_MAX_OUTPUT_TOKENS);
    if (answer.status !== 200) {
      answer.body.on('error', () => {});
      answer.body.destroy();
      return { name, ok: false, detail: `HTTP ${answer.status}` };
    }
    const receipt = await readReceipt(answer, target.maxSearches, signal, target.rule);
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
        : { fix: `the model accepted the tool but did not cite a search; try another ${target.modelVariable}` }),
    };
  } catch (error) {
    return {
      name,
      ok: false,
      detail: failure(error),
      fix: `the model may accept web_search without running it; try another ${target.modelVariable}`,
    };
  }
}
