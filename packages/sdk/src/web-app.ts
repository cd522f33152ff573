import type { APIPromise } from './api-promise.ts';
import type { APIRequest, RequestOptions } from './client.ts';
import type { paths } from './generated/openapi.ts';
import { API_ROUTES, type SEARCH_PATH } from './generated/openapi.ts';
import { SearchStream } from './search-stream.ts';

type Search = paths[typeof SEARCH_PATH];
/** The body of `POST /v1/apps/web/skills/search`, as the OpenAPI document declares it. */
export type SearchParams = Search['post']['requestBody']['content']['application/json'];
/** The 200 answer of `POST /v1/apps/web/skills/search`. */
export type SearchResult = Search['post']['responses'][200]['content']['application/json'];
/** The 200 answer of `GET /v1/apps/web/skills/search`. */
export type SkillInfoResult = Search['get']['responses'][200]['content']['application/json'];

interface Requester {
  request<T>(request: APIRequest): APIPromise<T>;
  openStream(request: APIRequest): Promise<Response>;
  readonly timeout: number;
}

/** The `web` app's skills: `client.apps.web`. */
export class WebApp {
  readonly #client: Requester;

  constructor(client: Requester) {
    this.#client = client;
  }

  /**
   * Runs a batch of 1 to 5 searches. Resolves to one result group per request item, in order; a
   * group that failed at the provider carries `error` (when all fail, a `ProviderError` is thrown
   * with the same response).
   */
  search(request: SearchParams, options: RequestOptions = {}): APIPromise<SearchResult> {
    return this.#client.request<SearchResult>({ ...options, ...API_ROUTES.search, body: request });
  }

  /**
   * The same batch as a stream of events: each group as its query finishes, then `done` (or
   * `error`). Iterate the result, and/or await `finalResponse()`, which resolves or rejects as
   * `search` does. Retried only before the first event; `timeout` bounds each wait for data
   * (the server's keep-alive comments count). Aborting the signal, or leaving the loop early,
   * cancels the searches still running.
   */
  searchStream(request: SearchParams, options: RequestOptions = {}): SearchStream {
    const timeout = options.timeout ?? this.#client.timeout;
    return new SearchStream(
      () => this.#client.openStream({ ...options, ...API_ROUTES.searchStream, body: request }),
      timeout,
      options.signal,
    );
  }

  /**
   * The skill info: limits, the provider, the options it honours, the contract fingerprint, and the
   * caller's `rate_limit` state (not counted against it).
   */
  info(options: RequestOptions = {}): APIPromise<SkillInfoResult> {
    return this.#client.request<SkillInfoResult>({ ...options, ...API_ROUTES.skillInfo });
  }
}
