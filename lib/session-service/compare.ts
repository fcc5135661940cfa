// Two states side by side, key by key, and where two event logs part: the
// compare view's arithmetic, pure so that any store's reads feed it.
import { jsonEqual } from './state-diff';
import type { JsonValue, StateEntry } from './types';

/** How a key stands between the left and the right side. */
export type KeyStanding = 'same' | 'changed' | 'left-only' | 'right-only';

export interface KeyComparison {
  /** The key within its tier (no prefix). */
  key: string;
  standing: KeyStanding;
  /** Absent when the left side has no such key. */
  left?: JsonValue;
  /** Absent when the right side has no such key. */
  right?: JsonValue;
}

/** Every key of either tier, sorted by key, each with how it stands; key order inside objects does not matter. */
export function compareTier(left: StateEntry[], right: StateEntry[]): KeyComparison[] {
  const rightByKey = new Map(right.map((entry) => [entry.key, entry.value]));
  const rows: KeyComparison[] = [];
  for (const { key, value } of left) {
    if (!rightByKey.has(key)) {
      rows.push({ key, standing: 'left-only', left: value });
      continue;
    }
    const other = rightByKey.get(key) as JsonValue;
    rightByKey.delete(key);
    rows.push({ key, standing: jsonEqual(value, other) ? 'same' : 'changed', left: value, right: other });
  }
  for (const [key, value] of rightByKey) rows.push({ key, standing: 'right-only', right: value });
  return rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** How many keys differ (changed, or on one side only). */
export function differenceCount(rows: KeyComparison[]): number {
  return rows.reduce((count, row) => count + (row.standing === 'same' ? 0 : 1), 0);
}

/**
 * How many leading entries two logs share: the length of the common prefix
 * of two id sequences. A fork copies its source's events with their ids, so
 * for a fork and its source this is where they part.
 */
export function sharedPrefixLength(left: readonly string[], right: readonly string[]): number {
  const length = Math.min(left.length, right.length);
  let index = 0;
  while (index < length && left[index] === right[index]) index += 1;
  return index;
}
