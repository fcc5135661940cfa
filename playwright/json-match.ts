// Equality on JSON values, as Statehouse stores them: key order does not
// matter, array order does, and nothing but JSON can occur.
import type { JsonValue, StateRecord } from './types.js';

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((key) => Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** Every key of `expected` is in `actual` with an equal value. */
export function hasSubset(actual: StateRecord, expected: Record<string, unknown>): boolean {
  return Object.entries(expected).every(([key, value]) => Object.hasOwn(actual, key) && jsonEqual(actual[key], value));
}

/** The part of `actual` a subset comparison looked at (keys of `expected`), for a diff that is not drowned in other keys. */
export function pick(actual: StateRecord, keys: readonly string[]): Record<string, JsonValue> {
  const picked: Record<string, JsonValue> = {};
  for (const key of keys) if (Object.hasOwn(actual, key)) picked[key] = actual[key] as JsonValue;
  return picked;
}
