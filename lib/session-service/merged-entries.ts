import { setOwn } from './json';
import { spellJson, type SpelledJson } from './json-spelling';
import { KEY_PREFIX_APP, KEY_PREFIX_USER, mergeState, scopeOfKey } from './scope';
import type { JsonValue, Scope, SessionTiers, StateEntry, StateRecord } from './types';

/** A key of the merged state (what the agent sees), with the tier it comes from. */
export interface MergedEntry extends StateEntry {
  /** Prefixed as the agent sees it: `app:tone`, `user:plan`, `topic`. */
  key: string;
  scope: Scope;
}

/** A tier's entries as a record (own keys only, so `__proto__` stays a key). */
export function recordOfEntries(entries: { key: string; value: JsonValue }[]): StateRecord {
  const record: StateRecord = {};
  for (const entry of entries) setOwn(record, entry.key, entry.value);
  return record;
}

function byKey(entries: StateEntry[]): Map<string, StateEntry> {
  return new Map(entries.map((entry) => [entry.key, entry]));
}

/** The merged state in the agent's order (session, app, user keys), each entry with its tier and provenance. */
export function mergedEntries(tiers: SessionTiers): MergedEntry[] {
  const merged = mergeState(recordOfEntries(tiers.app), recordOfEntries(tiers.user), recordOfEntries(tiers.session));
  const lookup = { app: byKey(tiers.app), user: byKey(tiers.user), session: byKey(tiers.session) };
  const entries: MergedEntry[] = [];
  for (const prefixed of Object.keys(merged)) {
    const { scope, key } = scopeOfKey(prefixed);
    if (scope === 'temp') continue; // never stored, so never in a tier
    const entry = lookup[scope].get(key);
    if (entry) entries.push({ ...entry, key: prefixed, scope });
  }
  return entries;
}

/** The merged state as a record (for diffs and template previews). */
export function mergedRecord(tiers: SessionTiers): StateRecord {
  return mergeState(recordOfEntries(tiers.app), recordOfEntries(tiers.user), recordOfEntries(tiers.session));
}

/**
 * The merged state's values as their stored text spells them, where it
 * differs from JSON.stringify's (StateEntry.written): RenderOptions.written.
 */
export function mergedWritten(tiers: SessionTiers): SpelledJson {
  const entries = new Map<string, SpelledJson>();
  const add = (prefix: string, tier: StateEntry[]) => {
    for (const entry of tier) {
      const spelled = entry.written === undefined ? null : spellJson(entry.written);
      if (spelled) entries.set(prefix + entry.key, spelled);
    }
  };
  add('', tiers.session);
  add(KEY_PREFIX_APP, tiers.app);
  add(KEY_PREFIX_USER, tiers.user);
  return { kind: 'object', entries };
}
