// Writes a database exactly as adk-python's SqliteSessionService does
// (src/google/adk/sessions/sqlite_session_service.py at
// google/adk-python@04c135ff, and @dbb2f20 for the older json_patch merge),
// for tests: Python cannot run here. The DDL and statements below are that
// file's; values are serialised as it serialises them (json.dumps for state,
// pydantic's compact JSON for events).
import Database from 'better-sqlite3';
import type { SessionRef } from '../../session-service/store';
import type { JsonObject, JsonValue } from '../../session-service/types';
import { pythonJsonDumps } from '../../stores/adk/python/json-dumps';
import type { ScenarioEvent, ScenarioSession } from './scenario';

// APP_STATES_TABLE_SCHEMA, USER_STATES_TABLE_SCHEMA, SESSIONS_TABLE_SCHEMA, EVENTS_TABLE_SCHEMA, verbatim.
export const PY_SQLITE_DDL = `
CREATE TABLE IF NOT EXISTS app_states (
    app_name TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    update_time REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS user_states (
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    state TEXT NOT NULL,
    update_time REAL NOT NULL,
    PRIMARY KEY (app_name, user_id)
);
CREATE TABLE IF NOT EXISTS sessions (
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    state TEXT NOT NULL,
    create_time REAL NOT NULL,
    update_time REAL NOT NULL,
    PRIMARY KEY (app_name, user_id, id)
);
CREATE TABLE IF NOT EXISTS events (
    id TEXT NOT NULL,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    invocation_id TEXT NOT NULL,
    timestamp REAL NOT NULL,
    event_data TEXT NOT NULL,
    PRIMARY KEY (app_name, user_id, session_id, id),
    FOREIGN KEY (app_name, user_id, session_id) REFERENCES sessions(app_name, user_id, id) ON DELETE CASCADE
);`;

/**
 * How the agent's release merges a delta into a stored tier: `update` (2.8.0 and later, `_MERGE_STATE_SQL`:
 * the delta's entries, then the stored entries the delta does not name, gathered by json_group_object) or
 * `json_patch` (1.19.0 to 2.7.x). Spelt here independently of Statehouse's own statements, so a test comparing
 * the two rows compares two readings of upstream.
 */
export type PythonSqliteMerge = 'update' | 'json_patch';

function merged(merge: PythonSqliteMerge, stored: string, delta: string): string {
  if (merge === 'json_patch') return `json_patch(${stored}, ${delta})`;
  const value = `CASE WHEN d.type IN ('object','array') THEN json(d.value) WHEN d.type IN ('true','false') THEN json(d.type) ELSE d.value END`;
  return `(SELECT json_group_object(d.key, ${value}) FROM (
      SELECT key, value, type FROM json_each(${delta})
      UNION ALL
      SELECT s.key, s.value, s.type FROM json_each(${stored}) AS s
       WHERE NOT EXISTS (SELECT 1 FROM json_each(${delta}) AS n WHERE n.key = s.key)) AS d)`;
}

/** _session_util.extract_state_delta: split by prefix, temp: dropped. */
export function extractStateDelta(delta: JsonObject): { app: JsonObject; user: JsonObject; session: JsonObject } {
  const out = { app: {} as JsonObject, user: {} as JsonObject, session: {} as JsonObject };
  for (const [key, value] of Object.entries(delta)) {
    if (key.startsWith('app:')) out.app[key.slice(4)] = value as JsonValue;
    else if (key.startsWith('user:')) out.user[key.slice(5)] = value as JsonValue;
    else if (!key.startsWith('temp:')) out.session[key] = value as JsonValue;
  }
  return out;
}

