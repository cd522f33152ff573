/**
 * One invocation's budgets: a call budget debited before dispatch and kept
 * when the call fails, a distinct-source budget spent only by new normalized URLs, and a per-call
 * cap (the item's `count`). Calls are admitted in the order they complete; JavaScript runs each
 * admission to completion, so an admission is atomic and a later completion sees what the earlier
 * one spent. A new invocation gets a new session: nothing is shared across requests.
 */
export class BudgetSession {
  readonly maxCalls: number;
  readonly maxSources: number;
  #calls = 0;
  readonly #admitted = new Set<string>();
  #cut = 0;

  constructor(limits: { maxCalls: number; maxSources: number }) {
    this.maxCalls = limits.maxCalls;
    this.maxSources = limits.maxSources;
  }

  /** Debits one call before dispatch; false when the call budget is spent (the call must not run). */
  debitCall(): boolean {
    if (this.#calls >= this.maxCalls) return false;
    this.#calls += 1;
    return true;
  }

  /**
   * Admits one completed call's results in their order, considering only the first `perCall`
   * (default all): a URL already admitted in this invocation is kept without spending; a new URL
   * spends a slot while slots remain; the rest are cut. Results past `perCall` are not counted as
   * cut: the caller never asked for them.
   */
  admit<T extends { url: string }>(
    results: readonly T[],
    perCall: number = Number.POSITIVE_INFINITY,
  ): { admitted: T[]; cut: number } {
    const admitted: T[] = [];
    let cut = 0;
    for (const result of results.slice(0, perCall)) {
      if (this.#admitted.has(result.url)) admitted.push(result);
      else if (this.#admitted.size < this.maxSources) {
        this.#admitted.add(result.url);
        admitted.push(result);
      } else cut += 1;
    }
    this.#cut += cut;
    return { admitted, cut };
  }

  get callsUsed(): number {
    return this.#calls;
  }
  get sourcesAdmitted(): number {
    return this.#admitted.size;
  }
  get sourcesRemaining(): number {
    return this.maxSources - this.#admitted.size;
  }
  get sourcesCut(): number {
    return this.#cut;
  }
}
