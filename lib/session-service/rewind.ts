// Rewind as adk-python's Runner.rewind_async does it (sessions/_rewind_utils.py):
// a new `user` event naming the invocation it rewinds before, whose delta
// puts the session-scope keys back as the events before that invocation left
// them. app: and user: keys are shared with other sessions and stay as they are.
import { invalidInput, SessionServiceError } from './errors';
import { newId } from './events';
import { hasOwn, ownEntries, setOwn } from './json';
import { KEY_PREFIX_APP, KEY_PREFIX_USER } from './scope';
import { jsonEqual } from './state-diff';
import type { AppendOptions, SessionRef, SessionStore } from './store';
import type { Event, JsonValue, StateRecord } from './types';

const isShared = (key: string) => key.startsWith(KEY_PREFIX_APP) || key.startsWith(KEY_PREFIX_USER);

/** ADK's message for an invocation the session has no event of. */
export const invocationNotFound = (invocationId: string) =>
  new SessionServiceError('NOT_FOUND', `Invocation ID not found: ${invocationId}`);

/** Index of the session's first event of this invocation; -1 when there is none. */
export function rewindIndex(events: readonly Event[], invocationId: string): number {
  return events.findIndex((event) => event.invocationId === invocationId);
}

/**
 * The delta that undoes the session-scope changes from `events[index]` on,
 * upstream's compute_state_delta_for_rewind: replay the deltas before the
 * index (null removes a key), then set every key whose current value differs
 * from the replayed one, and null every current session key the replay does
 * not have. `state` is the session's state as stored (merged or not; shared
 * keys are skipped).
 *
 * As upstream, a key set only by the session's initial state (never by an
 * event) is nulled: adk-python#4933.
 */
export function rewindStateDelta(events: readonly Event[], index: number, state: StateRecord): StateRecord {
  const atRewindPoint: StateRecord = {};
  for (const event of events.slice(0, index)) {
    for (const [key, value] of ownEntries(event.actions.stateDelta ?? {})) {
      if (isShared(key)) continue;
      if (value === null) delete atRewindPoint[key];
      else setOwn<JsonValue>(atRewindPoint, key, value);
    }
  }
  const delta: StateRecord = {};
  for (const [key, value] of ownEntries(atRewindPoint)) {
    if (!hasOwn(state, key) || !jsonEqual(state[key] as JsonValue, value)) setOwn(delta, key, value);
  }
  for (const key of Object.keys(state)) {
    if (!isShared(key) && !hasOwn(atRewindPoint, key)) setOwn<JsonValue>(delta, key, null);
  }
  return delta;
}

/** The rewind event for these events and state: `user`, a fresh `e-` invocation, upstream's delta. */
export function rewindEvent(events: readonly Event[], state: StateRecord, invocationId: string) {
  const index = rewindIndex(events, invocationId);
  if (index === -1) throw invocationNotFound(invocationId);
  return {
    index,
    event: {
      invocationId: `e-${newId()}`,
      author: 'user',
      actions: { rewindBeforeInvocationId: invocationId, stateDelta: rewindStateDelta(events, index, state), artifactDelta: {} },
    },
  };
}

export interface RewindOutcome {
  /** The appended rewind event, as stored. */
  event: Event;
  revision: number;
  /** How many events it undid: the invocation's first event and every one after it, up to the rewind. */
  undoneEvents: number;
}

/**
 * Appends the rewind event to the session as loaded, guarded by the revision
 * it was loaded at (or `expectedRevision`, when the caller saw an older one):
 * a session that moved on meanwhile is a STALE_SESSION, so the delta is never
 * computed from one state and applied to another. Works on any store.
 */
export async function rewindSession(
  store: SessionStore,
  ref: SessionRef,
  invocationId: string,
  options: AppendOptions = {},
): Promise<RewindOutcome> {
  if (!invocationId.trim()) throw invalidInput('rewindBeforeInvocationId: required.');
  const session = await store.getSession(ref);
  if (!session) throw new SessionServiceError('NOT_FOUND', `Session ${ref.sessionId} not found.`);
  const { index, event } = rewindEvent(session.events, session.state, invocationId);
  const appended = await store.append(ref, event, { ...options, expectedRevision: options.expectedRevision ?? session.revision });
  return { event: appended.event, revision: appended.revision, undoneEvents: session.events.length - index };
}
