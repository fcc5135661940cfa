// A long adk-python SqliteSessionService session (tens of thousands of
// events), written directly in that service's layout and serialisation
// (python-sqlite.ts) in one transaction: for time-travel tests and the bench,
// where appending through the service one event at a time would take minutes.
import Database from 'better-sqlite3';
import { pythonJsonDumps } from '../../stores/adk/python/json-dumps';
import { PY_SQLITE_DDL } from './python-sqlite';
import type { ScenarioEvent } from './scenario';

export interface LongSessionOptions {
  appName: string;
  userId: string;
  sessionId: string;
  events: number;
  /** Seconds of the first event; one second apart. */
  start: number;
  /** Characters of each event's text content. */
  textSize?: number;
}

/** Event `i` (1-based): sets `counter` to i, one of 50 rotating keys, and every tenth event `user:seen`. */
export function longSessionEvent(i: number, options: LongSessionOptions): ScenarioEvent {
  const delta = { counter: i, [`k${i % 50}`]: `v${i}`, ...(i % 10 === 0 ? { 'user:seen': i } : {}) };
  return {
    invocation_id: `inv-${i}`,
    author: i % 2 === 1 ? 'user' : 'model',
    actions: { state_delta: delta, artifact_delta: {}, requested_auth_configs: {}, requested_tool_confirmations: {} },
    id: `e${i}`,
    timestamp: options.start + i,
    content: { role: i % 2 === 1 ? 'user' : 'model', parts: [{ text: 'x'.repeat(options.textSize ?? 300) }] },
  };
}

/** Adds one session of `options.events` events to the file (creating the tables if needed), as SqliteSessionService leaves them. */
export function writeLongPythonSqliteSession(path: string, options: LongSessionOptions): void {
  const db = new Database(path);
  try {
    db.exec(PY_SQLITE_DDL);
    const { appName, userId, sessionId } = options;
    const insert = db.prepare(
      'INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp, event_data) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      const last = options.start + options.events;
      db.prepare('INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)').run(
        appName,
        userId,
        sessionId,
        pythonJsonDumps({}),
        options.start,
        last,
      );
      const session: Record<string, string | number> = {};
      for (let i = 1; i <= options.events; i += 1) {
        const event = longSessionEvent(i, options);
        for (const [key, value] of Object.entries(event.actions.state_delta))
          if (!key.includes(':')) session[key] = value as string | number;
        insert.run(event.id, appName, userId, sessionId, event.invocation_id, event.timestamp, JSON.stringify(event));
      }
      const seen = Math.floor(options.events / 10) * 10;
      db.prepare('UPDATE sessions SET state = ? WHERE app_name = ? AND user_id = ? AND id = ?').run(
        pythonJsonDumps(session),
        appName,
        userId,
        sessionId,
      );
      if (seen > 0) {
        db.prepare(
          `INSERT INTO user_states (app_name, user_id, state, update_time) VALUES (?, ?, ?, ?)
           ON CONFLICT(app_name, user_id) DO UPDATE SET state = json_patch(state, excluded.state), update_time = excluded.update_time`,
        ).run(appName, userId, pythonJsonDumps({ seen }), options.start + seen);
      }
    })();
  } finally {
    db.close();
  }
}
