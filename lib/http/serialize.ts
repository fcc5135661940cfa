import { jsonTextChunks } from '../session-service/json-chunks';
import type { AdkSessionJson, Session } from '../session-service/types';

export type { AdkSessionJson } from '../session-service/types';

/** ADK's Session as its API server writes it: the storage `revision` (and any note of unreadable fields) stays out. */
export function sessionJson(session: Session): AdkSessionJson {
  return {
    id: session.id,
    appName: session.appName,
    userId: session.userId,
    state: session.state,
    events: session.events,
    lastUpdateTime: session.lastUpdateTime,
  };
}

/** JSON.stringify(sessionJson(session))'s text, a chunk of events at a time. */
export function sessionJsonChunks(session: Session): Generator<string> {
  return jsonTextChunks(sessionJson(session), 'events');
}
