// adk-python's DatabaseSessionService, schema v1 (sessions/schemas/v1.py and
// shared.py at google/adk-python@340e77bd / @ae669b77; the service at
// @0c106140): JSON text (SQLite) or JSONB (PostgreSQL) blobs merged with
// `state | delta`, naive PreciseTimestamp columns (see timestamps.ts),
// `event_data = event.model_dump(exclude_none=True, mode="json")`, and
// `adk_internal_metadata.schema_version = '1'`. The v0 schema (pickled
// actions) is recognised and refused: Statehouse never unpickles.
import type { Event, JsonValue, StateRecord, UnreadableNote } from '../../../session-service/types';
import type { SessionRef } from '../../../session-service/store';
import type { AgentDialect, AgentQuery, Row } from '../agent-db';
import type { AdkFamily, FamilyCodec, FamilyWrites, TierWritten } from '../family';
import type { SpelledJson } from '../../../session-service/json-spelling';
import type { ValueSpellings } from '../../../session-service/value-spelling';
import { insertEventRow, insertSessionRow } from '../base/insert-rows';
import { unionDelta } from '../base/replay';
import { eventFromPython, eventToPython, pythonDeltaSpelling, pythonEventWritten } from '../python/event-json';
import { pythonJsonDumps } from '../python/json-dumps';
import { PYTHON_LAYOUT, PYTHON_TABLES } from '../python/layout';
import { column, hasColumns, type SchemaInfo } from '../schema';
import { noteOf, readObject, UnreadableValueError } from '../base/unreadable';
import {
  describeClock,
  fromWall,
  isKnownZone,
  learnClock,
  sampleOffset,
  UTC_CLOCK,
  type Clock,
  type ClockSample,
  type LearntClock,
} from './clock';
import { decodeTimestamp, naiveCodec, parseTimestamp, type NaiveClocks } from './timestamps';
import { readWriteRules } from './write-rules';

const V0_MESSAGE =
  'This is an adk-python DatabaseSessionService database in the v0 schema (event actions stored as Python pickles). ' +
  'Statehouse never unpickles data. Migrate it to the JSON schema with `adk migrate session --source_db_url <url> --dest_db_url <new url>`, then open the new database.';

/** Events sampled to learn the naive columns' clocks: the newest (today's rule) and the oldest (another season's, often). */
const CLOCK_SAMPLES_NEWEST = 192;
const CLOCK_SAMPLES_OLDEST = 64;

/**
 * DynamicJSON's bind: json.dumps text (TEXT; LONGTEXT on MySQL), except JSONB
 * on PostgreSQL (where the text form is the server's, which keeps `2.0` as
 * json.dumps spelled it for psycopg). `written`: the value's JSON text, so a
 * float stays one (python/json-dumps.ts).
 */
function encodeJson(dialect: AgentDialect, value: JsonValue, written?: SpelledJson): string {
  return dialect === 'postgresql' && written === undefined ? JSON.stringify(value) : pythonJsonDumps(value, written);
}

/** SQLAlchemy's func.now() for onupdate/default columns, rendered per dialect. */
const NOW: Record<AgentDialect, string> = { sqlite: 'CURRENT_TIMESTAMP', postgresql: 'now()', mysql: 'now()' };

