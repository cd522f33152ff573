import { parseRateLimit, type RateLimit } from './rate-limit.ts';

/** A call's parsed body with the answer it came in: what `.withResponse()` resolves to. */
export interface WithResponse<T> {
  /** The parsed body, as awaiting the call gives it. */
  data: T;
  /** The HTTP answer's status and headers (its body already read). */
  response: { status: number; headers: Headers };
  /** The caller's rate-limit state after this call; undefined when the server's limit is off or the call was not counted. */
  rateLimit: RateLimit | undefined;
  /** The server's request id (`x-request-id`), for support. */
  requestId: string | undefined;
}

/**
 * What a call returns: a promise of its parsed body, as with any `await`, that also offers
 * `.withResponse()` for the answer's status, headers and rate-limit state (openai-node's idiom).
 * The call starts once; both read the same answer.
 */
export class APIPromise<T> extends Promise<T> {
  readonly #raw: Promise<WithResponse<T>>;

  constructor(raw: Promise<{ data: T; status: number; headers: Headers }>) {
    // The body promise is derived on demand (in `then`), so a caller that only reads
    // `.withResponse()` leaves no second promise to reject unobserved.
    super(() => {});
    this.#raw = raw.then(({ data, status, headers }) => ({
      data,
      response: { status, headers },
      rateLimit: parseRateLimit(headers),
      requestId: headers.get('x-request-id') ?? undefined,
    }));
  }

  // Promise methods (`then`, `catch`, `finally`) return plain promises, not APIPromises.
  static override get [Symbol.species]() {
    return Promise;
  }

  /** The parsed body with its answer: `const { data, rateLimit } = await client.apps.web.search(...).withResponse()`. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#raw;
  }

  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a promise of the body, by design.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#raw.then(({ data }) => data).then(onfulfilled, onrejected);
  }
}
