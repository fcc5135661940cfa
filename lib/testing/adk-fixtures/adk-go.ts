// Writes a database as adk-go's session/database service does (Go cannot run
// here), reproduced from google/adk-go@0a51e153: the tables GORM's
// AutoMigrate makes for storage_session.go's structs (column types from
// gorm_datatypes.go and GORM's sqlite/postgres/mysql dialectors: string keys
// text / varchar(191), stateMap and dynamicJSON text / JSONB / LONGTEXT,
// []byte blob / bytea / longblob, *bool numeric / boolean, time.Time with
// precision 6 datetime / timestamptz(6) / datetime(6)), and the rows
// service.go's Create and AppendEvent write: the session with create_time =
// update_time = time.Now(); per event the tiers its delta changes (GORM's
// Save inserting a missing row with Go's zero time), the event (json.Marshal
// of each field), and the session's merged state with update_time = the
// event's timestamp (truncated to µs). Times on SQLite are
// `time.Time.String()` in the agent's zone (glebarez/go-sqlite's default),
// create times with their monotonic `m=+...` suffix; MySQL's are UTC walls.
import type { JsonObject } from '../../session-service/types';
import { openFixtureDb, type FixtureDb, type FixtureTarget } from './fixture-db';
import { extractStateDelta } from './python-sqlite';
import type { ScenarioEvent, ScenarioSession } from './scenario';

export interface AdkGoOptions {
  /** The agent machine's zone on SQLite (Go prints times in it): offset in hours and the abbreviation. */
  zone?: { offsetHours: number; name: string };
}

type Dialect = FixtureDb['dialect'];

