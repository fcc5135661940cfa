// The rows the SQL families (adk-python's DatabaseSessionService and its
// SQLite service, adk-js's and adk-go's, which copy its schema) insert alike;
// each family brings its own encodings of the JSON and the times.
import type { SessionRef } from '../../../session-service/store';
import type { Event } from '../../../session-service/types';
import type { AgentQuery, Param } from '../agent-db';

/** create_session's sessions row: the session's own state, created and updated at one `now`. */
export async function insertSessionRow(q: AgentQuery, ref: SessionRef, state: string, now: Param): Promise<void> {
  await q.run('INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)', [
    ref.appName,
    ref.userId,
    ref.sessionId,
    state,
    now,
    now,
  ]);
}

/** append_event's events row: the event's id, session and invocation, its timestamp, and the whole event as JSON text. */
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
