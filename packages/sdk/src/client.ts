import { APIPromise } from './api-promise.ts';
import { readEnv } from './env.ts';
import { APIConnectionError, APIError, APITimeoutError, OpenMatesError } from './generated/errors.ts';
import { API_ROUTES, type components, DEFAULT_BASE_URL } from './generated/openapi.ts';
import {
  API_KEY_ENV,
  BASE_URL_ENV,
  DEFAULT_MAX_RETRIES,
  RETRY_CONNECTION_FAILURES,
  RETRY_TIMEOUTS,
} from './generated/policy.ts';
import { sleep as defaultSleep, isRetryableStatus, retryDelay } from './retry.ts';
import { VERSION } from './version.ts';
import { WebApp } from './web-app.ts';

/** The answer of `GET /v1/usage`: the calling key's usage and what is left of its quotas. */
export type UsageResult = components['schemas']['Usage'];

/** Options of `new OpenMates(...)`. Every one is optional. */
export interface ClientOptions {
  /**
   * Sent as `Authorization: Bearer <apiKey>`. Default: `OPENMATES_API_KEY` where an environment
   * exists, else none (a server started without `OPENMATES_API_KEYS` needs none). `null` sends none.
   */
  apiKey?: string | null | undefined;
  /** The server's origin. Default: `OPENMATES_API_URL` where an environment exists, else `http://127.0.0.1:8787`. */
  baseURL?: string | undefined;
  /** Milliseconds one attempt may take, reading the body included. Default 60000 (longer than any server deadline). */
  timeout?: number | undefined;
  /** Further attempts after a 429, a 503, a 502 with `Retry-After` or a connection failure. Default 2. */
  maxRetries?: number | undefined;
  /**
   * Called before each wait between attempts with the attempt that failed and the wait the SDK
   * chose, to log or count retries. An exception it throws ends the call with that exception.
   */
  onRetry?: ((retry: RetryInfo) => void) | undefined;
  /** The fetch to call. Default `globalThis.fetch`. */
  fetch?: typeof fetch | undefined;
  /**
   * @internal Waits between attempts; it must reject with `signal.reason` once the signal aborts.
   * Tests inject one to count attempts and see the delays without waiting. Default: a timer.
   */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/** What `onRetry` is told before each wait. */
export interface RetryInfo {
  /** The attempt that failed, counted from 1. */
  attempt: number;
  /** Its HTTP status, or undefined when no answer came (a connection failure). */
  status: number | undefined;
  /** Milliseconds the SDK waits before the next attempt: the server's `retry-after-ms` or `Retry-After`, else the backoff. */
  delayMs: number;
  /** What the attempt failed with; thrown when no attempt is left. */
  error: OpenMatesError;
}

/** Options of one call. */
export interface RequestOptions {
  /** Aborts the call; it then rejects with the signal's reason (an `AbortError` DOMException for a plain `abort()`). */
  signal?: AbortSignal | undefined;
  /** Overrides the client's `timeout` for this call. */
  timeout?: number | undefined;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number | undefined;
}

/** An HTTP call the resources make. */
export interface APIRequest extends RequestOptions {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** The OpenMates API client: `new OpenMates().apps.web.search({ requests: [{ query: '...' }] })`. */
export class OpenMates {
  /** The key sent as a bearer token, if any. */
  readonly apiKey: string | undefined;
  /** The server origin the API paths are appended to, without a trailing slash. */
  readonly baseURL: string;
  /** Milliseconds per attempt. */
  readonly timeout: number;
  /** Further attempts after a retryable failure. */
  readonly maxRetries: number;
  /** The skills of the `web` app. */
  readonly apps: { readonly web: WebApp };

  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #onRetry: ((retry: RetryInfo) => void) | undefined;

  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey === undefined ? readEnv(API_KEY_ENV) : options.apiKey;
    this.apiKey = apiKey ? apiKey : undefined;
    this.baseURL = checkBaseURL(options.baseURL ?? readEnv(BASE_URL_ENV) ?? DEFAULT_BASE_URL);
    this.timeout = checkCount('timeout', options.timeout ?? DEFAULT_TIMEOUT_MS);
    this.maxRetries = checkCount('maxRetries', options.maxRetries ?? DEFAULT_MAX_RETRIES);
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') {
      throw new OpenMatesError('No fetch is available here: pass one as the `fetch` option.');
    }
    // Called unbound: a browser's fetch throws "Illegal invocation" when called as a method of another object.
    this.#fetch = (input, init) => fetchImpl(input, init);
    this.#sleep = options.sleep ?? defaultSleep;
    if (options.onRetry !== undefined && typeof options.onRetry !== 'function') {
      throw new OpenMatesError('onRetry must be a function.');
    }
    this.#onRetry = options.onRetry;
    this.apps = { web: new WebApp(this) };
  }

  /** The calling key's usage today and this month, and what is left of its quotas (`GET /v1/usage`). */
  usage(options: RequestOptions = {}): APIPromise<UsageResult> {
    return this.request<UsageResult>({ ...options, ...API_ROUTES.usage });
  }

