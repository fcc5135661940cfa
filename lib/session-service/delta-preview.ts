import { hasOwn, ownEntries } from './json';
import { scopeOfKey } from './scope';
import type { JsonValue, Scope, StateRecord } from './types';

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
}

export interface TierRecords {
  app: StateRecord;
  user: StateRecord;
  session: StateRecord;
}

function sameJson(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What appending a delta would do to each tier, key by key, before it is appended. */
export function previewDelta(delta: StateRecord, tiers: TierRecords): DeltaChange[] {
  return ownEntries(delta).map(([prefixedKey, newValue]) => {
    const { scope, key } = scopeOfKey(prefixedKey);
    if (scope === 'temp') return { prefixedKey, scope, key, kind: 'temp', newValue, shared: false };
    const tier = tiers[scope];
    const shared = scope !== 'session';
    if (!hasOwn(tier, key)) return { prefixedKey, scope, key, kind: 'added', newValue, shared };
    const oldValue = tier[key] as JsonValue;
    const kind = sameJson(oldValue, newValue) ? 'unchanged' : 'changed';
    return { prefixedKey, scope, key, kind, oldValue, newValue, shared };
  });
}
