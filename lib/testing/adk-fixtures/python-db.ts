// Writes a database exactly as adk-python's DatabaseSessionService schema v1
// does, for tests (Python cannot run here). Tables are what SQLAlchemy's
// create_all emits for src/google/adk/sessions/schemas/v1.py
// (google/adk-python@340e77bd: String(128) keys, String(256)
// invocation_id/title, DynamicJSON = TEXT with json.dumps or JSONB on
// PostgreSQL, PreciseTimestamp = DateTime); rows are what
// database_session_service.py (@0c106140) writes:
//   create_session: `now = datetime.now(timezone.utc)`; on SQLite
//     `now = now.replace(tzinfo=None)`; app/user rows added when missing.
//   append_event: `storage_app_state.state = storage_app_state.state | app_state_delta`;
//     on SQLite `update_time = datetime.fromtimestamp(event.timestamp, timezone.utc).replace(tzinfo=None)`,
//     else `datetime.fromtimestamp(event.timestamp)` (local);
//     StorageEvent.from_event: `timestamp=datetime.fromtimestamp(event.timestamp)` (local),
//     `event_data=event.model_dump(exclude_none=True, mode="json")`.
//   app_states/user_states.update_time: `default=func.now(), onupdate=func.now()`.
// Clocks: `local` reproduces that version with the agent's machine at
// `localOffsetHours`; `utc` the newer versions that store UTC everywhere;
// `timestamptz` a PostgreSQL database after migrate_postgresql_timestamptz.py.
// On MySQL/MariaDB (`shared.py`: DynamicJSON = LONGTEXT, PreciseTimestamp =
// DATETIME(6)) create_session's `datetime.now(timezone.utc)` is stored as its
// UTC wall time (the driver drops the offset; adk-python#5085), while appends
// write `datetime.fromtimestamp(event.timestamp)`, the agent's local time.
import type { JsonObject, JsonValue } from '../../session-service/types';
import { pythonJsonDumps } from '../../stores/adk/python/json-dumps';
import { openFixtureDb } from './fixture-db';
import type { ScenarioSession } from './scenario';
import { extractStateDelta } from './python-sqlite';

export type PyDbClock = 'local' | 'utc' | 'timestamptz';

export interface PyDbOptions {
  clock: PyDbClock;
  /** The agent machine's offset from UTC for `local` (hours). */
  localOffsetHours?: number;
  /** Instead, the agent machine's zone for `local`: each instant on that zone's rule (daylight saving). */
  localZone?: string;
  /** adk_internal_metadata's schema_version ('1'); null leaves the row out. */
  schemaVersion?: string | null;
  /** The v0 layout (pickled actions), to check it is refused. */
  v0?: boolean;
  /**
   * On MySQL/MariaDB, the tables a `mariadb://` URL makes: SQLAlchemy's dialect is then named `mariadb`,
   * so shared.py's `mysql` overrides do not apply (TEXT, and DATETIME without fractional seconds).
   */
  mariadbUrl?: boolean;
}

type PyDbDialect = 'sqlite' | 'postgresql' | 'mysql';

const JSON_TYPE: Record<PyDbDialect, string> = { sqlite: 'TEXT', postgresql: 'JSONB', mysql: 'LONGTEXT' };
const BLOB_TYPE: Record<PyDbDialect, string> = { sqlite: 'BLOB', postgresql: 'BYTEA', mysql: 'LONGBLOB' };

