// adk-python's DatabaseSessionService, schema v1 (sessions/schemas/v1.py and
// shared.py at google/adk-python@340e77bd / @ae669b77; the service at
// @0c106140): JSON text (SQLite) or JSONB (PostgreSQL) blobs merged with
// `state | delta`, naive PreciseTimestamp columns (see timestamps.ts),
// `event_data = event.model_dump(exclude_none=True, mode="json")`, and
// `adk_internal_metadata.schema_version = '1'`. The v0 schema (pickled
// actions) is recognised and refused: Statehouse never unpickles.
import { decodeJson } from '../../../session-service/json';
import type { Event, JsonValue, StateRecord } from '../../../session-service/types';
import type { AgentDialect, AgentQuery } from '../agent-db';
import type { AdkFamily, FamilyCodec, FamilyWrites } from '../family';
import { unionDelta } from '../base/replay';
import { eventFromPython, eventToPython } from '../python/event-json';
import { pythonJsonDumps } from '../python/json-dumps';
import { PYTHON_LAYOUT, PYTHON_TABLES } from '../python/layout';
import { column, hasColumns, type SchemaInfo } from '../schema';
import { localOffset, naiveCodec, parseTimestamp, roundOffset, type NaiveOffsets } from './timestamps';

const V0_MESSAGE =
  'This is an adk-python DatabaseSessionService database in the v0 schema (event actions stored as Python pickles). ' +
  'Statehouse never unpickles data. Migrate it to the JSON schema with `adk migrate session --source_db_url <url> --dest_db_url <new url>`, then open the new database.';

function jsonValue(raw: unknown): JsonValue {
  if (raw === null || raw === undefined) return null;
  return typeof raw === 'string' ? decodeJson(raw) : (raw as JsonValue);
}

function decodeState(raw: unknown): StateRecord {
  const value = jsonValue(raw);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

/** DynamicJSON's bind: json.dumps text, except JSONB on PostgreSQL (where the text form is the server's). */
function encodeJson(dialect: AgentDialect, value: JsonValue): string {
  return dialect === 'postgresql' ? JSON.stringify(value) : pythonJsonDumps(value);
}

/** SQLAlchemy's func.now() for onupdate/default columns, rendered per dialect. */
const NOW: Record<AgentDialect, string> = { sqlite: 'CURRENT_TIMESTAMP', postgresql: 'now()' };

function writesFor(dialect: AgentDialect, time: FamilyCodec['time']): FamilyWrites {
  const json = (value: JsonValue) => encodeJson(dialect, value);
  const now = NOW[dialect];
  const saveTier = async (q: AgentQuery, scope: 'app' | 'user', appName: string, userId: string, exists: boolean, state: StateRecord) => {
    if (scope === 'app') {
      if (exists) await q.run(`UPDATE app_states SET state = ?, update_time = ${now} WHERE app_name = ?`, [json(state), appName]);
      else await q.run(`INSERT INTO app_states (app_name, state, update_time) VALUES (?, ?, ${now})`, [appName, json(state)]);
    } else if (exists) {
      await q.run(`UPDATE user_states SET state = ?, update_time = ${now} WHERE app_name = ? AND user_id = ?`, [
        json(state),
        appName,
        userId,
      ]);
    } else {
      await q.run(`INSERT INTO user_states (app_name, user_id, state, update_time) VALUES (?, ?, ?, ${now})`, [
        appName,
        userId,
        json(state),
      ]);
    }
  };
  return {
    // The newer append_event locks the session row, then the app row and the user row when their delta is not empty
    // (`with_for_update()`, `_select_required_state`); the older one (0c106140) locks nothing before its flush.
    lockedRows: (delta) => [
      'session',
      ...(Object.keys(delta.app).length > 0 ? (['app'] as const) : []),
      ...(Object.keys(delta.user).length > 0 ? (['user'] as const) : []),
    ],
    // append_event: `state | delta` per tier, update_time = the event's timestamp, and the event row (StorageEvent.from_event).
    async append(q, write) {
      const { ref, event, delta } = write;
      if (Object.keys(delta.app).length > 0)
        await saveTier(q, 'app', ref.appName, '', write.hasAppRow, unionDelta({ ...write.app }, delta.app));
      if (Object.keys(delta.user).length > 0) {
        await saveTier(q, 'user', ref.appName, ref.userId, write.hasUserRow, unionDelta({ ...write.user }, delta.user));
      }
      const session = Object.keys(delta.session).length > 0 ? unionDelta({ ...write.session }, delta.session) : null;
      const update = time.encode(event.timestamp, 'sessionUpdate');
      if (session) {
        await q.run('UPDATE sessions SET state = ?, update_time = ? WHERE app_name = ? AND user_id = ? AND id = ?', [
          json(session),
          update,
          ref.appName,
          ref.userId,
          ref.sessionId,
        ]);
      } else {
        await q.run('UPDATE sessions SET update_time = ? WHERE app_name = ? AND user_id = ? AND id = ?', [
          update,
          ref.appName,
          ref.userId,
          ref.sessionId,
        ]);
      }
      await q.run(
        'INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp, event_data) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [
          event.id,
          ref.appName,
          ref.userId,
          ref.sessionId,
          event.invocationId,
          time.encode(event.timestamp, 'event'),
          json(eventToPython(event)),
        ],
      );
    },
    async editTier(q, write) {
      const exists = write.scope === 'app' ? write.hasAppRow : write.hasUserRow;
      await saveTier(q, write.scope, write.appName, write.userId ?? '', exists, write.next);
    },
    // create_session: app and user rows made when missing, their deltas merged, the session row with its own state.
    async createSession(q, write) {
      const { ref, delta } = write;
      if (!write.hasAppRow || Object.keys(delta.app).length > 0) {
        await saveTier(q, 'app', ref.appName, '', write.hasAppRow, unionDelta({ ...write.app }, delta.app));
      }
      if (!write.hasUserRow || Object.keys(delta.user).length > 0) {
        await saveTier(q, 'user', ref.appName, ref.userId, write.hasUserRow, unionDelta({ ...write.user }, delta.user));
      }
      const stamp = time.encode(write.now, 'sessionUpdate');
      await q.run('INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)', [
        ref.appName,
        ref.userId,
        ref.sessionId,
        json(delta.session),
        stamp,
        stamp,
      ]);
    },
  };
}

