// adk-python's get_session, reproduced from its source for tests that check
// what the agent would load from rows Statehouse wrote (Python cannot run
// here). SqliteSessionService (sessions/sqlite_session_service.py at
// google/adk-python@04c135ff): the session row's state, events'
// `event_data` ordered `timestamp DESC, rowid DESC` and reversed, each
// `Event.model_validate_json`; `_merge_state(app, user, session)` with the
// `app:` and `user:` prefixes. DatabaseSessionService
// (database_session_service.py, StorageEvent.to_event in schemas/v1.py):
// events ordered `timestamp DESC` and reversed, each event_data with
// `id` and `invocation_id` from their columns; the same merge.
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { SessionRef } from '../../session-service/store';
import type { JsonObject } from '../../session-service/types';
import type { FixtureTarget } from './registry';

type Row = Record<string, unknown>;

export interface PythonSession {
  /** The merged state get_session returns. */
  state: JsonObject;
  /** event_data as pydantic would validate it (Python field names), in the order get_session returns them. */
  events: JsonObject[];
  /** sessions.update_time as the driver returns it. */
  updateTime: unknown;
}

const parse = (value: unknown): JsonObject => (typeof value === 'string' ? (JSON.parse(value) as JsonObject) : (value as JsonObject));

async function query(target: FixtureTarget, sql: string, params: unknown[]): Promise<Row[]> {
  if ('sqlitePath' in target) {
    const db = new Database(target.sqlitePath, { readonly: true });
    try {
      return db.prepare(sql.replace(/\$\d+/g, '?')).all(...params) as Row[];
    } finally {
      db.close();
    }
  }
  if ('mysqlUrl' in target) {
    const connection = await mysql.createConnection({ uri: target.mysqlUrl, dateStrings: true });
    try {
      return (await connection.query(sql.replace(/\$\d+/g, '?'), params))[0] as Row[];
    } finally {
      await connection.end();
    }
  }
  const client = new pg.Client({ connectionString: target.postgresUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Row[];
  } finally {
    await client.end();
  }
}

function mergeState(app: JsonObject, user: JsonObject, session: JsonObject): JsonObject {
  const merged: JsonObject = { ...session };
  for (const [key, value] of Object.entries(app)) merged[`app:${key}`] = value;
  for (const [key, value] of Object.entries(user)) merged[`user:${key}`] = value;
  return merged;
}

/** get_session of `service` ('sqlite': SqliteSessionService, 'database': DatabaseSessionService v1); null when there is no such session. */
export async function pythonGetSession(
  target: FixtureTarget,
  service: 'sqlite' | 'database',
  ref: SessionRef,
): Promise<PythonSession | null> {
  const key = [ref.appName, ref.userId, ref.sessionId];
  const [session] = await query(target, 'SELECT state, update_time FROM sessions WHERE app_name = $1 AND user_id = $2 AND id = $3', key);
  if (!session) return null;
  const order = service === 'sqlite' ? 'timestamp DESC, rowid DESC' : 'timestamp DESC';
  const rows = await query(
    target,
    `SELECT id, invocation_id, event_data FROM events WHERE app_name = $1 AND user_id = $2 AND session_id = $3 ORDER BY ${order}`,
    key,
  );
  const events = rows
    .reverse()
    .map((row) =>
      service === 'sqlite'
        ? parse(row.event_data)
        : { ...parse(row.event_data), id: String(row.id), invocation_id: String(row.invocation_id) },
    );
  const [app] = await query(target, 'SELECT state FROM app_states WHERE app_name = $1', [ref.appName]);
  const [user] = await query(target, 'SELECT state FROM user_states WHERE app_name = $1 AND user_id = $2', [ref.appName, ref.userId]);
  return {
    state: mergeState(app ? parse(app.state) : {}, user ? parse(user.state) : {}, parse(session.state)),
    events,
    updateTime: session.update_time,
  };
}
