// The session state reads the API and the page's prefetch share. A missing
// session or event is the domain's NOT_FOUND, which the API answers 404 with
// ADK's text.
import type { SpelledJson } from '../session-service/json-spelling';
import { mergedRecord, mergedWritten } from '../session-service/merged-entries';
import type { SessionRef, SessionStore } from '../session-service/store';
import type { SessionSummary, SessionTiers, StateRecord } from '../session-service/types';
import { SESSION_NOT_FOUND, SessionServiceError } from '../session-service/errors';
import type { SessionStateView } from './session-views';
import type { ValueReadOptions } from '../session-service/value-preview';

const notFound = (message: string) => new SessionServiceError('NOT_FOUND', message);
const eventNotFound = (ref: SessionRef, seq: number) => notFound(`Event ${seq} not found in session ${ref.sessionId}.`);

/**
 * The three tiers (now, or right after event `asOf`) with the session's
 * current revision and counts. `preview`: long values may be precut (for cutStateView).
 */
export async function sessionStateView(
  service: SessionStore,
  ref: SessionRef,
  asOf?: number,
  options: ValueReadOptions = {},
): Promise<SessionStateView> {
  if (asOf === undefined) {
    const tiers = await service.getSessionTiers(ref, options);
    if (!tiers) throw notFound(SESSION_NOT_FOUND);
    // Stores that read the summary with the tiers answer in one statement; the rest read it after.
    const summary = tiers.summary ?? (await service.getSessionSummary(ref));
    if (!summary) throw notFound(SESSION_NOT_FOUND);
    return viewOf(tiers, summary);
  }
  const summary = await service.getSessionSummary(ref);
  if (!summary) throw notFound(SESSION_NOT_FOUND);
  const tiers = await service.getStateAsOf(ref, asOf, options);
  if (!tiers) throw eventNotFound(ref, asOf);
  return viewOf(tiers, summary);
}

function viewOf(tiers: SessionTiers, summary: SessionSummary): SessionStateView {
  return {
    app: tiers.app,
    user: tiers.user,
    session: tiers.session,
    revision: summary.revision,
    lastUpdateTime: summary.lastUpdateTime,
    eventCount: summary.eventCount,
  };
}

/** What a template renders against: the merged state, and its values as the store spells them where it can. */
export interface RenderSource {
  state: StateRecord;
  /** For RenderOptions.written (StateEntry.written of the tiers read). */
  written: SpelledJson | null;
}

/** The merged state a template renders against: a session's now, or as of an event. */
export async function renderState(service: SessionStore, ref: SessionRef, asOf?: number): Promise<RenderSource> {
  const tiers = asOf === undefined ? await service.getSessionTiers(ref) : await service.getStateAsOf(ref, asOf);
  if (!tiers) {
    throw asOf !== undefined && (await service.getSessionSummary(ref)) ? eventNotFound(ref, asOf) : notFound(SESSION_NOT_FOUND);
  }
  return { state: mergedRecord(tiers), written: mergedWritten(tiers) };
}
