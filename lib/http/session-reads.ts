import { mergedRecord } from '../session-service/merged-entries';
import type { SessionRef, SessionStore } from '../session-service/store';
import type { SessionTiers, StateRecord } from '../session-service/types';
import { notFound, SESSION_NOT_FOUND } from './problem';
import type { RenderSource } from './schemas/render';

export interface SessionStateView extends SessionTiers {
  /** The session now, also with asOf: what an If-Match on the events route must name. */
  revision: number;
  lastUpdateTime: number;
  eventCount: number;
}

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

/** The merged state a template renders against: given, a session's now, or a session's as of an event. */
export async function renderState(service: SessionStore, source: RenderSource): Promise<StateRecord> {
  if ('state' in source) return source.state;
  const ref = source.session;
  if (source.asOf === undefined) {
    const session = await service.getSession(ref, { numRecentEvents: 0 });
    if (!session) throw notFound(SESSION_NOT_FOUND);
    return session.state;
  }
  const tiers = await service.getStateAsOf(ref, source.asOf);
  if (!tiers) {
    throw (await service.getSessionSummary(ref)) ? eventNotFound(ref, source.asOf) : notFound(SESSION_NOT_FOUND);
  }
  return mergedRecord(tiers);
}
