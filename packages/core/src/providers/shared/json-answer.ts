import { ProviderError } from '../../provider.ts';
import type { BodyFailure, HttpAnswer, HttpGetClient } from './http-get.ts';

/** A provider's answer far larger than this is not a search answer (Brave's 20 results are well under 200 KB). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** An answer's status and headers, with its body read as JSON when it was JSON. */
export interface JsonAnswer {
  readonly status: number;
  readonly header: HttpAnswer['header'];
  /** The parsed body of a 2xx answer; for any other status, its JSON when it sent readable JSON, else undefined. */
  readonly body: unknown;
}

/** How one provider words the failures of an exchange. */
export interface ExchangeWording {
  /** The provider's name in messages (`Brave Search`). */
  readonly name: string;
  /** Said when a 2xx answer is not JSON. */
  readonly notJson?: string;
  readonly maxBodyBytes?: number;
}

const isJson = (answer: Pick<HttpAnswer, 'header'>) => /\bjson\b/i.test(answer.header('content-type') ?? '');

/**
 * One GET, its body read bounded as JSON: the one reader every HTTP provider's answers go through
 * (the call pipeline, and doctor checks). A 2xx answer must be JSON of at most `maxBodyBytes`; a
 * refusal's body is read only when it says it is JSON, and only for its error code, never failing
 * for it. Failures are ProviderErrors in the provider's name, never upstream text; when `signal`
 * aborts, its reason is thrown as is.
 */
export async function getJson(
  client: HttpGetClient,
  request: { url: URL; headers: Readonly<Record<string, string>> },
  signal: AbortSignal,
  wording: ExchangeWording,
): Promise<JsonAnswer> {
  let answer: HttpAnswer;
  try {
    answer = await client.get(request.url, { ...request.headers }, signal);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new ProviderError('provider_unavailable', `${wording.name} could not be reached.`, { cause: error });
  }
  const { status, header } = answer;
  if (status < 200 || status > 299) {
    if (status === 429 || status === 503 || !isJson(answer)) {
      client.discard(answer);
      return { status, header, body: undefined };
    }
    return { status, header, body: await readRefusal(client, answer, signal, wording) };
  }
  if (!isJson(answer)) {
    client.discard(answer);
    throw new ProviderError(
      'provider_error',
      wording.notJson ?? `${wording.name} answered with something other than JSON.`,
      {
        status,
      },
    );
  }
  const text = await readBounded(client, answer, signal, wording);
  try {
    return { status, header, body: JSON.parse(text) };
  } catch {
    throw new ProviderError('provider_error', `${wording.name} sent malformed JSON.`, { status });
  }
}

/** A refusal's JSON body, or undefined when it cannot be read. */
async function readRefusal(client: HttpGetClient, answer: HttpAnswer, signal: AbortSignal, wording: ExchangeWording) {
  try {
    return JSON.parse(await client.readText(answer, wording.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, signal)) as unknown;
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}

async function readBounded(
  client: HttpGetClient,
  answer: HttpAnswer,
  signal: AbortSignal,
  wording: ExchangeWording,
): Promise<string> {
  try {
    return await client.readText(answer, wording.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const status = answer.status;
    if ((error as BodyFailure) === 'too_large')
      throw new ProviderError('provider_error', `${wording.name} sent an answer too large to read.`, { status });
    throw new ProviderError('provider_unavailable', `${wording.name} closed the connection mid-answer.`, { status });
  }
}

/**
 * The wording of a refusal no translator words its own way: 401/403 the credentials, 429 the rate
 * limit, 502/503/504 unavailable, a redirect, another 5xx failed, anything else refused.
 */
export function statusError(name: string, status: number, retryAfterMs?: number): ProviderError {
  const options = { status };
  if (status === 401 || status === 403)
    return new ProviderError('provider_auth', `${name} rejected the API key (HTTP ${status}).`, options);
  if (status === 429)
    return new ProviderError('provider_rate_limited', `${name} is rate limiting this server; retry later.`, {
      status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  if (status === 502 || status === 503 || status === 504)
    return new ProviderError('provider_unavailable', `${name} is unavailable (HTTP ${status}).`, options);
  if (status >= 300 && status < 400)
    return new ProviderError('provider_error', `${name} answered with a redirect (HTTP ${status}).`, options);
  if (status >= 500) return new ProviderError('provider_error', `${name} failed (HTTP ${status}).`, options);
  return new ProviderError('provider_error', `${name} refused the request (HTTP ${status}).`, options);
}

/** The wait `Retry-After` names (seconds, or an HTTP date), in ms; undefined when it names none. */
export function retryAfterMs(answer: Pick<HttpAnswer, 'header'>, wallClock: number = Date.now()): number | undefined {
  const value = answer.header('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - wallClock);
}