function ddl(dialect: PyDbDialect, options: PyDbOptions): string[] {
  const json = dialect === 'mysql' && options.mariadbUrl ? 'TEXT' : JSON_TYPE[dialect];
  const time =
    dialect === 'sqlite'
      ? 'DATETIME'
      : dialect === 'mysql'
        ? options.mariadbUrl
          ? 'DATETIME'
          : 'DATETIME(6)'
        : options.clock === 'timestamptz'
          ? 'TIMESTAMP WITH TIME ZONE'
          : 'TIMESTAMP WITHOUT TIME ZONE';
  // SQLAlchemy quotes the reserved word `key` in MySQL's way.
  const key = dialect === 'mysql' ? '`key`' : '"key"';
  const events = options.v0
    ? `CREATE TABLE events (id VARCHAR(128) NOT NULL, app_name VARCHAR(128) NOT NULL, user_id VARCHAR(128) NOT NULL,
        session_id VARCHAR(128) NOT NULL, invocation_id VARCHAR(256) NOT NULL, author VARCHAR(256) NOT NULL,
        actions ${BLOB_TYPE[dialect]} NOT NULL, long_running_tool_ids_json TEXT, branch VARCHAR(256),
        timestamp ${time} NOT NULL, content ${json}, PRIMARY KEY (id, app_name, user_id, session_id),
        FOREIGN KEY(app_name, user_id, session_id) REFERENCES sessions (app_name, user_id, id) ON DELETE CASCADE)`
    : `CREATE TABLE events (id VARCHAR(128) NOT NULL, app_name VARCHAR(128) NOT NULL, user_id VARCHAR(128) NOT NULL,
        session_id VARCHAR(128) NOT NULL, invocation_id VARCHAR(256) NOT NULL, timestamp ${time} NOT NULL, event_data ${json},
        PRIMARY KEY (id, app_name, user_id, session_id),
        FOREIGN KEY(app_name, user_id, session_id) REFERENCES sessions (app_name, user_id, id) ON DELETE CASCADE)`;
  const tables = [
    `CREATE TABLE sessions (app_name VARCHAR(128) NOT NULL, user_id VARCHAR(128) NOT NULL, id VARCHAR(128) NOT NULL,
      state ${json} NOT NULL, title VARCHAR(256), create_time ${time} NOT NULL, update_time ${time} NOT NULL,
      PRIMARY KEY (app_name, user_id, id))`,
    `CREATE TABLE app_states (app_name VARCHAR(128) NOT NULL, state ${json} NOT NULL, update_time ${time} NOT NULL, PRIMARY KEY (app_name))`,
    `CREATE TABLE user_states (app_name VARCHAR(128) NOT NULL, user_id VARCHAR(128) NOT NULL, state ${json} NOT NULL,
      update_time ${time} NOT NULL, PRIMARY KEY (app_name, user_id))`,
    events,
  ];
  if (!options.v0)
    tables.unshift(`CREATE TABLE adk_internal_metadata (${key} VARCHAR(128) NOT NULL, value VARCHAR(256) NOT NULL, PRIMARY KEY (${key}))`);
  return tables;
}

/** A datetime as SQLAlchemy stores it on SQLite (and as PostgreSQL accepts it): `YYYY-MM-DD HH:MM:SS.ffffff`. */
function naive(seconds: number, offsetHours: number): string {
  const micros = Math.round((seconds + offsetHours * 3600) * 1e6);
  const iso = new Date(Math.floor(micros / 1000)).toISOString(); // 2026-01-01T00:00:01.250Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${String(micros % 1_000_000).padStart(6, '0')}`;
}

/** `datetime.fromtimestamp(seconds)` on a machine in this zone, as SQLAlchemy stores it (the wall clock from the runtime's zone data). */
export function naiveInZone(seconds: number, zone: string): string {
  const micros = Math.round(seconds * 1e6);
  const whole = Math.floor(micros / 1e6);
  // sv-SE prints `YYYY-MM-DD HH:MM:SS`.
  const wall = new Date(whole * 1000).toLocaleString('sv-SE', { timeZone: zone, hourCycle: 'h23' });
  return `${wall}.${String(micros - whole * 1e6).padStart(6, '0')}`;
}

