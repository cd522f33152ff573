import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Checks `Authorization: Bearer <key>` against the configured keys in constant time: both sides are
 * hashed to equal-length digests, and every key is compared whatever the outcome of the others.
 * Returns the matching key (the rate-limit identity), `null` when no keys are configured, or
 * `undefined` when the request is not authorized.
 */
export function createAuthenticator(
  keys: readonly string[],
): (authorization: string | null) => string | null | undefined {
  const digests = keys.map((key) => ({ key, digest: digest(key) }));
  return (authorization) => {
    if (digests.length === 0) return null;
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
    const presented = digest(match?.[1] ?? '');
    let found: string | undefined;
    for (const entry of digests) if (timingSafeEqual(entry.digest, presented) && match) found = entry.key;
    return found;
  };
}
