import { randomUUID } from 'node:crypto';
import { isSessionServiceError } from '../session-service/errors';
import type { AppendOptions, SessionRef, SessionService } from '../session-service/service';
import type { Event, NewEvent, Session, StateRecord } from '../session-service/types';
import { UNGUARDED_APPEND_MAX_MS } from './limits';
import { notFound, SESSION_NOT_FOUND } from './problem';

const isStale = (error: unknown) => isSessionServiceError(error) && error.code === 'STALE_SESSION';

/**
 * Runs an unguarded append until it is not beaten by another writer: each
 * attempt reads the current revision afresh; after a lost race it waits a
 * random few milliseconds (growing, capped) so the racers spread out.
 */
async function retryWhileStale<T>(attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + UNGUARDED_APPEND_MAX_MS;
  for (let round = 0; ; round += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isStale(error) || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** round)));
  }
}

/**
 * ADK's PATCH: an event by "user" with invocation id `p-<uuid>` carrying the
 * delta, appended to the session as loaded; returns the session with all its
 * events. A concurrent append in between makes the loaded copy stale; the
 * caller asked for no revision, so the delta is simply applied to a fresh load.
 */
export async function patchSessionState(
  service: SessionService,
  ref: SessionRef,
  stateDelta: StateRecord,
  options: AppendOptions = {},
): Promise<Session> {
  const invocationId = `p-${randomUUID()}`;
  return retryWhileStale(async () => {
    const session = await service.getSession(ref);
    if (!session) throw notFound(SESSION_NOT_FOUND);
    await service.appendEvent(session, { author: 'user', invocationId, actions: { stateDelta } }, options);
    return session;
  });
}

/** A session handle for appendEvent: only identity and revision matter to the service. */
function handle(ref: SessionRef, revision: number): Session {
  return { id: ref.sessionId, appName: ref.appName, userId: ref.userId, state: {}, events: [], lastUpdateTime: 0, revision };
}

async function currentRevision(service: SessionService, ref: SessionRef): Promise<number> {
  const summary = await service.getSessionSummary(ref);
  if (!summary) throw notFound(`Session ${ref.sessionId} not found.`);
  return summary.revision;
}

export interface AppendResult {
  event: Event;
  /** The session's revision after the append (unchanged for a partial event, which is not stored). */
  revision: number;
}

/**
 * Appends one event. With `expectedRevision` (If-Match) it is an exact
 * compare-and-swap: a session that moved on is a 409 with ADK's stale text.
 * Without it, the event goes onto whatever the current revision is.
 */
export async function appendToSession(
  service: SessionService,
  ref: SessionRef,
  event: NewEvent,
  expectedRevision?: number,
  options: AppendOptions = {},
): Promise<AppendResult> {
  if (event.partial === true) {
    // The service returns partial events untouched without looking at storage; the route still owes a 404.
    const revision = await currentRevision(service, ref);
    return { event: await service.appendEvent(handle(ref, revision), event), revision };
  }
  if (expectedRevision !== undefined) {
    const session = handle(ref, expectedRevision);
    const stored = await service.appendEvent(session, event, options);
    return { event: stored, revision: session.revision };
  }
  return retryWhileStale(async () => {
    const session = handle(ref, await currentRevision(service, ref));
    const stored = await service.appendEvent(session, event, options);
    return { event: stored, revision: session.revision };
  });
}
