// What the two raw-driver floors share with each other and with Statehouse:
// the pure, in-memory parts of the semantics (event completion, scope split,
// merge order), taken from lib/session-service so that the floor measures the
// storage access alone.
import {
  completeEvent,
  mergeState,
  splitDelta,
  type Event,
  type JsonValue,
  type NewEvent,
  type Session,
  type StateRecord,
} from '../../lib/session-service';
import { storedForm } from '../../lib/session-service/events';
import type { BenchEvent, Delta, SessionKey } from './types';

export interface SessionRow {
  pk: number;
  revision: number;
  last_seq: number;
  update_time: number;
}

export interface KeyValue {
  key: string;
  value: string;
}

/** What a state change's history row records as its cause (its source is the session written). */
export interface Cause {
  eventId: string | null;
  eventSeq: number | null;
  actor: string;
  time: number;
}

export type Tier = 'app' | 'user' | 'session';
export const TIERS: readonly Tier[] = ['app', 'user', 'session'];

/** One tier's part of a delta: [key without prefix, JSON text], sorted by key (lock order). */
export type TierRows = [key: string, value: string][];

export function tierRows(delta: Delta): Record<Tier, TierRows> {
  const split = splitDelta(delta);
  const rows = (record: StateRecord): TierRows =>
    Object.keys(record)
      .sort()
      .map((key) => [key, JSON.stringify(record[key] as JsonValue)]);
  return { app: rows(split.app), user: rows(split.user), session: rows(split.session) };
}

export function newEventOf(event: BenchEvent): NewEvent {
  return {
    author: event.author,
    invocationId: event.invocationId,
    content: { role: 'model', parts: [{ text: event.text }] },
    actions: { stateDelta: event.stateDelta },
  };
}

/** The event as stored (id and timestamp filled in, temp: keys dropped), as Statehouse stores it. */
export function storedEvent(event: BenchEvent): Event {
  return storedForm(completeEvent(newEventOf(event)));
}

export function mergedState(
  app: { key: string; value: string }[],
  user: { key: string; value: string }[],
  session: { key: string; value: string }[],
): StateRecord {
  const record = (rows: { key: string; value: string }[]): StateRecord => {
    const out: StateRecord = {};
    for (const row of rows)
      Object.defineProperty(out, row.key, {
        value: JSON.parse(row.value) as JsonValue,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  return mergeState(record(app), record(user), record(session));
}

/** ADK's in-place update of the caller's session object after a successful append. */
export function applyAppended(session: Session, event: Event, delta: Delta, revision: number): void {
  for (const key of Object.keys(delta)) {
    Object.defineProperty(session.state, key, { value: delta[key], enumerable: true, writable: true, configurable: true });
  }
  session.events.push(event);
  session.lastUpdateTime = event.timestamp;
  session.revision = revision;
}

export const STALE_MESSAGE =
  'The session has been modified in storage since it was loaded. Please reload the session before appending more events.';

/** The session read back: its row, its merged state and its events' stored JSON, oldest first. */
export function sessionOf(key: SessionKey, row: SessionRow, state: StateRecord, events: { data: string }[]): Session {
  return {
    id: key.sessionId,
    appName: key.appName,
    userId: key.userId,
    state,
    events: events.map((r) => JSON.parse(r.data) as Session['events'][number]),
    lastUpdateTime: row.update_time,
    revision: row.revision,
  };
}

/** An app's (or a user's) sessions as listSessions returns them: merged state, no events. */
export function listedSessions(
  rows: (SessionRow & { id: string; user_id: string })[],
  app: KeyValue[],
  user: (KeyValue & { user_id: string })[],
  session: (KeyValue & { session_pk: number })[],
) {
  const bySession = groupBy(session, (r) => r.session_pk);
  const byUser = groupBy(user, (r) => r.user_id);
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    state: mergedState(app, byUser.get(row.user_id) ?? [], bySession.get(row.pk) ?? []),
    events: [],
    lastUpdateTime: row.update_time,
    revision: row.revision,
  }));
}

export function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
