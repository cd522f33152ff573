/**
 * The send step's one question to whoever accounts for provider calls across requests (the
 * server's per-key quotas, ADR 0136): may this call be sent? Asked once per provider HTTP call
 * (each further page too) after the cache missed and before anything is sent; a cache hit asks
 * nothing. A call admitted stays debited whatever its outcome: the provider may have done the work.
 */
export interface CallMeter {
  /**
   * Debits one call of `provider` before it is sent. Resolves to undefined when it may be sent, or
   * to the refusal when a quota is spent (nothing debited then; the call is not sent).
   */
  debit(provider: string): Promise<CallRefusal | undefined>;
}

/** Why a call was not sent: the quota's words and how long until its window ends. */
export interface CallRefusal {
  readonly message: string;
  readonly retryAfterMs: number;
}
