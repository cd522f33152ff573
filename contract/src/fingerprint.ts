/** One entry of the assertion catalogue, as hashed into the fingerprint. */
export interface CatalogueEntry {
  id: string;
  statement: string;
}

/** The input of the contract fingerprint: the OpenAPI document and the assertion catalogue. */
export interface FingerprintInput {
  openapi: unknown;
  assertions: readonly CatalogueEntry[];
}

export { ASSERTION_IDS, type AssertionId, CONTRACT_FINGERPRINT } from './generated/fingerprint.ts';
