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
import type { BenchEvent, Delta } from './types';

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
