// The mechanics of the retry rules in generated/policy.ts (from the contract's RETRY_POLICY): which
// answers are retried, and how the wait is computed from their headers or the backoff.
import {
  BACKOFF_FACTOR,
  BACKOFF_INITIAL_MS,
  BACKOFF_JITTER,
  BACKOFF_MAX_MS,
  MAX_RETRY_AFTER_MS,
  NEVER_RETRIED_CODES,
  RETRY_AFTER_HEADER,
  RETRY_STATUSES,
  RETRY_STATUSES_WITH_RETRY_AFTER,
  WAIT_HEADERS,
  WAIT_HTTP_DATE,
  WAIT_NUMBER,
} from './generated/policy.ts';

export { MAX_RETRY_AFTER_MS };

/** Answers worth another attempt: 429, 503, and a 502 that carries `Retry-After`. */
export function isRetryableStatus(status: number, headers?: Headers, code?: string): boolean {
  // A quota's refusal is never retried: its window may last a month.
  if (code !== undefined && NEVER_RETRIED_CODES.includes(code)) return false;
  if (RETRY_STATUSES.includes(status)) return true;
  return RETRY_STATUSES_WITH_RETRY_AFTER.includes(status) && headers?.get(RETRY_AFTER_HEADER) != null;
}

/** Exponential backoff: 0.5 s × 2^retry, at most 8 s, jittered ±25 % so clients do not retry in step. */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_INITIAL_MS * BACKOFF_FACTOR ** retry, BACKOFF_MAX_MS);
  return Math.round(base * (1 - BACKOFF_JITTER + 2 * BACKOFF_JITTER * random()));
}

/**
 * The server's requested wait in whole ms (rounded up) from the first wait header that parses
 * (`retry-after-ms`, then `Retry-After` as seconds or an HTTP date); undefined when none does or
 * the wait is negative or over 60 s.
 */
export function retryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  for (const header of WAIT_HEADERS) {
    const value = headers.get(header.name)?.trim();
    if (!value) continue;
    let delay: number | undefined;
    if (WAIT_NUMBER.test(value)) delay = Number(value) * (header.unit === 's' ? 1000 : 1);
    else if (header.httpDate && WAIT_HTTP_DATE.test(value)) {
      // Only a real date: one that prints back as itself (not Feb 30, not a wrong weekday).
      const when = Date.parse(value);
      if (Number.isFinite(when) && new Date(when).toUTCString() === value) delay = when - now;
    }
    if (delay === undefined) continue;
    return delay < 0 || delay > MAX_RETRY_AFTER_MS ? undefined : Math.ceil(delay);
  }
  return undefined;
}

/** The wait in ms before retry number `retry` (0-based): the server's when sensible, else the backoff. */
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