export async function writePythonDbStore(
  target: { sqlitePath: string } | { postgresUrl: string } | { mysqlUrl: string },
  appName: string,
  sessions: ScenarioSession[],
  options: PyDbOptions,
): Promise<void> {
  const dialect: PyDbDialect = 'sqlitePath' in target ? 'sqlite' : 'mysqlUrl' in target ? 'mysql' : 'postgresql';
  const offset = options.clock === 'local' ? (options.localOffsetHours ?? 2) : 0;
  const local = (ts: number) => (options.clock === 'local' && options.localZone ? naiveInZone(ts, options.localZone) : naive(ts, offset));
  const stamp = {
    // fromtimestamp(ts) on the agent's clock, or UTC in newer versions.
    event: (ts: number) => (options.clock === 'timestamptz' ? `${naive(ts, 0)}+00` : local(ts)),
    sessionUpdate: (ts: number) =>
      options.clock === 'timestamptz' ? `${naive(ts, 0)}+00` : dialect === 'sqlite' ? naive(ts, 0) : local(ts),
  };
  // create_session's UTC time: on MySQL its wall time, whatever the agent's clock (adk-python#5085).
  const createStamp = (ts: number) => (dialect === 'mysql' && options.clock !== 'timestamptz' ? naive(ts, 0) : stamp.sessionUpdate(ts));
  const now = dialect === 'sqlite' ? 'CURRENT_TIMESTAMP' : 'now()';
  const json = (value: JsonValue) => (dialect === 'postgresql' ? JSON.stringify(value) : pythonJsonDumps(value));

  const exec = await openFixtureDb(target);
  try {
    for (const statement of ddl(dialect, options)) await exec.run(statement, []);
    if (options.v0) return;
    if (options.schemaVersion !== null)
      await exec.run(`INSERT INTO adk_internal_metadata (${dialect === 'mysql' ? '`key`' : '"key"'}, value) VALUES (?, ?)`, [
        'schema_version',
        options.schemaVersion ?? '1',
      ]);
    const tier = async (table: 'app_states' | 'user_states', userId: string | null, delta: JsonObject) => {
      const where = userId === null ? 'app_name = ?' : 'app_name = ? AND user_id = ?';
      const keys = userId === null ? [appName] : [appName, userId];
      const row = await exec.one(`SELECT state FROM ${table} WHERE ${where}`, keys);
      if (!row) {
        const columns = userId === null ? 'app_name, state, update_time' : 'app_name, user_id, state, update_time';
        const marks = userId === null ? `?, ?, ${now}` : `?, ?, ?, ${now}`;
        await exec.run(`INSERT INTO ${table} (${columns}) VALUES (${marks})`, [...keys, json(delta)]);
        return;
      }
      if (Object.keys(delta).length === 0) return;
      const stored = (typeof row.state === 'string' ? JSON.parse(row.state) : row.state) as JsonObject;
      await exec.run(`UPDATE ${table} SET state = ?, update_time = ${now} WHERE ${where}`, [json({ ...stored, ...delta }), ...keys]);
    };
    for (const session of sessions) {
      await tier('app_states', null, {});
      await tier('user_states', session.userId, {});
      const created = createStamp(session.created);
      await exec.run('INSERT INTO sessions (app_name, user_id, id, state, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)', [
        appName,
        session.userId,
        session.sessionId,
        json({}),
        created,
        created,
      ]);
      let sessionState: JsonObject = {};
      for (const event of session.events) {
        const deltas = extractStateDelta(event.actions.state_delta);
        await tier('app_states', null, deltas.app);
        await tier('user_states', session.userId, deltas.user);
        sessionState = { ...sessionState, ...deltas.session };
        await exec.run('UPDATE sessions SET state = ?, update_time = ? WHERE app_name = ? AND user_id = ? AND id = ?', [
          json(sessionState),
          stamp.sessionUpdate(event.timestamp),
          appName,
          session.userId,
          session.sessionId,
        ]);
        await exec.run(
          'INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp, event_data) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [event.id, appName, session.userId, session.sessionId, event.invocation_id, stamp.event(event.timestamp), json(event)],
        );
      }
    }
  } finally {
    await exec.close();
  }
}
