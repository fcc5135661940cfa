import { hasOwn, ownEntries } from './json';
import type { JsonValue, StateRecord } from './types';

export type ChangeKind = 'added' | 'changed' | 'removed' | 'unchanged';

/** One key that differs between two states. */
export interface KeyDiff {
  key: string;
  kind: Exclude<ChangeKind, 'unchanged'>;
  /** Absent when the key was added. */
  before?: JsonValue;
  /** Absent when the key was removed. */
  after?: JsonValue;
}

/** Deep equality of JSON values; object key order does not matter (a re-serialised object is the same value). */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => jsonEqual(item, b[index] as JsonValue));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => hasOwn(b, key) && jsonEqual(a[key] as JsonValue, b[key] as JsonValue));
}

/** What a write did to a key: `undefined` on either side means absent. */
export function changeKind(before: JsonValue | undefined, after: JsonValue | undefined): ChangeKind {
  if (before === undefined) return after === undefined ? 'unchanged' : 'added';
  if (after === undefined) return 'removed';
  return jsonEqual(before, after) ? 'unchanged' : 'changed';
}

/** The keys whose values differ between two states, sorted by key. */
export function diffState(before: StateRecord, after: StateRecord): KeyDiff[] {
  const diffs: KeyDiff[] = [];
  for (const [key, value] of ownEntries(before)) {
    const next = hasOwn(after, key) ? after[key] : undefined;
    const kind = changeKind(value, next);
    if (kind === 'removed') diffs.push({ key, kind, before: value });
    else if (kind === 'changed') diffs.push({ key, kind, before: value, after: next });
  }
  for (const [key, value] of ownEntries(after)) {
    if (!hasOwn(before, key)) diffs.push({ key, kind: 'added', after: value });
  }
  return diffs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
