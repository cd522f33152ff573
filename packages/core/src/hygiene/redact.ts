/** What a redacted secret reads as. */
export const REDACTED = '[redacted]';

/**
 * Secrets shorter than this are not redacted: redacting a 3-character "secret" would shred every
 * occurrence of those letters in ordinary text, and no real credential is that short. The
 * configuration should refuse such keys instead.
 */
export const MIN_REDACTED_SECRET_LENGTH = 8;

/** How often the text is re-scanned before the fallback; see `createRedactor`. */
const MAX_PASSES = 4;

/**
 * A function that replaces every occurrence of every configured secret in a string with
 * `[redacted]`: the secret as given, percent-encoded (`encodeURIComponent`) and form-encoded
 * (`URLSearchParams`), since keys leak through query strings. Overlapping occurrences are removed
 * as one span. Secrets shorter than MIN_REDACTED_SECRET_LENGTH are ignored.
 *
 * A replacement can recreate a secret only when a secret overlaps the marker text itself (a
 * "secret" such as `redacted]x12`); the text is then re-scanned, and if it is still not clean the
 * whole string becomes `[redacted]` (or `''` when a secret lies inside the marker). So the result
 * never contains a configured secret, whatever the secrets are.
 */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  const needles = variantsOf(secrets);
  if (needles.length === 0) return (text) => text;
  const contains = (text: string) => needles.some((needle) => text.includes(needle));
  const fallback = contains(REDACTED) ? '' : REDACTED;
  return (text) => {
    let current = text;
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      if (!contains(current)) return current;
      current = replaceSpans(current, needles);
    }
    return contains(current) ? fallback : current;
  };
}

/** Every distinct form of every long-enough secret, longest first. */
function variantsOf(secrets: readonly string[]): string[] {
  const variants = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_REDACTED_SECRET_LENGTH) continue;
    variants.add(secret);
    variants.add(encodeURIComponent(secret));
    variants.add(new URLSearchParams({ s: secret }).toString().slice('s='.length));
  }
  return [...variants].sort((a, b) => b.length - a.length);
}

/** Replaces each maximal run of text covered by occurrences of `needles` with one marker. */
function replaceSpans(text: string, needles: readonly string[]): string {
  const spans: [number, number][] = [];
  for (const needle of needles) {
    // Advancing by one finds overlapping occurrences too (`aaaa` twice in `aaaaa`).
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
      spans.push([at, at + needle.length]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let cursor = 0;
  let end = -1;
  for (const [start, stop] of spans) {
    if (start > end) {
      if (end >= 0) out += REDACTED;
      out += text.slice(cursor, start);
    }
    end = Math.max(end, stop);
    cursor = end;
  }
  return `${out}${REDACTED}${text.slice(cursor)}`;
}
