import type { Event, Session, StateRecord } from '../session-service/types';

/**
 * ADK's Session as its API server writes it. Exactly these fields: ADK's
 * pydantic Session forbids extra ones, so the storage `revision` stays out.
 */
export interface AdkSessionJson {
  id: string;
  appName: string;
  userId: string;
  state: StateRecord;
  /** As stored: camelCase, temp: keys removed, unknown fields kept. */
  events: Event[];
  /** Float seconds since the epoch. */
  lastUpdateTime: number;
}

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