/** Creates the file in WAL mode (as a file `adk web` has used may be) or the default rollback journal. */
export function writePythonSqliteStore(
  path: string,
  appName: string,
  sessions: ScenarioSession[],
  options: { wal?: boolean; merge?: PythonSqliteMerge } = {},
): void {
  const db = new Database(path);
  try {
    if (options.wal) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.exec(PY_SQLITE_DDL);
    for (const session of sessions) {
      // create_session: "INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)" with json.dumps({}).
      db.prepare('INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)').run(
        appName,
        session.userId,
        session.sessionId,
        pythonJsonDumps({}),
        session.created,
        session.created,
      );
      for (const event of session.events)
        appendAsSqliteSessionService(db, { appName, userId: session.userId, sessionId: session.sessionId }, event, options.merge);
    }
  } finally {
    db.close();
  }
}

/** append_event's statements for one event, on an open connection (SqliteSessionService commits them together). */
export function appendAsSqliteSessionService(
  db: Database.Database,
  ref: SessionRef,
  event: ScenarioEvent,
  merge: PythonSqliteMerge = 'update',
): void {
  const { appName, ...session } = ref;
  const deltas = extractStateDelta(event.actions.state_delta);
  const ts = event.timestamp;
  if (Object.keys(deltas.app).length > 0) {
    db.prepare(
      `INSERT INTO app_states (app_name, state, update_time) VALUES (?, ?, ?)
  ON CONFLICT(app_name) DO UPDATE SET state=${merged(merge, 'state', 'excluded.state')}, update_time=excluded.update_time`,
    ).run(appName, pythonJsonDumps(deltas.app), ts);
  }
  if (Object.keys(deltas.user).length > 0) {
    db.prepare(
      `INSERT INTO user_states (app_name, user_id, state, update_time) VALUES (?, ?, ?, ?)
  ON CONFLICT(app_name, user_id) DO UPDATE SET state=${merged(merge, 'state', 'excluded.state')}, update_time=excluded.update_time`,
    ).run(appName, session.userId, pythonJsonDumps(deltas.user), ts);
  }
  const hasSessionDelta = Object.keys(deltas.session).length > 0;
  if (hasSessionDelta) {
    const delta = pythonJsonDumps(deltas.session);
    db.prepare(
      `UPDATE sessions SET state=${merged(merge, 'state', '@delta')}, update_time=@ts WHERE app_name=@app AND user_id=@user AND id=@id`,
    ).run({ delta, ts, app: appName, user: session.userId, id: session.sessionId });
  }
  // event.model_dump_json(exclude_none=True): compact, UTF-8.
  db.prepare(
    `INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp, event_data)
    VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(event.id, appName, session.userId, session.sessionId, event.invocation_id, ts, JSON.stringify(event));
  if (!hasSessionDelta) {
    db.prepare('UPDATE sessions SET update_time=? WHERE app_name=? AND user_id=? AND id=?').run(
      ts,
      appName,
      session.userId,
      session.sessionId,
    );
  }
}

/** What the agent's next turn writes: one event appended as SqliteSessionService appends it, in one transaction, while Statehouse has the file open. */
export function appendPythonSqliteEvent(
  path: string,
  appName: string,
  userId: string,
  sessionId: string,
  event: ScenarioEvent,
  merge: PythonSqliteMerge = 'update',
): void {
  const db = new Database(path);
  try {
    db.pragma('foreign_keys = ON');
    db.transaction(() => appendAsSqliteSessionService(db, { appName, userId, sessionId }, event, merge))();
  } finally {
    db.close();
  }
}

/**
 * `count` sessions of one app in an adk-python SQLite database, ten a user
 * (`user-0000`, `session-00000`, ...), update times one second apart, each
 * with a topic and a profile name: "Carol Nguyen" for the one at `carolAt`,
 * "Customer <i>" for the others.
 */
export function insertCustomerSessions(db: Database.Database, appName: string, count: number, carolAt: number): void {
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < @last)
     INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time)
     SELECT @app, printf('user-%04d', i / 10), printf('session-%05d', i),
       json_object('topic', CASE i % 2 WHEN 0 THEN 'refund' ELSE 'login' END,
         'profile', json_object('name', CASE WHEN i = @carol THEN 'Carol Nguyen' ELSE printf('Customer %d', i) END)),
       1790000000 + i, 1790000000 + i FROM n`,
  ).run({ app: appName, last: count - 1, carol: carolAt });
}