  /**
   * Sends one API call, retrying 429, 503, a 502 with `Retry-After` and connection failures, and resolves to the parsed JSON
   * body of a 2xx answer (`.withResponse()` adds its headers and rate-limit state). Rejects with an
   * `OpenMatesError`, or with the signal's reason on abort.
   */
  request<T>(request: APIRequest): APIPromise<T> {
    return new APIPromise<T>(
      (async () => {
        const answer = await this.#retrying(request, async (timeout) => {
          const { status, headers, text } = await this.#attempt(request, timeout);
          return { status, headers, text: async () => text, value: { status, headers, text } };
        });
        return { data: parseSuccess<T>(answer), status: answer.status, headers: answer.headers };
      })(),
    );
  }

  /**
   * Opens an event stream: retries as `request` does, but only until the server answers 2xx, before
   * any event (a replay would re-run paid searches). Resolves to that answer unread; the caller's
   * signal stays attached to it, `timeout` bounds the wait for its headers.
   */
  async openStream(request: APIRequest): Promise<Response> {
    return this.#retrying(request, async (timeout) => {
      const response = await this.#open(request, timeout);
      return { status: response.status, headers: response.headers, text: () => response.text(), value: response };
    });
  }

  /**
   * Runs attempts until one answers 2xx (resolving to its `value`) or the failure is not retried
   * or the retries are spent (rejecting with it), waiting between attempts as the policy says.
   */
  async #retrying<V>(
    request: APIRequest,
    attempt: (timeout: number) => Promise<{ status: number; headers: Headers; text: () => Promise<string>; value: V }>,
  ): Promise<V> {
    const timeout = checkCount('timeout', request.timeout ?? this.timeout);
    const maxRetries = checkCount('maxRetries', request.maxRetries ?? this.maxRetries);
    const { signal } = request;
    for (let retry = 0; ; retry++) {
      signal?.throwIfAborted();
      let failure: OpenMatesError;
      let status: number | undefined;
      let headers: Headers | undefined;
      try {
        const answer = await attempt(timeout);
        if (answer.status >= 200 && answer.status < 300) return answer.value;
        ({ status, headers } = answer);
        const refused = APIError.generate(answer.status, parseBody(await answer.text()), answer.headers);
        failure = refused;
        if (!isRetryableStatus(answer.status, answer.headers, refused.code)) throw failure;
      } catch (error) {
        if (!(error instanceof APIConnectionError)) throw error;
        if (error instanceof APITimeoutError ? !RETRY_TIMEOUTS : !RETRY_CONNECTION_FAILURES) throw error;
        failure = error;
      }
      if (retry >= maxRetries) throw failure;
      const delayMs = retryDelay(headers, retry);
      this.#onRetry?.({ attempt: retry + 1, status, delayMs, error: failure });
      await this.#sleep(delayMs, signal);
    }
  }

  /** Sends a request asking for the event stream; the caller's signal keeps aborting its body afterwards. */
  async #open(request: APIRequest, timeout: number): Promise<Response> {
    const { signal } = request;
    let timedOut = false;
    const timer = new AbortController();
    const clock = setTimeout(() => {
      timedOut = true;
      timer.abort();
    }, timeout);
    try {
      return await this.#fetch(`${this.baseURL}${request.path}`, {
        method: request.method,
        headers: {
          ...this.#headers(request.body !== undefined),
          accept: 'text/event-stream, application/json;q=0.5',
        },
        body: request.body === undefined ? null : JSON.stringify(request.body),
        signal: signal ? AbortSignal.any([signal, timer.signal]) : timer.signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const url = this.#shownUrl(request.path);
      if (timedOut) throw new APITimeoutError({ timeout, url });
      throw new APIConnectionError({ cause: error, url });
    } finally {
      clearTimeout(clock);
    }
  }

  /** One attempt: status, headers and body text, within `timeout`. */
  async #attempt(request: APIRequest, timeout: number): Promise<{ status: number; headers: Headers; text: string }> {
    const controller = new AbortController();
    const { signal } = request;
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    try {
      const response = await this.#fetch(`${this.baseURL}${request.path}`, {
        method: request.method,
        headers: this.#headers(request.body !== undefined),
        body: request.body === undefined ? null : JSON.stringify(request.body),
        signal: controller.signal,
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const url = this.#shownUrl(request.path);
      if (timedOut) throw new APITimeoutError({ timeout, url });
      throw new APIConnectionError({ cause: error, url });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The URL of `path`, as an error message names it: never with credentials a base URL carried. */
  #shownUrl(path: string): string {
    const url = new URL(`${this.baseURL}${path}`);
    url.username = '';
    url.password = '';
    return url.href;
  }

  #headers(hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', 'x-openmates-sdk': VERSION };
    if (hasBody) headers['content-type'] = 'application/json';
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    return headers;
  }
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function parseSuccess<T>({ status, text }: { status: number; text: string }): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new OpenMatesError(
      `The server answered ${status} with a body that is not JSON: is baseURL the API's origin?`,
    );
  }
}

function checkBaseURL(baseURL: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new OpenMatesError(`baseURL must be an absolute http(s) URL such as ${DEFAULT_BASE_URL}, not "${baseURL}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OpenMatesError(`baseURL must be an http(s) URL, not "${baseURL}".`);
  }
  return baseURL.replace(/\/+$/, '');
}

function checkCount(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new OpenMatesError(`${name} must be a non-negative integer, not ${value}.`);
  }
  return value;
}
