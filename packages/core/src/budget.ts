/**
 * One invocation's budgets (seed 000 §10.3–10.4): a call budget debited before dispatch and kept
 * when the call fails, and a distinct-source budget spent only by new normalized URLs. Calls are
 * admitted in the order they complete; JavaScript runs each admission to completion, so an
 * admission is atomic and a later completion sees what the earlier one spent.
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
   * Admits one completed call's results in their order: a URL already admitted in this invocation
   * is kept without spending; a new URL spends a slot while slots remain; the rest are cut.
   */
  admit<T extends { url: string }>(results: readonly T[]): { admitted: T[]; cut: number } {
    const admitted: T[] = [];
    let cut = 0;
    for (const result of results) {
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
