// When and how long to wait before another attempt. Only 429, 503, a 502 with `Retry-After` and
// connection failures are retried: a 400-class answer will not change, and a 500 or an ordinary 502
// may already have cost provider calls. The server sets `Retry-After` on a 502 only when every
// query was refused by the provider's rate limit, which costs nothing to try again.

/** Answers worth another attempt: 429, 503, and a 502 that names when to retry. */
export function isRetryableStatus(status: number, headers?: Headers): boolean {
  if (status === 502) return headers !== undefined && retryAfter(headers) !== undefined;
  return status === 429 || status === 503;
}

const INITIAL_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;
const JITTER = 0.25;
/** A server's `Retry-After` longer than this is ignored in favour of the backoff. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Exponential backoff: 0.5 s × 2^retry, at most 8 s, jittered ±25 % so clients do not retry in step. */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_DELAY_MS * 2 ** retry, MAX_BACKOFF_MS);
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/**
 * The server's requested wait in ms from `retry-after-ms`, or `Retry-After` as seconds or an HTTP
 * date; undefined when absent, unparsable, negative or over 60 s.
 */
export function retryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  const value = headers.get('retry-after');
  let delay: number | undefined;
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) delay = Number(ms);
  else if (value !== null && /^\s*\d+(\.\d+)?\s*$/.test(value)) delay = Number(value) * 1000;
  else if (value !== null && Number.isFinite(Date.parse(value))) delay = Date.parse(value) - now;
  if (delay === undefined || delay < 0 || delay > MAX_RETRY_AFTER_MS) return undefined;
  return Math.ceil(delay);
}

/** The wait before retry number `retry` (0-based): the server's `Retry-After` when sensible, else the backoff. */
export function retryDelay(headers: Headers | undefined, retry: number, random?: () => number): number {
  return (headers && retryAfter(headers)) ?? backoffDelay(retry, random);
}

/** Waits `ms`, rejecting with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
