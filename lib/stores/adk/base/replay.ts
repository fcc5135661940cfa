// Per-key history of one session, by replaying its events' state_delta in
// ADK's order, the way the agent's state came to be. ADK stores only the
// current tier blobs and each event's delta, so an old value is the value
// the previous event of this session set (or, for a key no event touched,
// the blob's current value, which must then have been there from the start).
import { hasOwn, ownEntries, setOwn } from '../../../session-service/json';
import { splitDelta, withoutTempKeys } from '../../../session-service/scope';
import type { SessionRef } from '../../../session-service/store';
import type { ChangeSource, Event, JsonValue, Scope, StateChange, StateRecord } from '../../../session-service/types';

export interface Tiers {
  app: StateRecord;
  user: StateRecord;
  session: StateRecord;
}

const SCOPES: Scope[] = ['app', 'user', 'session'];
/** Synthetic change ids: seq * CHANGE_ID_SPAN + the change's index within its event. */
export const CHANGE_ID_SPAN = 100_000;

export interface ReplayedEvent {
  seq: number;
  event: Event;
  changes: StateChange[];
}

export interface Replay {
  events: ReplayedEvent[];
  /** The tiers right after the event with this seq (0: before the first). */
  tiersAfter(seq: number): Tiers;
}

function copy(record: StateRecord): StateRecord {
  const out: StateRecord = {};
  for (const [key, value] of ownEntries(record)) setOwn(out, key, value);
  return out;
}

/** Keys of `current` that no event touches, as they are now: what the session started with. */
function untouched(current: StateRecord, touched: Set<string>): StateRecord {
  const out: StateRecord = {};
  for (const [key, value] of ownEntries(current)) if (!touched.has(key)) setOwn(out, key, value);
  return out;
}

/** What a change made by event `seq` of this session says about where it came from. */
export function eventSource(ref: SessionRef, event: Event, seq: number): ChangeSource {
  return {
    actor: event.author,
    reason: null,
    time: event.timestamp,
    sourceUserId: ref.userId,
    sourceSessionId: ref.sessionId,
    eventId: event.id,
    eventSeq: seq,
  };
}

export function replaySession(
  ref: SessionRef,
  events: Event[],
  current: Tiers,
  applyDelta: (tier: StateRecord, delta: StateRecord) => StateRecord,
): Replay {
  const deltas = events.map((event) => splitDelta(withoutTempKeys(event.actions.stateDelta ?? {})));
  const touched: Record<Scope, Set<string>> = { app: new Set(), user: new Set(), session: new Set() };
  for (const delta of deltas) for (const scope of SCOPES) for (const key of Object.keys(delta[scope])) touched[scope].add(key);
  const initial: Tiers = {
    app: untouched(current.app, touched.app),
    user: untouched(current.user, touched.user),
    session: untouched(current.session, touched.session),
  };
  const snapshots: Tiers[] = [initial];
  const replayed: ReplayedEvent[] = [];
  let tiers = initial;
  events.forEach((event, index) => {
    const seq = index + 1;
    const delta = deltas[index] ?? splitDelta({});
    const next: Tiers = { ...tiers };
    const changes: StateChange[] = [];
    for (const scope of SCOPES) {
      const keys = Object.keys(delta[scope]);
      if (keys.length === 0) continue;
      const before = tiers[scope];
      const after = applyDelta(copy(before), delta[scope]);
      next[scope] = after;
      for (const key of keys) {
        changes.push({
          id: seq * CHANGE_ID_SPAN + changes.length,
          appName: ref.appName,
          scope,
          ownerUserId: scope === 'app' ? '' : ref.userId,
          ownerSessionId: scope === 'session' ? ref.sessionId : '',
          key,
          oldValue: hasOwn(before, key) ? before[key] : undefined,
          newValue: hasOwn(after, key) ? after[key] : undefined,
          ...eventSource(ref, event, seq),
        });
      }
    }
    tiers = next;
    snapshots.push(next);
    replayed.push({ seq, event, changes });
  });
  return {
    events: replayed,
    tiersAfter(seq: number): Tiers {
      // App and user keys this session never touched read as they are now (other sessions' writes are not replayed).
      return snapshots[Math.max(0, Math.min(seq, snapshots.length - 1))] ?? initial;
    },
  };
}

/** Dict-union merge: what adk-python's DatabaseSessionService and most ADKs do (`state | delta`). */
export function unionDelta(tier: StateRecord, delta: StateRecord): StateRecord {
  for (const [key, value] of ownEntries(delta)) setOwn(tier, key, value);
  return tier;
}

function isObject(value: JsonValue | undefined): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 7396 JSON merge patch, as SQLite's json_patch applies it: null removes, objects merge. */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return patch;
  const out: Record<string, JsonValue> = {};
  if (isObject(target)) for (const [key, value] of ownEntries(target)) setOwn(out, key, value);
  for (const [key, value] of ownEntries(patch)) {
    if (value === null) delete out[key];
    else setOwn(out, key, mergePatch(hasOwn(out, key) ? out[key] : undefined, value));
  }
  return out;
}

export function patchDelta(tier: StateRecord, delta: StateRecord): StateRecord {
  return mergePatch(tier, delta) as StateRecord;
}
