// The session state reads the API and the page's prefetch share. A missing
// session or event is the domain's NOT_FOUND, which the API answers 404 with
// ADK's text.
import { mergedRecord } from '../session-service/merged-entries';
import type { SessionRef, SessionStore } from '../session-service/store';
import type { StateRecord } from '../session-service/types';
import { SESSION_NOT_FOUND, SessionServiceError } from '../session-service/errors';
import type { SessionStateView } from './session-views';

const notFound = (message: string) => new SessionServiceError('NOT_FOUND', message);
const eventNotFound = (ref: SessionRef, seq: number) => notFound(`Event ${seq} not found in session ${ref.sessionId}.`);

/** The three tiers (now, or right after event `asOf`) with the session's current revision and counts. */
export async function sessionStateView(service: SessionStore, ref: SessionRef, asOf?: number): Promise<SessionStateView> {
  const summary = await service.getSessionSummary(ref);
  if (!summary) throw notFound(SESSION_NOT_FOUND);
  const tiers = asOf === undefined ? await service.getSessionTiers(ref) : await service.getStateAsOf(ref, asOf);
  if (!tiers) throw asOf === undefined ? notFound(SESSION_NOT_FOUND) : eventNotFound(ref, asOf);
  return {
    app: tiers.app,
    user: tiers.user,
    session: tiers.session,
    revision: summary.revision,
    lastUpdateTime: summary.lastUpdateTime,
    eventCount: summary.eventCount,
  };
}

/** The merged state a template renders against: a session's now, or as of an event. */
export async function renderState(service: SessionStore, ref: SessionRef, asOf?: number): Promise<StateRecord> {
  if (asOf === undefined) {
    const session = await service.getSession(ref, { numRecentEvents: 0 });
    if (!session) throw notFound(SESSION_NOT_FOUND);
    return session.state;
  }
  const tiers = await service.getStateAsOf(ref, asOf);
  if (!tiers) {
    throw (await service.getSessionSummary(ref)) ? eventNotFound(ref, asOf) : notFound(SESSION_NOT_FOUND);
  }
  return mergedRecord(tiers);
}
