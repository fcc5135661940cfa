import { ownEntries, setOwn } from './json';
import type { Scope, StateRecord } from './types';

export const KEY_PREFIX_APP = 'app:';
export const KEY_PREFIX_USER = 'user:';
export const KEY_PREFIX_TEMP = 'temp:';

/** A state delta split by tier; keys are stored without their prefix. */
export interface ScopedDelta {
  app: StateRecord;
  user: StateRecord;
  session: StateRecord;
  temp: StateRecord;
}

/** Which tier a prefixed key belongs to, and its key within that tier. Only the first prefix counts. */
export function scopeOfKey(key: string): { scope: Scope | 'temp'; key: string } {
  if (key.startsWith(KEY_PREFIX_APP)) return { scope: 'app', key: key.slice(KEY_PREFIX_APP.length) };
  if (key.startsWith(KEY_PREFIX_USER)) return { scope: 'user', key: key.slice(KEY_PREFIX_USER.length) };
  if (key.startsWith(KEY_PREFIX_TEMP)) return { scope: 'temp', key: key.slice(KEY_PREFIX_TEMP.length) };
  return { scope: 'session', key };
}

export function prefixedKey(scope: Scope, key: string): string {
  if (scope === 'app') return KEY_PREFIX_APP + key;
  if (scope === 'user') return KEY_PREFIX_USER + key;
  return key;
}

export function splitDelta(delta: StateRecord): ScopedDelta {
  const split: ScopedDelta = { app: {}, user: {}, session: {}, temp: {} };
  for (const [prefixed, value] of ownEntries(delta)) {
    const { scope, key } = scopeOfKey(prefixed);
    setOwn(split[scope], key, value);
  }
  return split;
}

/** What an agent sees: session keys, then app keys as `app:k`, then user keys as `user:k`. */
export function mergeState(app: StateRecord, user: StateRecord, session: StateRecord): StateRecord {
  const merged: StateRecord = {};
  for (const [key, value] of ownEntries(session)) setOwn(merged, key, value);
  for (const [key, value] of ownEntries(app)) setOwn(merged, KEY_PREFIX_APP + key, value);
  for (const [key, value] of ownEntries(user)) setOwn(merged, KEY_PREFIX_USER + key, value);
  return merged;
}

/** Delta without its temp: keys: what gets stored with the event. */
export function withoutTempKeys(delta: StateRecord): StateRecord {
  const kept: StateRecord = {};
  for (const [key, value] of ownEntries(delta)) {
    if (!key.startsWith(KEY_PREFIX_TEMP)) setOwn(kept, key, value);
  }
  return kept;
}
