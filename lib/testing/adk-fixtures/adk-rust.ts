// A generator for the stores adk-rust writes, for tests: Rust does not run
// here, so this reproduces what zavora-ai/adk-rust v2.0.0 (51aabdbe)
// `adk-session` executes, statement by statement:
//  - DDL: `SQLITE_SESSION_MIGRATIONS` (src/sqlite.rs) and
//    `PG_SESSION_MIGRATIONS` (src/postgres.rs), version 1, verbatim, and the
//    registry `CREATE TABLE IF NOT EXISTS {registry_table} (version {INTEGER|BIGINT}
//    PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)` with its
//    row `VALUES ({version}, '{description}', '{now}')` (src/migration.rs).
//  - `create` and `append_event_for_identity` (both files): which rows each
//    writes, in which order, with which values.
//  - serde's JSON for adk-core's `LlmResponse`, `EventActions` and `Part`
//    (adk-core/src/model.rs, event.rs, types.rs): snake_case fields in
//    declaration order, `None` as null unless `skip_serializing_if`, parts
//    untagged; and chrono's `to_rfc3339()` for every SQLite timestamp.
// Rust's HashMap iterates in a random order; objects here come out sorted,
// one of the orders Rust may write.
import Database from 'better-sqlite3';
import pg from 'pg';
import { sqliteFilePath } from '../../db/url';
import type { ScenarioSession } from './scenario';

/** sqlite.rs SQLITE_SESSION_MIGRATIONS[0].2, verbatim. */
export const RUST_SQLITE_DDL =
  'CREATE TABLE IF NOT EXISTS sessions (app_name TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL, state TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (app_name, user_id, session_id));' +
  'CREATE TABLE IF NOT EXISTS events (id TEXT NOT NULL, app_name TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL, invocation_id TEXT NOT NULL, branch TEXT NOT NULL, author TEXT NOT NULL, timestamp TEXT NOT NULL, llm_response TEXT NOT NULL, actions TEXT NOT NULL, long_running_tool_ids TEXT NOT NULL, PRIMARY KEY (id, app_name, user_id, session_id), FOREIGN KEY (app_name, user_id, session_id) REFERENCES sessions(app_name, user_id, session_id) ON DELETE CASCADE);' +
  'CREATE TABLE IF NOT EXISTS app_states (app_name TEXT PRIMARY KEY, state TEXT NOT NULL, updated_at TEXT NOT NULL);' +
  'CREATE TABLE IF NOT EXISTS user_states (app_name TEXT NOT NULL, user_id TEXT NOT NULL, state TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (app_name, user_id));';

/** postgres.rs PG_SESSION_MIGRATIONS[0].2, verbatim. */
export const RUST_POSTGRES_DDL =
  "CREATE TABLE IF NOT EXISTS sessions (app_name TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL, state JSONB NOT NULL DEFAULT '{}', created_at TIMESTAMPTZ NOT NULL DEFAULT NOW(), updated_at TIMESTAMPTZ NOT NULL DEFAULT NOW(), PRIMARY KEY (app_name, user_id, session_id));" +
  'CREATE TABLE IF NOT EXISTS events (id TEXT NOT NULL, app_name TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL, invocation_id TEXT NOT NULL, branch TEXT NOT NULL, author TEXT NOT NULL, timestamp TIMESTAMPTZ NOT NULL, llm_response JSONB NOT NULL, actions JSONB NOT NULL, long_running_tool_ids JSONB NOT NULL, PRIMARY KEY (id, app_name, user_id, session_id), FOREIGN KEY (app_name, user_id, session_id) REFERENCES sessions(app_name, user_id, session_id) ON DELETE CASCADE);' +
  "CREATE TABLE IF NOT EXISTS app_states (app_name TEXT PRIMARY KEY, state JSONB NOT NULL DEFAULT '{}', updated_at TIMESTAMPTZ NOT NULL DEFAULT NOW());" +
  "CREATE TABLE IF NOT EXISTS user_states (app_name TEXT NOT NULL, user_id TEXT NOT NULL, state JSONB NOT NULL DEFAULT '{}', updated_at TIMESTAMPTZ NOT NULL DEFAULT NOW(), PRIMARY KEY (app_name, user_id));" +
  'CREATE INDEX IF NOT EXISTS idx_sessions_app_user ON sessions(app_name, user_id);' +
  'CREATE INDEX IF NOT EXISTS idx_events_session_ts ON events(session_id, timestamp);';

