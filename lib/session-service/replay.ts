// The session tier as events leave it: each event's session-scope keys, in
// order, over the state the session was created with. What a fork starts
// from and what an import checks a file's state against.
import { hasOwn, ownEntries, setOwn } from './json';
import { scopeOfKey } from './scope';
import { jsonEqual } from './state-diff';
import type { Event, JsonValue, StateRecord } from './types';

/** Session-scope keys of a state or delta (no app:, user: or temp: keys). */
export function sessionScope(record: StateRecord): StateRecord {
  const kept: StateRecord = {};
  for (const [key, value] of ownEntries(record)) if (scopeOfKey(key).scope === 'session') setOwn(kept, key, value);
  return kept;
}

/**
 * The session tier after `events`, over `initial`. As stores persist a delta,
 * a JSON null is a value like any other (ADK's session services store it;
 * only rewind's own replay treats null as removal, rewind.ts).
 */
export function replaySessionState(initial: StateRecord, events: readonly Event[]): StateRecord {
  const state: StateRecord = { ...sessionScope(initial) };
  for (const event of events) {
    for (const [key, value] of ownEntries(sessionScope(event.actions.stateDelta ?? {}))) setOwn(state, key, value);
  }
  return state;
}

/** Keys some event's delta sets in the session tier. */
export function keysSetByEvents(events: readonly Event[]): Set<string> {
  const keys = new Set<string>();
  for (const event of events) for (const key of Object.keys(sessionScope(event.actions.stateDelta ?? {}))) keys.add(key);
  return keys;
}

/**
 * The state a session must have been created with for `events` to leave it
 * at `final`: the session keys no event sets. Null, with the keys at fault,
 * when the events themselves leave a key other than `final` has it.
 */
export function initialStateFor(
  final: StateRecord,
  events: readonly Event[],
): { ok: true; initial: StateRecord } | { ok: false; keys: string[] } {
  const session = sessionScope(final);
  const setByEvents = keysSetByEvents(events);
  const initial: StateRecord = {};
  for (const [key, value] of ownEntries(session)) if (!setByEvents.has(key)) setOwn(initial, key, value);
  const replayed = replaySessionState(initial, events);
  const wrong = [...new Set([...Object.keys(replayed), ...Object.keys(session)])].filter(
    (key) => !hasOwn(replayed, key) || !hasOwn(session, key) || !jsonEqual(replayed[key] as JsonValue, session[key] as JsonValue),
  );
  return wrong.length === 0 ? { ok: true, initial } : { ok: false, keys: wrong.sort() };
}
