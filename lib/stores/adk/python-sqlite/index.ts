// adk-python's SqliteSessionService (sessions/sqlite_session_service.py,
// since v1.19.0; read at google/adk-python@04c135ff and @dbb2f20): what
// `adk web` and `adk api_server` keep in .adk/session.db. REAL epoch seconds
// everywhere, state blobs as json.dumps text merged by the release's rule
// (./merge.ts), events as `event.model_dump_json(exclude_none=True)`.
import type { SessionRef } from '../../../session-service/store';
import type { Event, JsonValue, StateRecord } from '../../../session-service/types';
import type { AgentQuery } from '../agent-db';
import type { AdkFamily, FamilyCodec, FamilyWrites } from '../family';
import { insertEventRow, insertSessionRow } from '../base/insert-rows';
import { readObject, UnreadableValueError } from '../base/unreadable';
import { eventFromPython, eventToPython, pythonDeltaSpelling, pythonEventWritten } from '../python/event-json';
import type { ValueSpellings } from '../../../session-service/value-spelling';
import { compactJson, pythonJsonDumps } from '../python/json-dumps';
import { PYTHON_LAYOUT, PYTHON_TABLES } from '../python/layout';
import { column, hasColumns } from '../schema';
import { applyMerge, mergeSql, withoutKeysSql, type SqliteMergeRule } from './merge';

/** REAL seconds; SQLite keeps any text a column is given, which is no time at all. */
function seconds(raw: unknown): number {
  if (typeof raw !== 'number') throw new UnreadableValueError('update_time', raw, 'not a number of seconds');
  return raw;
}

/** _upsert_app_state / _upsert_user_state / _update_session_state_in_db, merging by the agent's rule. */
function statements(rule: SqliteMergeRule) {
  return {
    upsertApp: `INSERT INTO app_states (app_name, state, update_time) VALUES (?, ?, ?)
  ON CONFLICT(app_name) DO UPDATE SET state=${mergeSql(rule, 'state', 'excluded.state')}, update_time=excluded.update_time`,
    upsertUser: `INSERT INTO user_states (app_name, user_id, state, update_time) VALUES (?, ?, ?, ?)
  ON CONFLICT(app_name, user_id) DO UPDATE SET state=${mergeSql(rule, 'state', 'excluded.state')}, update_time=excluded.update_time`,
    patchSession: `UPDATE sessions SET state=${mergeSql(rule, 'state', '?')}, update_time=? WHERE app_name=? AND user_id=? AND id=?`,
    // The newer statement reads the delta twice (its json_each appears twice), so it is bound twice, as upstream binds it.
    sessionDelta: (delta: string): string[] => (rule === 'update' ? [delta, delta] : [delta]),
    withoutApp: `UPDATE app_states SET state=${withoutKeysSql('state', '?')} WHERE app_name=?`,
    withoutUser: `UPDATE user_states SET state=${withoutKeysSql('state', '?')} WHERE app_name=? AND user_id=?`,
  };
}
const TOUCH_SESSION = 'UPDATE sessions SET update_time=? WHERE app_name=? AND user_id=? AND id=?';

const nonEmpty = (record: StateRecord) => Object.keys(record).length > 0;

/** append_event's event row: `event.model_dump_json(exclude_none=True)`, its timestamp as REAL seconds. */
async function insertEvent(q: AgentQuery, ref: SessionRef, event: Event, deltaSpellings?: ValueSpellings): Promise<void> {
  await insertEventRow(q, ref, event, event.timestamp, compactJson(eventToPython(event), pythonEventWritten(deltaSpellings)));
}