const REGISTRY = (intType: string) =>
  `CREATE TABLE IF NOT EXISTS _adk_session_migrations (version ${intType} PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)`;

/** chrono's `DateTime<Utc>::to_rfc3339()`: SecondsFormat::AutoSi (0, 3, 6 or 9 digits), offset `+00:00`. */
export function rfc3339(nanos: bigint): string {
  const seconds = nanos / 1_000_000_000n;
  const fraction = Number(nanos % 1_000_000_000n);
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  let digits = '';
  if (fraction === 0) digits = '';
  else if (fraction % 1_000_000 === 0) digits = `.${String(fraction / 1_000_000).padStart(3, '0')}`;
  else if (fraction % 1000 === 0) digits = `.${String(fraction / 1000).padStart(6, '0')}`;
  else digits = `.${String(fraction).padStart(9, '0')}`;
  return `${base}${digits}+00:00`;
}

/** sqlx binds `DateTime<Utc>` to TIMESTAMPTZ in whole microseconds. */
function pgTimestamp(nanos: bigint): string {
  const micros = nanos / 1000n;
  const base = new Date(Number(micros / 1_000_000n) * 1000).toISOString().slice(0, 19);
  return `${base}.${String(micros % 1_000_000n).padStart(6, '0')}+00:00`;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type State = Record<string, Json>;

function sorted(value: Json): Json {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key] as Json)]),
  );
}
const json = (value: Json) => JSON.stringify(sorted(value));

/** A part as adk-core's untagged `Part` serialises: Text `{text}`, FunctionCall `{name, args, id?}`, FunctionResponse `{functionResponse: {name, response}, id?}`. */
export type RustPart =
  { text: string } | { name: string; args: Json; id?: string } | { functionResponse: { name: string; response: Json }; id?: string };

export interface RustEvent {
  id: string;
  /** Nanoseconds since the epoch (Utc::now() on Linux). */
  nanos: bigint;
  invocationId: string;
  branch?: string;
  author: string;
  content?: { role: string; parts: RustPart[] } | null;
  stateDelta?: State;
  turnComplete?: boolean;
}

/** serde of `LlmResponse`: fields in declaration order; citation_metadata, provider_metadata, interaction_id skipped when None. */
export function llmResponseJson(event: RustEvent): string {
  return JSON.stringify({
    content: event.content ?? null,
    usage_metadata: null,
    finish_reason: null,
    partial: false,
    turn_complete: event.turnComplete ?? false,
    interrupted: false,
    error_code: null,
    error_message: null,
  });
}

/** serde of `EventActions`: tool_confirmation, tool_confirmation_decision, compaction, route skipped when None. */
export function actionsJson(delta: State): string {
  return JSON.stringify({
    state_delta: sorted(delta),
    artifact_delta: {},
    skip_summarization: false,
    transfer_to_agent: null,
    escalate: false,
  });
}

/** state_utils::extract_state_deltas: app:/user: stripped, temp: dropped, the rest session. */
function extract(state: State): { app: State; user: State; session: State } {
  const tiers = { app: {} as State, user: {} as State, session: {} as State };
  for (const [key, value] of Object.entries(state)) {
    if (key.startsWith('app:')) tiers.app[key.slice(4)] = value;
    else if (key.startsWith('user:')) tiers.user[key.slice(5)] = value;
    else if (!key.startsWith('temp:')) tiers.session[key] = value;
  }
  return tiers;
}

/** state_utils::merge_states: session keys, then `app:` and `user:` prefixed. */
function merge(app: State, user: State, session: State): State {
  const merged: State = { ...session };
  for (const [k, v] of Object.entries(app)) merged[`app:${k}`] = v;
  for (const [k, v] of Object.entries(user)) merged[`user:${k}`] = v;
  return merged;
}

