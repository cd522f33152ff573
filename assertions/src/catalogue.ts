import type { CatalogueEntry } from '@openmates/contract';
import data from '../catalogue.json' with { type: 'json' };

/** The assertion ids every surface is tested against (the seed's eight). */
export const ASSERTION_IDS = [
  'web-search.request.validated',
  'web-search.request.ids-correlated',
  'web-search.response.sanitized',
  'web-search.results.bounded',
  'web-search.no-results.explicit',
  'web-search.provider-error.visible',
  'web-search.secrets.never-exposed',
  'web-search.surface-parity',
] as const;
export type AssertionId = (typeof ASSERTION_IDS)[number];

/** The catalogue as data: each id with its statement. Hashed into the contract fingerprint. */
export const CATALOGUE: readonly CatalogueEntry[] = data.assertions;

/** The statement of an assertion id. */
export function statementOf(id: AssertionId): string {
  const entry = CATALOGUE.find((a) => a.id === id);
  if (!entry) throw new Error(`assertion ${id} is not in the catalogue`);
  return entry.statement;
}
