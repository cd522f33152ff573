import { CONTRACT_FINGERPRINT } from '@openmates/contract';
import pkg from '../package.json' with { type: 'json' };

/** The CLI's version. */
export const VERSION: string = pkg.version;

/** What `openmates --version` prints: the version and the contract it speaks. */
export function versionLine(): string {
  return `openmates ${VERSION} (contract fingerprint ${CONTRACT_FINGERPRINT}) node-${process.version} ${process.platform}-${process.arch}`;
}
