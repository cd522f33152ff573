import type { RetryPolicy } from '../provider.ts';

/** What to do after an answer of `status`: wait and call again, or fail; and how long every replica pauses. */
export type RetryDecision =
  | { readonly retry: true; readonly waitMs: number; readonly pauseMs: number | undefined }
  | { readonly retry: false; readonly pauseMs: number | undefined; readonly retryAfterMs: number | undefined };

/** Where a call stands when a refusal comes back. */
export interface RetryState {
  /** Retries already made for this page. */
  readonly attempt: number;
  /** What is left of the call's time, in ms. */
  readonly remainingMs: number;
  /** Another provider of the chain stands behind this one: it takes the query instead of a wait. */
  readonly failover: boolean;
}

/**
 * The one retry rule of every provider, its numbers from the provider's capability table (ADR 0075):
 * a 429 or 503 whose wait (named by the answer, or for a 429 naming none the table's default) fits
 * the remaining time and the table's longest wait is waited and retried, at most `maxRetries`
 * times, unless another provider stands behind. A 429 pauses every replica for the wait it names
 * (or the table's pause). Nothing else is retried.
 */
export function retryDecision(
  status: number,
  namedWaitMs: number | undefined,
  policy: RetryPolicy,
  state: RetryState,
): RetryDecision {
  if (status !== 429 && status !== 503) return { retry: false, pauseMs: undefined, retryAfterMs: undefined };
  const limited = status === 429;
  const pauseMs = limited ? (namedWaitMs ?? policy.unnamed.pauseMs) : undefined;
  const waitMs = namedWaitMs ?? (limited && policy.unnamed.retry ? policy.unnamed.waitMs : undefined);
  const worthIt =
    waitMs !== undefined &&
    !state.failover &&
    state.attempt < policy.maxRetries &&
    waitMs <= policy.maxWaitMs &&
    waitMs <= state.remainingMs;
  if (worthIt) return { retry: true, waitMs, pauseMs };
  return { retry: false, pauseMs, retryAfterMs: limited ? (namedWaitMs ?? pauseMs) : undefined };
}