interface Writer {
  run(sql: string, params: unknown[]): Promise<void>;
  one(sql: string, params: unknown[]): Promise<State | null>;
  time(nanos: bigint): string;
  /** `?` for SQLite, `$n` for PostgreSQL. */
  p(n: number): string;
  upsert(table: 'app_states' | 'user_states'): string;
  tx<R>(fn: () => Promise<R>): Promise<R>;
  /** `SELECT COALESCE(MAX(version), 0) AS max_v FROM {registry_table}`. */
  version(): Promise<number>;
  close(): Promise<void>;
}

function sqliteWriter(url: string): Writer {
  const db = new Database(sqliteFilePath(url));
  // sqlx's SqliteConnectOptions default journal mode is WAL; sqlite.rs `new` runs `PRAGMA foreign_keys = ON`.
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  return {
    run: async (sql, params) => void db.prepare(sql).run(...(params as never[])),
    one: async (sql, params) => {
      const row = db.prepare(sql).get(...(params as never[])) as { state: string } | undefined;
      return row ? (JSON.parse(row.state) as State) : null;
    },
    time: rfc3339,
    p: () => '?',
    // sqlite.rs: "INSERT OR REPLACE INTO app_states (app_name, state, updated_at) VALUES (?, ?, ?)"
    upsert: (table) =>
      table === 'app_states'
        ? 'INSERT OR REPLACE INTO app_states (app_name, state, updated_at) VALUES (?, ?, ?)'
        : 'INSERT OR REPLACE INTO user_states (app_name, user_id, state, updated_at) VALUES (?, ?, ?, ?)',
    tx: async (fn) => {
      db.exec('BEGIN');
      try {
        const result = await fn();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    version: async () =>
      Number((db.prepare('SELECT COALESCE(MAX(version), 0) AS max_v FROM _adk_session_migrations').get() as { max_v: number }).max_v),
    close: async () => void db.close(),
  };
}

async function postgresWriter(url: string): Promise<Writer> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    run: async (sql, params) => void (await client.query(sql, params)),
    one: async (sql, params) => (await client.query<{ state: State }>(sql, params)).rows[0]?.state ?? null,
    time: pgTimestamp,
    p: (n) => `$${n}`,
    // postgres.rs: INSERT ... ON CONFLICT (app_name) DO UPDATE SET state = $2, updated_at = $3
    upsert: (table) =>
      table === 'app_states'
        ? 'INSERT INTO app_states (app_name, state, updated_at) VALUES ($1, $2, $3) ON CONFLICT (app_name) DO UPDATE SET state = $2, updated_at = $3'
        : 'INSERT INTO user_states (app_name, user_id, state, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (app_name, user_id) DO UPDATE SET state = $3, updated_at = $4',
    tx: async (fn) => {
      await client.query('BEGIN');
      try {
        const result = await fn();
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    version: async () =>
      Number(
        (await client.query<{ max_v: string }>('SELECT COALESCE(MAX(version), 0) AS max_v FROM _adk_session_migrations')).rows[0]?.max_v ??
          0,
      ),
    close: () => client.end(),
  };
}

/** What an adk-rust service does to one database: migrate, then create sessions and append events. */
export class RustStoreWriter {
  private constructor(private readonly w: Writer) {}

  static async open(url: string): Promise<RustStoreWriter> {
    const postgres = !url.startsWith('file:');
    const w = postgres ? await postgresWriter(url) : sqliteWriter(url);
    const writer = new RustStoreWriter(w);
    try {
      // migration.rs run_sql_migrations: the registry, its highest version, then each step not applied, in a transaction with its row.
      await w.run(REGISTRY(postgres ? 'BIGINT' : 'INTEGER'), []);
      const applied = await w.version();
      if (applied < 1) {
        await w.tx(async () => {
          for (const statement of (postgres ? RUST_POSTGRES_DDL : RUST_SQLITE_DDL).split(';').filter(Boolean)) await w.run(statement, []);
          const now = rfc3339(BigInt(Date.now()) * 1_000_000n);
          await w.run(
            `INSERT INTO _adk_session_migrations (version, description, applied_at) VALUES (1, 'create initial session tables', '${now}')`,
            [],
          );
        });
      }
    } catch (error) {
      await w.close();
      throw error;
    }
    return writer;
  }

  /** SessionService::create. */
  async create(appName: string, userId: string, sessionId: string, state: State, now: bigint): Promise<void> {
    const { p, time } = this.w;
    const { app, user, session } = extract(state);
    await this.w.tx(async () => {
      const newApp = { ...((await this.w.one(`SELECT state FROM app_states WHERE app_name = ${p(1)}`, [appName])) ?? {}), ...app };
      await this.w.run(this.w.upsert('app_states'), [appName, json(newApp), time(now)]);
      const newUser = {
        ...((await this.w.one(`SELECT state FROM user_states WHERE app_name = ${p(1)} AND user_id = ${p(2)}`, [appName, userId])) ?? {}),
        ...user,
      };
      await this.w.run(this.w.upsert('user_states'), [appName, userId, json(newUser), time(now)]);
      await this.w.run(
        `INSERT INTO sessions (app_name, user_id, session_id, state, created_at, updated_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)})`,
        [appName, userId, sessionId, json(merge(newApp, newUser, session)), time(now), time(now)],
      );
    });
  }

  /** SessionService::append_event_for_identity. */
  async append(appName: string, userId: string, sessionId: string, event: RustEvent): Promise<void> {
    const { p, time } = this.w;
    const delta: State = Object.fromEntries(Object.entries(event.stateDelta ?? {}).filter(([key]) => !key.startsWith('temp:')));
    const insertEvent = () =>
      this.w.run(
        `INSERT INTO events (id, app_name, user_id, session_id, invocation_id, branch, author, timestamp, llm_response, actions, long_running_tool_ids) VALUES (${[...Array(11).keys()].map((i) => p(i + 1)).join(', ')})`,
        [
          event.id,
          appName,
          userId,
          sessionId,
          event.invocationId,
          event.branch ?? '',
          event.author,
          time(event.nanos),
          llmResponseJson(event),
          actionsJson(delta),
          '[]',
        ],
      );
    await this.w.tx(async () => {
      if (Object.keys(delta).length === 0) {
        await this.w.run(
          `UPDATE sessions SET updated_at = ${p(1)} WHERE app_name = ${p(2)} AND user_id = ${p(3)} AND session_id = ${p(4)}`,
          [time(event.nanos), appName, userId, sessionId],
        );
        await insertEvent();
        return;
      }
      const existing = await this.w.one(
        `SELECT state FROM sessions WHERE app_name = ${p(1)} AND user_id = ${p(2)} AND session_id = ${p(3)}`,
        [appName, userId, sessionId],
      );
      if (!existing) throw new Error('session not found');
      const sessionState = extract(existing).session;
      const tiers = extract(delta);
      const newApp = { ...((await this.w.one(`SELECT state FROM app_states WHERE app_name = ${p(1)}`, [appName])) ?? {}), ...tiers.app };
      await this.w.run(this.w.upsert('app_states'), [appName, json(newApp), time(event.nanos)]);
      const newUser = {
        ...((await this.w.one(`SELECT state FROM user_states WHERE app_name = ${p(1)} AND user_id = ${p(2)}`, [appName, userId])) ?? {}),
        ...tiers.user,
      };
      await this.w.run(this.w.upsert('user_states'), [appName, userId, json(newUser), time(event.nanos)]);
      const merged = merge(newApp, newUser, { ...sessionState, ...tiers.session });
      await this.w.run(
        `UPDATE sessions SET state = ${p(1)}, updated_at = ${p(2)} WHERE app_name = ${p(3)} AND user_id = ${p(4)} AND session_id = ${p(5)}`,
        [json(merged), time(event.nanos), appName, userId, sessionId],
      );
      await insertEvent();
    });
  }

  close(): Promise<void> {
    return this.w.close();
  }
}

const BASE_NS = BigInt(Date.UTC(2026, 10, 20, 9, 0, 0)) * 1_000_000n;
/** Seconds after the base, plus a sub-millisecond part so every AutoSi width appears. */
const at = (seconds: number, extraNanos = 123_456_789n) => BASE_NS + BigInt(seconds) * 1_000_000_000n + extraNanos;

/** The scenario the rust tests read: the same shape as the adk-js fixture (shop/alice, shop/bob, desk/carol). */
export async function writeRustFixture(url: string): Promise<void> {
  const rust = await RustStoreWriter.open(url);
  try {
    await rust.create('shop', 'alice', 'alice-1', { 'app:theme': 'dark', 'user:name': 'Alice', cart: [] }, at(0));
    await rust.append('shop', 'alice', 'alice-1', {
      id: 'e1',
      nanos: at(1, 0n),
      invocationId: 'inv-1',
      author: 'user',
      content: { role: 'user', parts: [{ text: 'I like tea' }] },
    });
    await rust.append('shop', 'alice', 'alice-1', {
      id: 'e2',
      nanos: at(2, 500_000_000n),
      invocationId: 'inv-1',
      author: 'shopkeeper',
      content: { role: 'model', parts: [{ name: 'add_to_cart', args: { item: 'tea' }, id: 'call-1' }] },
    });
    await rust.append('shop', 'alice', 'alice-1', {
      id: 'e3',
      nanos: at(3, 250_000n),
      invocationId: 'inv-1',
      author: 'shopkeeper',
      content: { role: 'function', parts: [{ functionResponse: { name: 'add_to_cart', response: { ok: true } }, id: 'call-1' }] },
      stateDelta: { cart: ['tea'], 'user:likes': ['tea'], 'temp:scratch': 1 },
    });
    await rust.append('shop', 'alice', 'alice-1', {
      id: 'e4',
      nanos: at(4),
      invocationId: 'inv-1',
      author: 'shopkeeper',
      content: { role: 'model', parts: [{ text: 'Added tea.' }] },
      stateDelta: { last_reply: 'Added tea.', 'app:theme': 'light' },
      turnComplete: true,
    });
    await rust.append('shop', 'alice', 'alice-1', {
      id: 'e5',
      nanos: at(5),
      invocationId: 'inv-2',
      author: 'shopkeeper',
      content: { role: 'model', parts: [{ text: 'Anything else?' }] },
      stateDelta: { cart: ['tea', 'cups'], 'user:name': 'Alice B.' },
    });
    await rust.create('shop', 'bob', 'bob-1', { 'user:name': 'Bob' }, at(6));
    await rust.append('shop', 'bob', 'bob-1', {
      id: 'b1',
      nanos: at(7),
      invocationId: 'inv-b',
      author: 'user',
      content: { role: 'user', parts: [{ text: 'hello' }] },
    });
    await rust.create('desk', 'carol', 'desk-1', { ticket: 7 }, at(8));
  } finally {
    await rust.close();
  }
}

function rustPart(part: Json): RustPart {
  const p = (part ?? {}) as Record<string, Json>;
  const call = p.function_call as Record<string, Json> | undefined;
  if (call) return { name: String(call.name), args: call.args ?? {}, ...(call.id ? { id: String(call.id) } : {}) };
  const response = p.function_response as Record<string, Json> | undefined;
  if (response)
    return {
      functionResponse: { name: String(response.name), response: response.response ?? {} },
      ...(response.id ? { id: String(response.id) } : {}),
    };
  return { text: String(p.text ?? '') };
}

/** The shared scenario (lib/testing/adk-fixtures) as an adk-rust service writes it; fields Rust's Event lacks (custom_metadata) are dropped as serde drops them. */
export async function writeRustScenario(url: string, appName: string, sessions: ScenarioSession[]): Promise<void> {
  const rust = await RustStoreWriter.open(url);
  const nanos = (seconds: number) => BigInt(Math.round(seconds * 1_000_000)) * 1000n;
  try {
    for (const session of sessions) {
      await rust.create(appName, session.userId, session.sessionId, {}, nanos(session.created));
      for (const event of session.events) {
        const content = event.content as { role?: string; parts?: Json[] } | undefined;
        await rust.append(appName, session.userId, session.sessionId, {
          id: event.id,
          nanos: nanos(event.timestamp),
          invocationId: event.invocation_id,
          author: event.author,
          content: content ? { role: content.role ?? '', parts: (content.parts ?? []).map(rustPart) } : null,
          stateDelta: event.actions.state_delta as State,
          turnComplete: event.turn_complete === true,
        });
      }
    }
  } finally {
    await rust.close();
  }
}
