import type { SessionRef } from '../../../session-service/store';
import type { Event } from '../../../session-service/types';
import type { AgentQuery, Param } from '../agent-db';

/**
 * The events row of adk-python's DatabaseSessionService schema, which adk-js's
 * copies: the event's id, its session, its invocation, the timestamp as the
 * family stores it and the whole event as JSON text (`event_data`).
 */
export async function insertEventRow(q: AgentQuery, ref: SessionRef, event: Event, timestamp: Param, eventData: string): Promise<void> {
  await q.run('INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp, event_data) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    event.id,
    ref.appName,
    ref.userId,
    ref.sessionId,
    event.invocationId,
    timestamp,
    eventData,
  ]);
}