function writesFor(rule: SqliteMergeRule): FamilyWrites {
  const sql = statements(rule);
  return {
    // SQLite only: the file lock is the one lock; the rows in the order append_event writes them.
    lockedRows: (delta) => [
      ...(nonEmpty(delta.app) ? (['app'] as const) : []),
      ...(nonEmpty(delta.user) ? (['user'] as const) : []),
      'session',
    ],
    // append_event: the tiers' upserts, the event row, and update_time = the event's timestamp.
    async append(q: AgentQuery, write) {
      const { ref, event, delta, written } = write;
      const ts = event.timestamp;
      if (nonEmpty(delta.app)) await q.run(sql.upsertApp, [ref.appName, pythonJsonDumps(delta.app, written?.app), ts]);
      if (nonEmpty(delta.user)) await q.run(sql.upsertUser, [ref.appName, ref.userId, pythonJsonDumps(delta.user, written?.user), ts]);
      if (nonEmpty(delta.session)) {
        const session = pythonJsonDumps(delta.session, written?.session);
        await q.run(sql.patchSession, [...sql.sessionDelta(session), ts, ref.appName, ref.userId, ref.sessionId]);
      }
      await insertEvent(q, ref, event, write.deltaSpellings);
      if (!nonEmpty(delta.session)) await q.run(TOUCH_SESSION, [ts, ref.appName, ref.userId, ref.sessionId]);
    },
    insertEvent,
    // create_session (the same at dbb2f201 and 04c135ff): the tiers' upserts for a shared delta, then the
    // session row with json.dumps(session_state) and create_time = update_time = platform_time.get_time().
    async createSession(q: AgentQuery, write) {
      const { ref, delta, now, written } = write;
      if (nonEmpty(delta.app)) await q.run(sql.upsertApp, [ref.appName, pythonJsonDumps(delta.app, written?.app), now]);
      if (nonEmpty(delta.user)) await q.run(sql.upsertUser, [ref.appName, ref.userId, pythonJsonDumps(delta.user, written?.user), now]);
      await insertSessionRow(q, ref, pythonJsonDumps(delta.session, written?.session), now);
    },
    // The same upsert an append's delta makes for that tier. Under json_patch a key patched with null is removed;
    // dict.update() stores a null, so a removed key is then taken out of the merged row (no ADK call removes one).
    async editTier(q: AgentQuery, write) {
      const before = write.scope === 'app' ? write.app : write.user;
      const removed = Object.keys(before).filter((key) => !Object.hasOwn(write.next, key));
      const patch: Record<string, JsonValue> = {};
      if (rule === 'json_patch') for (const key of removed) patch[key] = null;
      const edited = new Set(write.edited);
      for (const [key, value] of Object.entries(write.next)) {
        if (edited.has(key) || JSON.stringify(before[key]) !== JSON.stringify(value)) patch[key] = value;
      }
      const userId = write.userId ?? '';
      if (Object.keys(patch).length > 0) {
        const blob = pythonJsonDumps(patch, write.written?.[write.scope]);
        if (write.scope === 'app') await q.run(sql.upsertApp, [write.appName, blob, write.now]);
        else await q.run(sql.upsertUser, [write.appName, userId, blob, write.now]);
      }
      if (rule === 'update' && removed.length > 0) {
        if (write.scope === 'app') await q.run(sql.withoutApp, [JSON.stringify(removed), write.appName]);
        else await q.run(sql.withoutUser, [JSON.stringify(removed), write.appName, userId]);
      }
    },
  };
}

function codecFor(rule: SqliteMergeRule): FamilyCodec {
  return {
    layout: PYTHON_LAYOUT,
    time: { decode: seconds, encode: (value) => value },
    decodeState: (raw) => readObject(raw, 'state'),
    decodeEvent(row): Event {
      // get_session: Event.model_validate_json(event_data); the columns repeat what the JSON holds.
      return eventFromPython(readObject(row.event_data, 'event_data'));
    },
    deltaSpelling: (row) => pythonDeltaSpelling(row.event_data),
    applyDelta: applyMerge(rule),
    // append_event: "if storage_update_time > session.last_update_time: raise ValueError(...stale session)".
    isStale: (stored, loaded) => stored > loaded,
    writes: writesFor(rule),
    mergeDescription:
      rule === 'update'
        ? 'deltas merged as dict.update() (adk-python 2.8.0 and later; ?merge=json_patch for older agents)'
        : 'deltas merged with json_patch (adk-python before 2.8.0, as ?merge=json_patch asks)',
  };
}

export const pythonSqliteFamily: AdkFamily = {
  id: 'adk-python-sqlite',
  label: 'adk-python SqliteSessionService',
  detect(schema) {
    if (schema.dialect !== 'sqlite' || schema.metadata !== null) return null;
    if (!PYTHON_TABLES.every((table) => schema.tables.has(table))) return null;
    const update = column(schema, 'sessions', 'update_time');
    if (update?.type !== 'real') return null;
    if (!hasColumns(schema, 'events', ['event_data'])) {
      return {
        version: 'pre-1.19',
        description: 'adk-python SQLite database in an old schema (events without event_data)',
        cannotRead:
          'This looks like an adk-python session database in the schema before SqliteSessionService (events have no event_data column). ' +
          'Migrate it with `python -m google.adk.sessions.migration.migrate_from_sqlalchemy_sqlite --source_db_path <db> --dest_db_path <db>.new`, then open the new file.',
      };
    }
    return {
      version: 'sqlite',
      description: 'adk-python SqliteSessionService: REAL epoch seconds, event_data as pydantic JSON',
    };
  },
  async open(_q, _schema, _match, options) {
    return codecFor(options.stateMerge ?? 'update');
  },
};
