import type { HttpRequest } from '../../provider.ts';
import type { BodyFailure, HttpAnswer, HttpClient } from './http-client.ts';
import { exchangeError } from './status-errors.ts';

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
  readonly notJson?: string | undefined;
  readonly maxBodyBytes?: number | undefined;
}

const isJson = (answer: Pick<HttpAnswer, 'header'>) => /\bjson\b/i.test(answer.header('content-type') ?? '');

/**
 * Sends `request` and resolves with the answer once its headers arrive; a network failure is the
 * provider being unreachable, in its name. When `signal` aborts, its reason is thrown as is.
 */
export async function sendRequest(
  client: HttpClient,
  request: HttpRequest,
  signal: AbortSignal,
  wording: ExchangeWording,
): Promise<HttpAnswer> {
  try {
    return await client.send(request, signal);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw exchangeError(wording.name, 'unreachable', { cause: error });
  }
}

/**
 * One exchange, its body read bounded as JSON: the one reader every JSON provider's answers go
 * through (the call pipeline, and doctor checks). A 2xx answer must be JSON of at most
 * `maxBodyBytes`; a refusal's body is read only when it says it is JSON, and only for its error
 * code, never failing for it. Failures are ProviderErrors in the provider's name, never upstream
 * text; when `signal` aborts, its reason is thrown as is.
 */
export async function exchangeJson(
  client: HttpClient,
  request: HttpRequest,
  signal: AbortSignal,
  wording: ExchangeWording,
): Promise<JsonAnswer> {
  const answer = await sendRequest(client, request, signal, wording);
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
    throw exchangeError(wording.name, 'not_json', { status, own: wording.notJson });
  }
  const text = await readBounded(client, answer, signal, wording);
  try {
    return { status, header, body: JSON.parse(text) };
  } catch {
    throw exchangeError(wording.name, 'malformed', { status });
  }
}

/** A refusal's JSON body, or undefined when it cannot be read. */
async function readRefusal(client: HttpClient, answer: HttpAnswer, signal: AbortSignal, wording: ExchangeWording) {
  try {
    return JSON.parse(await client.readText(answer, wording.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, signal)) as unknown;
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}

async function readBounded(
  client: HttpClient,
  answer: HttpAnswer,
  signal: AbortSignal,
  wording: ExchangeWording,
): Promise<string> {
  try {
    return await client.readText(answer, wording.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const status = answer.status;
    throw exchangeError(wording.name, (error as BodyFailure) === 'too_large' ? 'too_large' : 'closed', { status });
  }
}

/** The wait `Retry-After` names (seconds, or an HTTP date), in ms; undefined when it names none. */
export function retryAfterMs(answer: Pick<HttpAnswer, 'header'>, wallClock: number = Date.now()): number | undefined {
  const value = answer.header('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - wallClock);
}
