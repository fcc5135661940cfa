import { randomUUID } from 'node:crypto';
import { isSessionServiceError } from '../session-service/errors';
import type { AppendOptions, SessionRef, SessionStore } from '../session-service/store';
import type { Session, StateRecord } from '../session-service/types';
import { SESSION_NOT_FOUND } from '../session-service/errors';
import { notFound } from './problem';

/**
 * ADK's PATCH: an event by "user" with invocation id `p-<uuid>` carrying the
 * delta, appended onto the session as it is now (the caller named no
 * revision); returns the session with all its events.
 */
export async function patchSessionState(
  store: SessionStore,
  ref: SessionRef,
  stateDelta: StateRecord,
  options: Pick<AppendOptions, 'actor'> = {},
): Promise<Session> {
  try {
    await store.append(ref, { author: 'user', invocationId: `p-${randomUUID()}`, actions: { stateDelta } }, options);
  } catch (error) {
    throw isSessionServiceError(error) && error.code === 'NOT_FOUND' ? notFound(SESSION_NOT_FOUND) : error;
  }
  const session = await store.getSession(ref);
  if (!session) throw notFound(SESSION_NOT_FOUND);
  return session;
}
