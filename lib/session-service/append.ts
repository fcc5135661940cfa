// ADK's appendEvent on a session object, over a store's append: the store
// persists and reports the new revision; this applies the event to the
// caller's copy the way ADK's session services do.
import { completeEvent } from './events';
import { ownEntries, setOwn } from './json';
import type { SessionStore } from './store';
import type { Event, NewEvent, Session } from './types';

/** What a stored event does to the caller's session object once committed. */
export function applyToSession(session: Session, event: Event, stored: Event, revision: number): void {
  // As ADK does: the caller's session object sees the whole delta, temp: keys included.
  for (const [key, value] of ownEntries(event.actions.stateDelta)) setOwn(session.state, key, value);
  session.events.push(stored);
  session.lastUpdateTime = stored.timestamp;
  // A retried event is answered with the revision that first stored it: this copy may be further on already.
  session.revision = Math.max(session.revision, revision);
}

/**
 * Persists the event through `session` (rejected when that copy is stale)
 * and applies it to `session` in place. A partial event is returned
 * untouched, without asking the store.
 */
export async function appendEvent(
  store: SessionStore,
  session: Session,
  newEvent: NewEvent,
  options: { actor?: string } = {},
): Promise<Event> {
  const event = completeEvent(newEvent);
  if (event.partial) return event;
  const ref = { appName: session.appName, userId: session.userId, sessionId: session.id };
  const appended = await store.append(ref, event, { ...options, expectedRevision: session.revision });
  applyToSession(session, event, appended.event, appended.revision);
  return appended.event;
}
