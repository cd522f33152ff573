import { ASSERTION_IDS, type AssertionId, type CatalogueEntry } from '@openmates/contract';
import data from '../catalogue.json' with { type: 'json' };

// The ids are generated into the contract from catalogue.json, so every package can name them.
export { ASSERTION_IDS, type AssertionId };

/** The catalogue as data: each id with its statement. Hashed into the contract fingerprint. */
export const CATALOGUE: readonly CatalogueEntry[] = data.assertions;

/** The statement of an assertion id. */
export function statementOf(id: AssertionId): string {
  const entry = CATALOGUE.find((a) => a.id === id);
  if (!entry) throw new Error(`assertion ${id} is not in the catalogue`);
  return entry.statement;
}
