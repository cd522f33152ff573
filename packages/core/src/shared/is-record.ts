/** Whether an untrusted value (parsed JSON) is a plain object whose fields can be read: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
