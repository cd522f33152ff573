// Valid requests accepted without zod. Building the schemas and running zod's parser on a request
// costs a cold process (the CLI's search) tens of milliseconds, most of its start; a request every
// field of which its `accepts` takes is valid, and is normalized at once. Anything else goes
// through the schemas, which decide and say what is wrong. A property test
// (`packages/server/src/request-accept.test.ts`) holds the verdicts equal.
import { REQUEST_FIELDS, type RequestField, type RequestFields } from './fields.ts';
import { MAX_BATCH_ITEMS, MIN_BATCH_ITEMS } from './limits.ts';

/** An object as JSON makes one: not an array, a class instance or null. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const byName = new WeakMap<RequestFields, Map<string, RequestField>>();

function fieldMap(fields: RequestFields): Map<string, RequestField> {
  let map = byName.get(fields);
  if (map === undefined) {
    map = new Map(fields.map((field) => [field.name, field]));
    byName.set(fields, map);
  }
  return map;
}

/** True when `item` is certainly a valid item by `fields`: every field it names accepted, every rule across fields met. */
function acceptsItem(item: unknown, fields: RequestFields): item is Record<string, unknown> {
  if (!isPlainObject(item)) return false;
  const known = fieldMap(fields);
  for (const key of Object.keys(item)) {
    const field = known.get(key);
    if (field?.accepts === undefined) return false;
    const value = item[key];
    if (value === undefined ? field.required === true : !field.accepts(value)) return false;
  }
  for (const field of fields) {
    if (field.required && item[field.name] === undefined) return false;
    if (field.check !== undefined && field.check(item).length > 0) return false;
  }
  return true;
}

/**
 * The items of `input` when it is certainly a valid request by `fields` (a batch of 1–5 items, no
 * unknown field, every field accepted, every rule across fields met, ids unique as strings), or
 * undefined when it may not be: then the schemas decide, and word why. It never takes what the
 * schemas refuse; what it leaves to them is only slower.
 */
export function acceptItems(
  input: unknown,
  fields: RequestFields = REQUEST_FIELDS,
): readonly Record<string, unknown>[] | undefined {
  if (!isPlainObject(input)) return undefined;
  const keys = Object.keys(input);
  if (keys.length !== 1 || keys[0] !== 'requests') return undefined;
  const items: unknown = input.requests;
  if (!Array.isArray(items) || items.length < MIN_BATCH_ITEMS || items.length > MAX_BATCH_ITEMS) return undefined;
  const ids = new Set<string>();
  for (let index = 0; index < items.length; index++) {
    const item: unknown = items[index];
    if (!acceptsItem(item, fields)) return undefined;
    const id = item.id;
    if (id === undefined) continue;
    if (ids.has(String(id))) return undefined;
    ids.add(String(id));
  }
  return items as Record<string, unknown>[];
}
