import { randomUUID } from 'node:crypto';
import { appendCommand, type AppendEventContext } from '../commands/append-event';
import type { AppendOptions, SessionRef, SessionStore } from '../session-service/store';
import type { Session, StateRecord } from '../session-service/types';
import { SESSION_NOT_FOUND } from '../session-service/errors';
import { resultOf } from './errors';
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
  context: AppendEventContext & Pick<AppendOptions, 'spellings'>,
): Promise<Session> {
  const appended = await appendCommand(store, ref, { author: 'user', invocationId: `p-${randomUUID()}`, actions: { stateDelta } }, context);
  if (!appended.ok && appended.code === 'NOT_FOUND') throw notFound(SESSION_NOT_FOUND);
  resultOf(appended);
  const session = await store.getSession(ref);
  if (!session) throw notFound(SESSION_NOT_FOUND);
  return session;
}
