// The session state reads the API and the page's prefetch share. A missing
// session or event is the domain's NOT_FOUND, which the API answers 404 with
// ADK's text.
import { encodeJson, hasOwn } from '../session-service/json';
import { plainOf, type SpelledJson } from '../session-service/json-spelling';
import { mergedRecord } from '../session-service/merged-entries';
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
  /** For RenderOptions.written: only values whose stored text parses to the value read. */
  written: SpelledJson | null;
}

/** The merged state a template renders against: a session's now, or as of an event (parsed values only: history keeps no text). */
export async function renderState(service: SessionStore, ref: SessionRef, asOf?: number): Promise<RenderSource> {
  if (asOf === undefined) {
    const [session, spelling] = await Promise.all([
      service.getSession(ref, { numRecentEvents: 0 }),
      service.getStateSpelling?.(ref) ?? null,
    ]);
    if (!session) throw notFound(SESSION_NOT_FOUND);
    return { state: session.state, written: spelling ? matchingSpelling(session.state, spelling) : null };
  }
  const tiers = await service.getStateAsOf(ref, asOf);
  if (!tiers) {
    throw (await service.getSessionSummary(ref)) ? eventNotFound(ref, asOf) : notFound(SESSION_NOT_FOUND);
  }
  return { state: mergedRecord(tiers), written: null };
}

/** The spelled values that agree with the state read (the two reads are separate, so a write between them is possible). */
function matchingSpelling(state: StateRecord, spelling: Map<string, SpelledJson>): SpelledJson {
  const entries = new Map<string, SpelledJson>();
  for (const [key, spelled] of spelling) {
    if (hasOwn(state, key) && encodeJson(plainOf(spelled)) === encodeJson(state[key] ?? null)) entries.set(key, spelled);
  }
  return { kind: 'object', entries };
}