function writesFor(dialect: AgentDialect, time: FamilyCodec['time']): FamilyWrites {
  const json = (value: JsonValue, written?: SpelledJson) => encodeJson(dialect, value, written);
  const now = NOW[dialect];
  const saveTier = async (
    q: AgentQuery,
    tier: { scope: 'app' | 'user'; appName: string; userId: string; exists: boolean; written: TierWritten | undefined },
    state: StateRecord,
  ) => {
    const { scope, appName, userId, exists } = tier;
    const blob = json(state, tier.written?.[scope]);
    if (scope === 'app') {
      if (exists) await q.run(`UPDATE app_states SET state = ?, update_time = ${now} WHERE app_name = ?`, [blob, appName]);
      else await q.run(`INSERT INTO app_states (app_name, state, update_time) VALUES (?, ?, ${now})`, [appName, blob]);
    } else if (exists) {
      await q.run(`UPDATE user_states SET state = ?, update_time = ${now} WHERE app_name = ? AND user_id = ?`, [blob, appName, userId]);
    } else {
      await q.run(`INSERT INTO user_states (app_name, user_id, state, update_time) VALUES (?, ?, ?, ${now})`, [appName, userId, blob]);
    }
  };
  // StorageEvent.from_event: the event's JSON, its timestamp on the learnt clock.
  const insertEvent = async (q: AgentQuery, ref: SessionRef, event: Event, deltaSpellings?: ValueSpellings) => {
    await insertEventRow(
      q,
      ref,
      event,
      time.encode(event.timestamp, 'event'),
      json(eventToPython(event), pythonEventWritten(deltaSpellings)),
    );
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
      const { ref, event, delta, written } = write;
      const app = { scope: 'app' as const, appName: ref.appName, userId: '', exists: write.hasAppRow, written };
      const user = { scope: 'user' as const, appName: ref.appName, userId: ref.userId, exists: write.hasUserRow, written };
      if (Object.keys(delta.app).length > 0) await saveTier(q, app, unionDelta({ ...write.app }, delta.app));
      if (Object.keys(delta.user).length > 0) await saveTier(q, user, unionDelta({ ...write.user }, delta.user));
      const session = Object.keys(delta.session).length > 0 ? unionDelta({ ...write.session }, delta.session) : null;
      const update = time.encode(event.timestamp, 'sessionUpdate');
      if (session) {
        await q.run('UPDATE sessions SET state = ?, update_time = ? WHERE app_name = ? AND user_id = ? AND id = ?', [
          json(session, written?.session),
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
      await insertEvent(q, ref, event, write.deltaSpellings);
    },
    insertEvent,
    async editTier(q, write) {
      const exists = write.scope === 'app' ? write.hasAppRow : write.hasUserRow;
      await saveTier(
        q,
        { scope: write.scope, appName: write.appName, userId: write.userId ?? '', exists, written: write.written },
        write.next,
      );
    },
    // create_session: app and user rows made when missing, their deltas merged, the session row with its own state.
    async createSession(q, write) {
      const { ref, delta, written } = write;
      if (!write.hasAppRow || Object.keys(delta.app).length > 0) {
        const app = { scope: 'app' as const, appName: ref.appName, userId: '', exists: write.hasAppRow, written };
        await saveTier(q, app, unionDelta({ ...write.app }, delta.app));
      }
      if (!write.hasUserRow || Object.keys(delta.user).length > 0) {
        const user = { scope: 'user' as const, appName: ref.appName, userId: ref.userId, exists: write.hasUserRow, written };
        await saveTier(q, user, unionDelta({ ...write.user }, delta.user));
      }
      // Both times are create_session's `now` (on MySQL its UTC wall time, whatever the agent's clock).
      const stamp = time.encode(write.now, 'sessionCreate');
      await insertSessionRow(q, ref, json(delta.session, written?.session), stamp);
    },
  };
}

function isZoned(schema: SchemaInfo): boolean {
  return column(schema, 'sessions', 'update_time')?.type === 'timestamp with time zone';
}

/** The float timestamp in an event's JSON, extracted in SQL (a malformed blob gives NULL rather than an error). */
function jsonStampSql(dialect: AgentDialect): string {
  if (dialect === 'sqlite')
    return `CASE WHEN json_valid(event_data) THEN CASE WHEN json_type(event_data, '$.timestamp') IN ('real', 'integer') THEN json_extract(event_data, '$.timestamp') END END`;
  if (dialect === 'mysql')
    return `CASE WHEN JSON_VALID(event_data) THEN CASE WHEN JSON_TYPE(JSON_EXTRACT(event_data, '$.timestamp')) IN ('DOUBLE', 'INTEGER', 'DECIMAL') THEN JSON_EXTRACT(event_data, '$.timestamp') END END`;
  return `CASE WHEN jsonb_typeof(event_data::jsonb) = 'object' AND jsonb_typeof(event_data::jsonb -> 'timestamp') = 'number' THEN (event_data::jsonb ->> 'timestamp')::float8 END`;
}

const keyOf = (row: Row, session = 's') => JSON.stringify([String(row.a), String(row.u), String(row[session])]);
/** A list of row values to test a key against: `VALUES (?, ?), ...`, or on MySQL (whose VALUES needs ROW) `(?, ?), ...`. */
const tuples = (dialect: AgentDialect, count: number, width: number) => {
  const rows = Array.from({ length: count }, () => `(${Array.from({ length: width }, () => '?').join(', ')})`).join(', ');
  return dialect === 'mysql' ? rows : `VALUES ${rows}`;
};

function wallOf(raw: unknown): number | null {
  if (typeof raw !== 'string') return null;
  try {
    const parsed = parseTimestamp(raw);
    return parsed.zoned ? null : parsed.seconds;
  } catch {
    return null;
  }
}

/**
 * Samples of each naive column against the instants they were written for:
 * the newest and oldest events (their column against their JSON's float
 * timestamp) and their sessions' update_time (which the session's last
 * append set to its newest event's timestamp).
 */
async function sampleClocks(q: AgentQuery, dialect: AgentDialect): Promise<{ event: ClockSample[]; sessionUpdate: ClockSample[] }> {
  const pick = (order: 'DESC' | 'ASC', limit: number) =>
    q.all(
      `SELECT app_name AS a, user_id AS u, session_id AS s, id, timestamp AS ts FROM events ORDER BY timestamp ${order} LIMIT ${limit}`,
    );
  const picked = new Map<string, Row>();
  for (const row of [...(await pick('DESC', CLOCK_SAMPLES_NEWEST)), ...(await pick('ASC', CLOCK_SAMPLES_OLDEST))]) {
    picked.set(JSON.stringify([row.a, row.u, row.s, row.id]), row);
  }
  if (picked.size === 0) return { event: [], sessionUpdate: [] };
  const rows = [...picked.values()];
  const stamped = await q.all(
    `SELECT app_name AS a, user_id AS u, session_id AS s, id, ${jsonStampSql(dialect)} AS stamp FROM events
     WHERE (app_name, user_id, session_id, id) IN (${tuples(dialect, rows.length, 4)})`,
    rows.flatMap((row) => [String(row.a), String(row.u), String(row.s), String(row.id)]),
  );
  const stampOf = new Map(stamped.map((row) => [JSON.stringify([row.a, row.u, row.s, row.id]), Number(row.stamp ?? Number.NaN)]));
  const event: ClockSample[] = [];
  const newestBySession = new Map<string, { wall: number; instant: number }>();
  for (const row of rows) {
    const wall = wallOf(row.ts);
    const instant = stampOf.get(JSON.stringify([row.a, row.u, row.s, row.id])) ?? Number.NaN;
    if (wall === null || !Number.isFinite(instant)) continue;
    event.push({ wall, instant });
    const key = keyOf(row);
    const seen = newestBySession.get(key);
    if (!seen || seen.wall < wall || (seen.wall === wall && seen.instant < instant)) newestBySession.set(key, { wall, instant });
  }
  const sessions = [...newestBySession.keys()].map((key) => JSON.parse(key) as [string, string, string]);
  const sessionUpdate: ClockSample[] = [];
  if (sessions.length > 0) {
    const updated = await q.all(
      `SELECT app_name AS a, user_id AS u, id AS s, update_time AS t FROM sessions WHERE (app_name, user_id, id) IN (${tuples(dialect, sessions.length, 3)})`,
      sessions.flat(),
    );
    for (const row of updated) {
      const wall = wallOf(row.t);
      const newest = newestBySession.get(keyOf(row));
      if (wall !== null && newest) sessionUpdate.push({ wall, instant: newest.instant });
    }
  }
  return { event, sessionUpdate };
}

/** The server's own clock, which `now()` fills app_states and user_states.update_time with (PostgreSQL's TimeZone; MySQL's time_zone). */
async function serverClock(q: AgentQuery, dialect: AgentDialect): Promise<Clock> {
  if (dialect === 'mysql') {
    // time_zone is SYSTEM (the server machine's zone, by an abbreviation) or an offset or name; NOW() minus UTC_TIMESTAMP() is its offset now.
    const row = (await q.all(`SELECT @@SESSION.time_zone AS zone, TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(), NOW()) AS "offset"`))[0];
    const zone = String(row?.zone ?? 'SYSTEM');
    return isKnownZone(zone) ? { kind: 'zone', zone } : { kind: 'fixed', offset: Math.round(Number(row?.offset ?? 0) / 60) * 60 };
  }
  const row = (await q.all(`SELECT current_setting('TimeZone') AS zone, EXTRACT(TIMEZONE FROM now()) AS offset`))[0];
  const zone = String(row?.zone ?? 'UTC');
  return isKnownZone(zone) ? { kind: 'zone', zone } : { kind: 'fixed', offset: Number(row?.offset ?? 0) };
}

/** This process's zone: the agent's machine often shares it. */
function processZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * The clocks of the naive columns, learnt from many rows (clock.ts): an
 * odd row votes once and is outvoted. With nothing to learn from, the
 * operator's zone (the store's `zone` option), else this machine's, for
 * local columns; UTC where adk-python writes UTC.
 */
async function learnClocks(
  q: AgentQuery,
  schema: SchemaInfo,
  zone: string | undefined,
): Promise<{ clocks: NaiveClocks; description: string }> {
  const preferred = [...(zone ? [zone] : []), processZone(), 'UTC'];
  const local: Clock = { kind: 'zone', zone: zone ?? processZone() };
  const tierUpdate = schema.dialect === 'sqlite' ? UTC_CLOCK : await serverClock(q, schema.dialect);
  if (isZoned(schema)) {
    return { clocks: { event: UTC_CLOCK, sessionUpdate: UTC_CLOCK, tierUpdate }, description: 'TIMESTAMPTZ' };
  }
  const samples = await sampleClocks(q, schema.dialect);
  const event = learnClock(samples.event, preferred);
  const sessionUpdate = learnClock(samples.sessionUpdate, preferred);
  const clocks: NaiveClocks = {
    event: event?.clock ?? local,
    sessionUpdate: sessionUpdate?.clock ?? (schema.dialect === 'sqlite' ? UTC_CLOCK : (event?.clock ?? local)),
    tierUpdate,
    // create_session stores `datetime.now(timezone.utc)`; MySQL keeps its UTC wall time, whichever version wrote it (adk-python#5085).
    ...(schema.dialect === 'mysql' ? { sessionCreate: UTC_CLOCK } : {}),
  };
  const how = (learnt: LearntClock | null, clock: Clock) => learnt?.how ?? `${describeClock(clock)}, assumed (no rows to learn from)`;
  return {
    clocks,
    description: `naive timestamps: events ${how(event, clocks.event)}; sessions.update_time ${how(sessionUpdate, clocks.sessionUpdate)}`,
  };
}

/**
 * An event's instant. Its JSON carries the float timestamp append_event
 * was given; when the column holds that instant on some clock, the column
 * is exact to the microsecond on it and decides. Otherwise (no JSON
 * timestamp, or a column that disagrees with it) the column is read by its
 * clock's rule at that instant, as adk-python's `naive.timestamp()` does.
 */
function eventInstant(raw: unknown, stamp: JsonValue | undefined, clock: Clock): number {
  if (typeof raw === 'string' && typeof stamp === 'number' && Number.isFinite(stamp)) {
    const parsed = parseTimestamp(raw);
    if (parsed.zoned) return parsed.seconds;
    const offset = sampleOffset({ wall: parsed.seconds, instant: stamp });
    if (offset === null) return fromWall(clock, parsed.seconds);
    // A whole-second column kept less than the JSON says; a µs column is exact.
    return Number.isInteger(parsed.seconds) ? stamp : parsed.seconds - offset;
  }
  return decodeTimestamp(raw, clock);
}

/** Where a v1 store is, for its description: the engine and how DynamicJSON is stored there. */
const WHERE: Record<AgentDialect, (stateType: string) => string> = {
  sqlite: () => 'SQLite, JSON text',
  postgresql: (type) => `PostgreSQL, ${type}`,
  mysql: (type) => `MySQL/MariaDB, JSON as ${type}`,
};

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
    const where = WHERE[schema.dialect](column(schema, 'sessions', 'state')?.type ?? 'json');
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
  async open(q, schema, _match, options) {
    const { clocks, description } = await learnClocks(q, schema, options.zone);
    const rules = await readWriteRules(q, schema);
    const time = naiveCodec(clocks, isZoned(schema));
    const codec: FamilyCodec = {
      layout: PYTHON_LAYOUT,
      time,
      clockDescription: rules.description ? `${rules.description}; ${description}` : description,
      ...(rules.readOnlyReason ? { readOnlyReason: rules.readOnlyReason } : {}),
      decodeState: (raw) => readObject(raw, 'state'),
      decodeEvent(row): Event {
        // StorageEvent.to_event: the JSON, with id, invocation_id and timestamp from their columns.
        const fields = readObject(row.event_data, 'event_data');
        let timestamp: number;
        let note: UnreadableNote | undefined;
        try {
          timestamp = eventInstant(row.timestamp, fields.timestamp, clocks.event);
        } catch (error) {
          // adk-python cannot load this session at all (SQLAlchemy refuses the column); the JSON still says when it was.
          if (typeof fields.timestamp !== 'number') throw new UnreadableValueError('timestamp', row.timestamp, 'not a datetime');
          timestamp = fields.timestamp;
          note = noteOf(error, 'timestamp', row.timestamp);
        }
        const event = eventFromPython({ ...fields, id: String(row.id), invocation_id: String(row.invocation_id ?? ''), timestamp });
        return note ? { ...event, unreadable: [note] } : event;
      },
      deltaSpelling: (row) => pythonDeltaSpelling(row.event_data),
      applyDelta: unionDelta,
      // The session's _storage_update_marker is its update_time when loaded: any other value in storage is stale.
      isStale: (stored, loaded) => stored !== loaded,
      writes: writesFor(schema.dialect, time),
      // On MySQL create_session stores its UTC wall time in both columns while appends store the agent's local time:
      // a row whose two columns are equal is one no append has touched, so its update_time is on the UTC clock.
      ...(schema.dialect === 'mysql' && !isZoned(schema)
        ? {
            sessionUpdateRead: (update: string, create: string) =>
              `CASE WHEN ${update} = ${create} THEN CONCAT(${update}, 'Z') ELSE ${update} END`,
          }
        : {}),
    };
    return codec;
  },
};