function isZoned(schema: SchemaInfo): boolean {
  return column(schema, 'sessions', 'update_time')?.type === 'timestamp with time zone';
}

/**
 * Learns the clocks of naive columns from the newest event: its column
 * against the float timestamp in its JSON, and its session's update_time
 * (which the last append set to that same timestamp).
 */
async function learnOffsets(q: AgentQuery, schema: SchemaInfo): Promise<NaiveOffsets> {
  const fallback: NaiveOffsets =
    schema.dialect === 'sqlite'
      ? { event: localOffset(Date.now() / 1000), sessionUpdate: 0, tierUpdate: 0 }
      : { event: localOffset(Date.now() / 1000), sessionUpdate: localOffset(Date.now() / 1000), tierUpdate: 0 };
  if (schema.dialect === 'postgresql') {
    const row = (await q.all('SELECT EXTRACT(TIMEZONE FROM now()) AS tz'))[0];
    fallback.tierUpdate = Number(row?.tz ?? 0);
  }
  const newest = (
    await q.all(
      `SELECT e.timestamp AS ts, e.event_data AS data, s.update_time AS updated,
         (SELECT max(x.timestamp) FROM events x WHERE x.app_name = e.app_name AND x.user_id = e.user_id AND x.session_id = e.session_id) AS last
       FROM events e JOIN sessions s ON s.app_name = e.app_name AND s.user_id = e.user_id AND s.id = e.session_id
       ORDER BY e.timestamp DESC LIMIT 1`,
    )
  )[0];
  if (!newest) return fallback;
  const data = jsonValue(newest.data);
  const stamp = data !== null && typeof data === 'object' && !Array.isArray(data) ? data.timestamp : undefined;
  if (typeof stamp !== 'number') return fallback;
  const offsets = { ...fallback };
  const eventText = String(newest.ts);
  const event = parseTimestamp(eventText);
  if (!event.zoned) offsets.event = roundOffset(event.seconds - stamp);
  const updated = parseTimestamp(String(newest.updated));
  if (!updated.zoned && String(newest.last) === eventText) offsets.sessionUpdate = roundOffset(updated.seconds - stamp);
  return offsets;
}

export const pythonDbFamily: AdkFamily = {
  id: 'adk-python-db',
  label: 'adk-python DatabaseSessionService',
  detect(schema) {
    if (!PYTHON_TABLES.every((table) => schema.tables.has(table))) return null;
    // SQLAlchemy's VARCHAR(128) keys tell it from adk-js's MikroORM tables (text / varchar(191)), which share the names.
    if (column(schema, 'sessions', 'id')?.maxLength !== 128) return null;
    const version = schema.metadata?.get('schema_version');
    if (hasColumns(schema, 'events', ['actions']) && !hasColumns(schema, 'events', ['event_data'])) {
      return { version: '0', description: 'adk-python DatabaseSessionService schema v0 (pickled actions)', cannotRead: V0_MESSAGE };
    }
    if (!hasColumns(schema, 'events', ['event_data'])) return null;
    const where = schema.dialect === 'sqlite' ? 'SQLite, JSON text' : `PostgreSQL, ${column(schema, 'sessions', 'state')?.type ?? 'json'}`;
    const clock = isZoned(schema) ? 'TIMESTAMPTZ' : 'naive timestamps';
    if (version !== '1') {
      return {
        version: version ?? 'none',
        description: `adk-python DatabaseSessionService tables (${where}, ${clock}) with schema_version ${JSON.stringify(version ?? null)}`,
        readOnlyReason: `adk_internal_metadata says schema_version ${JSON.stringify(version ?? null)}; Statehouse writes version "1" only.`,
      };
    }
    return { version: '1', description: `adk-python DatabaseSessionService schema v1 (${where}, ${clock})` };
  },
  async open(q, schema) {
    const offsets = await learnOffsets(q, schema);
    const time = naiveCodec(offsets, isZoned(schema));
    const codec: FamilyCodec = {
      layout: PYTHON_LAYOUT,
      time,
      decodeState,
      decodeEvent(row): Event {
        // StorageEvent.to_event: the JSON, with id, invocation_id and timestamp from their columns.
        const data = jsonValue(row.event_data);
        const fields = data !== null && typeof data === 'object' && !Array.isArray(data) ? data : {};
        return eventFromPython({
          ...fields,
          id: String(row.id),
          invocation_id: String(row.invocation_id ?? ''),
          timestamp: time.decode(row.timestamp, 'event'),
        });
      },
      applyDelta: unionDelta,
      // The session's _storage_update_marker is its update_time when loaded: any other value in storage is stale.
      isStale: (stored, loaded) => stored !== loaded,
      writes: writesFor(schema.dialect, time),
    };
    return codec;
  },
};
