import type { JsonValue } from './types';

/**
 * Sets an own, enumerable property. Plain assignment of `__proto__` would
 * replace the object's prototype instead of storing a key.
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function hasOwn(target: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(target, key);
}

/** Own enumerable entries; safe for `__proto__` and friends (JSON.parse makes them own keys). */
export function ownEntries<T>(record: Record<string, T>): [string, T][] {
  return Object.keys(record).map((key) => [key, record[key] as T]);
}

export function encodeJson(value: JsonValue): string {
  return JSON.stringify(value);
}

export function decodeJson(text: string): JsonValue {
  return JSON.parse(text) as JsonValue;
}
