/**
 * What a write will do, key by key, before it is made: the preview of an
 * event's stateDelta on the session page, and the diff a support edit asks
 * the person to confirm. Pure: it also runs in the browser, live.
 */
import { hasOwn, ownEntries } from './json';
import { recordOfEntries } from './merged-entries';
import { scopeOfKey } from './scope';
import { jsonEqual } from './state-diff';
import type { JsonValue, Scope, StateEntry, StateRecord } from './types';

export type DeltaChangeKind = 'added' | 'changed' | 'unchanged' | 'temp';

export interface DeltaChange {
  /** The key as written in the delta (with its prefix). */
  prefixedKey: string;
  scope: Scope | 'temp';
  /** The key within its tier. */
  key: string;
  kind: DeltaChangeKind;
  /** Absent when the key is new. */
  oldValue?: JsonValue;
  newValue: JsonValue;
  /** app: and user: keys are seen by other sessions too. */
  shared: boolean;
  /** JSON null is stored as null: a delta cannot remove a key. */
  storesNull: boolean;
  /**
   * Other tiers already holding a key of the same name (`plan` beside
   * `user:plan`). They are distinct keys: the write leaves them as they are,
   * and a template's `{plan}` never falls back to `{user:plan}`.
   */
  sameNameIn: Scope[];
}

export interface TierRecords {
  app: StateRecord;
  user: StateRecord;
  session: StateRecord;
}

const TIERS: Scope[] = ['app', 'user', 'session'];

/** What appending a delta would do to each tier, key by key, before it is appended. */
export function previewDelta(delta: StateRecord, tiers: TierRecords): DeltaChange[] {
  return ownEntries(delta).map(([prefixedKey, newValue]) => {
    const { scope, key } = scopeOfKey(prefixedKey);
    const sameNameIn = TIERS.filter((tier) => tier !== scope && hasOwn(tiers[tier], key));
    const common = { prefixedKey, key, newValue, storesNull: newValue === null, sameNameIn };
    if (scope === 'temp') return { ...common, scope, kind: 'temp', shared: false, storesNull: false };
    const tier = tiers[scope];
    const shared = scope !== 'session';
    if (!hasOwn(tier, key)) return { ...common, scope, kind: 'added', shared };
    const oldValue = tier[key] as JsonValue;
    const kind = jsonEqual(oldValue, newValue) ? 'unchanged' : 'changed';
    return { ...common, scope, kind, oldValue, shared };
  });
}

export type EditChangeKind = 'added' | 'changed' | 'removed' | 'unchanged' | 'absent';

export interface EditChange {
  /** The key within its tier. */
  key: string;
  /** `absent`: removing a key that is not there (a no-op, still recorded as asked). */
  kind: EditChangeKind;
  /** Absent when the key is not in the tier. */
  oldValue?: JsonValue;
  /** Absent when the edit removes the key. */
  newValue?: JsonValue;
}

/** The diff of a support edit of one tier (`undefined` removes a key), as the confirmation shows it. */
export function previewEdit(changes: Record<string, JsonValue | undefined>, tier: StateRecord): EditChange[] {
  return ownEntries(changes).map(([key, newValue]) => {
    const exists = hasOwn(tier, key);
    const oldValue = exists ? (tier[key] as JsonValue) : undefined;
    if (newValue === undefined) return exists ? { key, kind: 'removed', oldValue } : { key, kind: 'absent' };
    if (!exists) return { key, kind: 'added', newValue };
    return { key, kind: jsonEqual(oldValue as JsonValue, newValue) ? 'unchanged' : 'changed', oldValue, newValue };
  });
}

/** The service's tiers as records, what previewDelta compares against. */
export function tierRecords(tiers: { app: StateEntry[]; user: StateEntry[]; session: StateEntry[] }): TierRecords {
  return { app: recordOfEntries(tiers.app), user: recordOfEntries(tiers.user), session: recordOfEntries(tiers.session) };
}