function ddl(dialect: Dialect): string[] {
  const q = (name: string) => (dialect === 'postgresql' ? `"${name}"` : `\`${name}\``);
  const key = dialect === 'mysql' ? 'varchar(191)' : 'text';
  const str = dialect === 'mysql' ? 'longtext' : 'text';
  const json = dialect === 'postgresql' ? 'JSONB' : dialect === 'mysql' ? 'LONGTEXT' : 'text';
  const time = dialect === 'postgresql' ? 'timestamptz(6)' : dialect === 'mysql' ? 'datetime(6) NULL' : 'datetime';
  const bytes = dialect === 'postgresql' ? 'bytea' : dialect === 'mysql' ? 'longblob' : 'blob';
  const bool = dialect === 'sqlite' ? 'numeric' : 'boolean';
  const cols = (list: [string, string][]) => list.map(([name, type]) => `${q(name)} ${type}`).join(',');
  const pk = (...names: string[]) => `PRIMARY KEY (${names.map(q).join(',')})`;
  return [
    `CREATE TABLE ${q('sessions')} (${cols([
      ['app_name', key],
      ['user_id', key],
      ['id', key],
      ['state', json],
      ['create_time', time],
      ['update_time', time],
    ])},${pk('app_name', 'user_id', 'id')})`,
    `CREATE TABLE ${q('events')} (${cols([
      ['id', key],
      ['app_name', key],
      ['user_id', key],
      ['session_id', key],
      ['invocation_id', str],
      ['author', str],
      ['actions', bytes],
      ['long_running_tool_ids_json', json],
      ['routes_json', json],
      ['output_json', json],
      ['node_info_json', json],
      ['requested_input_json', json],
      ['branch', str],
      ['isolation_scope', str],
      ['timestamp', time],
      ['content', json],
      ['grounding_metadata', json],
      ['custom_metadata', json],
      ['usage_metadata', json],
      ['citation_metadata', json],
      ['partial', bool],
      ['turn_complete', bool],
      ['error_code', str],
      ['error_message', str],
      ['interrupted', bool],
    ])},${pk('id', 'app_name', 'user_id', 'session_id')},CONSTRAINT ${q('fk_sessions_events')} FOREIGN KEY (${['app_name', 'user_id', 'session_id'].map(q).join(',')}) REFERENCES ${q('sessions')}(${['app_name', 'user_id', 'id'].map(q).join(',')}) ON DELETE CASCADE)`,
    `CREATE TABLE ${q('app_states')} (${cols([
      ['app_name', key],
      ['state', json],
      ['update_time', time],
    ])},${pk('app_name')})`,
    `CREATE TABLE ${q('user_states')} (${cols([
      ['app_name', key],
      ['user_id', key],
      ['state', json],
      ['update_time', time],
    ])},${pk('app_name', 'user_id')})`,
  ];
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Go's time formatting of these seconds: `String()` in a zone (SQLite), RFC 3339-ish UTC (PostgreSQL), UTC wall (MySQL). */
function goTime(dialect: Dialect, seconds: number, zone: { offsetHours: number; name: string }, monotonic = false): string {
  const offset = dialect === 'sqlite' ? zone.offsetHours * 3600 : 0;
  const micros = Math.round((seconds + offset) * 1e6);
  const whole = Math.floor(micros / 1e6);
  const d = new Date(whole * 1000);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const frac = micros - whole * 1e6;
  if (dialect === 'sqlite') {
    // time.Now() keeps nanoseconds; Truncate(time.Microsecond) (events) does not.
    const digits = monotonic ? `${pad(frac, 6)}789` : pad(frac, 6);
    const fraction = /^0+$/.test(digits) ? '' : `.${digits.replace(/0+$/, '')}`;
    const h = Math.abs(zone.offsetHours);
    const sign = zone.offsetHours < 0 ? '-' : '+';
    return `${date}${fraction} ${sign}${pad(Math.floor(h))}${pad((h % 1) * 60)} ${zone.name}${monotonic ? ' m=+0.012345678' : ''}`;
  }
  return dialect === 'postgresql' ? `${date}.${pad(frac, 6)}+00` : `${date}.${pad(frac, 6)}`;
}

/** Go's zero time.Time as each driver stores it. */
const ZERO: Record<Dialect, string> = {
  sqlite: '0001-01-01 00:00:00 +0000 UTC',
  postgresql: '0001-01-01 00:00:00+00',
  mysql: '0000-00-00 00:00:00',
};

/** json.Marshal: map keys sorted, `<>&` escaped; struct fields in declaration order (given). */
function marshal(value: unknown, order: string[] = []): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string')
    return JSON.stringify(value).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => marshal(item)).join(',')}]`;
  const keys = Object.keys(value).sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return ia !== -1 || ib !== -1 ? (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib) : a < b ? -1 : a > b ? 1 : 0;
  });
  return `{${keys.map((key) => `${marshal(key)}:${marshal((value as Record<string, unknown>)[key])}`).join(',')}}`;
}

/** genai's JSON names are camelCase; the maps inside a call's args or a response are data. */
function genaiJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(genaiJson);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()),
      key === 'args' || key === 'response' ? item : genaiJson(item),
    ]),
  );
}

/** createStorageEvent's columns for one scenario event (adk-python's dump form turned into Go's Event). */
function eventColumns(event: ScenarioEvent): Record<string, string | number | null> {
  const content = event.content === undefined ? null : marshal(genaiJson(event.content), ['parts', 'role']);
  const custom = event.custom_metadata as JsonObject | undefined;
  return {
    invocation_id: event.invocation_id,
    author: event.author,
    actions: marshal({ stateDelta: event.actions.state_delta, artifactDelta: {} }, ['stateDelta', 'artifactDelta']),
    long_running_tool_ids_json: null,
    branch: typeof event.branch === 'string' && event.branch !== '' ? event.branch : null,
    content,
    custom_metadata: custom && Object.keys(custom).length > 0 ? marshal(custom) : null,
    usage_metadata: event.usage_metadata === undefined ? null : marshal(genaiJson(event.usage_metadata)),
    partial: event.partial === true ? 1 : 0,
    turn_complete: event.turn_complete === true ? 1 : 0,
    interrupted: event.interrupted === true ? 1 : 0,
  };
}

export async function writeAdkGoScenario(
  target: FixtureTarget,
  appName: string,
  sessions: ScenarioSession[],
  options: AdkGoOptions = {},
): Promise<void> {
  const db = await openFixtureDb(target);
  const zone = options.zone ?? { offsetHours: 1, name: 'CET' };
  const dialect = db.dialect;
  const bytes = dialect === 'postgresql' ? "convert_to(?, 'UTF8')" : dialect === 'mysql' ? 'CAST(? AS BINARY)' : 'CAST(? AS BLOB)';
  const parse = (raw: unknown) => (typeof raw === 'string' ? JSON.parse(raw) : raw) as JsonObject;
  try {
    for (const statement of ddl(dialect)) await db.run(statement);
    // tx.Save: UPDATE every column by the primary key, and when no row matched, INSERT (a new row's update_time is Go's zero time).
    const saveTier = async (table: 'app_states' | 'user_states', userId: string | null, delta: JsonObject) => {
      const where = userId === null ? 'app_name = ?' : 'app_name = ? AND user_id = ?';
      const keys = userId === null ? [appName] : [appName, userId];
      const row = await db.one(`SELECT state FROM ${table} WHERE ${where}`, keys);
      if (row) {
        await db.run(`UPDATE ${table} SET state = ? WHERE ${where}`, [marshal({ ...parse(row.state), ...delta }), ...keys]);
        return;
      }
      const columns = userId === null ? 'app_name, state, update_time' : 'app_name, user_id, state, update_time';
      await db.run(`INSERT INTO ${table} (${columns}) VALUES (${keys.map(() => '?').join(', ')}, ?, ?)`, [
        ...keys,
        marshal(delta),
        ZERO[dialect],
      ]);
    };
    for (const session of sessions) {
      const created = goTime(dialect, session.created, zone, true);
      await db.run('INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)', [
        appName,
        session.userId,
        session.sessionId,
        '{}',
        created,
        created,
      ]);
      let state: JsonObject = {};
      for (const event of session.events) {
        const deltas = extractStateDelta(event.actions.state_delta);
        if (Object.keys(deltas.app).length > 0) await saveTier('app_states', null, deltas.app);
        if (Object.keys(deltas.user).length > 0) await saveTier('user_states', session.userId, deltas.user);
        state = { ...state, ...deltas.session };
        const columns = { ...eventColumns(event), id: event.id, app_name: appName, user_id: session.userId, session_id: session.sessionId };
        const names = [...Object.keys(columns), 'timestamp'];
        await db.run(
          `INSERT INTO events (${names.join(', ')}) VALUES (${names.map((name) => (name === 'actions' ? bytes : '?')).join(', ')})`,
          [...Object.values(columns), goTime(dialect, event.timestamp, zone)],
        );
        await db.run('UPDATE sessions SET state = ?, update_time = ? WHERE app_name = ? AND user_id = ? AND id = ?', [
          marshal(state),
          goTime(dialect, event.timestamp, zone),
          appName,
          session.userId,
          session.sessionId,
        ]);
      }
    }
  } finally {
    await db.close();
  }
}
