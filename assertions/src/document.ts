/**
 * Whole-document comparison (issue 14): the WebSearchResponse or ErrorResponse a surface handed back,
 * compared leaf by leaf with every other surface's. Only per-request values are normalized.
 */

/** What a request id is replaced with; any other value of `request_id` is compared as it is. */
export const REQUEST_ID_PLACEHOLDER = '<request-id>';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The document as JSON data (a JSON round trip, so an in-process object compares as its JSON would)
 * with the top-level `request_id` replaced by a placeholder when it is a UUID: it is generated per
 * request (ADR 0014), so only its presence and form are the same across surfaces.
 */
export function normalizeDocument(document: unknown): unknown {
  const data: unknown = JSON.parse(JSON.stringify(document));
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const record = data as Record<string, unknown>;
    if (typeof record.request_id === 'string' && UUID.test(record.request_id))
      record.request_id = REQUEST_ID_PLACEHOLDER;
  }
  return data;
}

/** Where two documents first differ: a JSON path (`$.results[0].meta_url.favicon`) and both values. */
export interface DocumentDifference {
  path: string;
  /** The reference surface's value; `undefined` when the leaf is absent there. */
  expected: unknown;
  /** This surface's value; `undefined` when the leaf is absent here. */
  actual: unknown;
}

const member = (path: string, key: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/**
 * The first difference between two JSON documents in document order (keys sorted, arrays by index),
 * or `undefined` when they are equal at every leaf.
 */
export function firstDifference(expected: unknown, actual: unknown, path = '$'): DocumentDifference | undefined {
  if (Object.is(expected, actual)) return undefined;
  const bothArrays = Array.isArray(expected) && Array.isArray(actual);
  const bothObjects = isRecord(expected) && isRecord(actual) && !Array.isArray(expected) && !Array.isArray(actual);
  if (bothArrays) {
    const length = Math.max(expected.length, actual.length);
    for (let i = 0; i < length; i++) {
      const difference = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (difference) return difference;
    }
    return undefined;
  }
  if (bothObjects) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    for (const key of keys) {
      const difference = firstDifference(
        Object.hasOwn(expected, key) ? expected[key] : undefined,
        Object.hasOwn(actual, key) ? actual[key] : undefined,
        member(path, key),
      );
      if (difference) return difference;
    }
    return undefined;
  }
  return { path, expected, actual };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

/** `"text"`, `3`, `{…}` or `(absent)`: a value as the report shows it, cut to a readable length. */
export function showValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
