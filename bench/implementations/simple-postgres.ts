// The simpler floor on PostgreSQL: ADK's semantics on the simplest
// schema (one jsonb state row per tier and owner, an events table; no per-key
// rows, no history, no counts), node-postgres directly, one transaction per
// write. Events are read in append order through the primary key. Shared tiers are merged in SQL (jsonb ||), so concurrent writers of
// one user keep each other's keys; a stale session copy is refused.
import pg from 'pg';
import { pooledTransaction } from '../../lib/db/pooled-transaction';
import type { Session } from '../../lib/session-service';
import { splitDelta } from '../../lib/session-service';
import { applyAppended, STALE_MESSAGE, storedEvent } from './raw-common';
import type { BenchEvent, BenchTarget, Delta, SeedSession, SessionKey } from './types';
import { HeldSessionsTarget } from './held-sessions';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS s_sessions (pk SERIAL PRIMARY KEY, app_name TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL,
  state JSONB NOT NULL, revision INTEGER NOT NULL, last_seq INTEGER NOT NULL, create_time DOUBLE PRECISION NOT NULL,
  update_time DOUBLE PRECISION NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS s_sessions_key ON s_sessions (app_name, user_id, id);
CREATE INDEX IF NOT EXISTS s_sessions_app ON s_sessions (app_name, update_time);
CREATE INDEX IF NOT EXISTS s_sessions_user ON s_sessions (app_name, user_id, update_time);
CREATE TABLE IF NOT EXISTS s_app_state (app_name TEXT PRIMARY KEY, state JSONB NOT NULL);
CREATE TABLE IF NOT EXISTS s_user_state (app_name TEXT NOT NULL, user_id TEXT NOT NULL, state JSONB NOT NULL, PRIMARY KEY (app_name, user_id));
CREATE TABLE IF NOT EXISTS s_events (session_pk INTEGER NOT NULL, seq INTEGER NOT NULL, timestamp DOUBLE PRECISION NOT NULL, data TEXT NOT NULL,
  PRIMARY KEY (session_pk, seq));
`;

type Json = Record<string, unknown>;
type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>;

interface Row {
  pk: number;
  user_id: string;
  id: string;
  state: Json;
  revision: number;
  update_time: number;
}

function merged(app: Json | undefined, user: Json | undefined, session: Json): Json {
  const state = { ...session };
  for (const [k, v] of Object.entries(app ?? {})) state[`app:${k}`] = v;
  for (const [k, v] of Object.entries(user ?? {})) state[`user:${k}`] = v;
  return state;
}

const ROW = 'pk, user_id, id, state, revision, update_time';

export class SimplePostgresTarget extends HeldSessionsTarget implements BenchTarget {
  readonly impl = 'simple';
  readonly provider = 'postgresql';
  private readonly pool: pg.Pool;
  private ready: Promise<void> | undefined;

  constructor(url: string) {
    super();
    this.pool = new pg.Pool({ connectionString: url, max: 10 });
  }

  private async transaction<T>(begin: string, fn: (q: Query) => Promise<T>): Promise<T> {
    this.ready ??= this.pool.query(SCHEMA).then(() => undefined);
    await this.ready;
    const client = await this.pool.connect();
    const q: Query = async (text, values) => (await client.query(text, values)).rows;
    return pooledTransaction(client, begin, () => fn(q));
  }

  private async shared(q: Query, key: SessionKey, delta: Delta): Promise<void> {
    const split = splitDelta(delta);
    if (Object.keys(split.app).length) {
      await q(
        `INSERT INTO s_app_state AS t (app_name, state) VALUES ($1, $2::jsonb)
         ON CONFLICT (app_name) DO UPDATE SET state = t.state || excluded.state`,
        [key.appName, JSON.stringify(split.app)],
      );
    }
    if (Object.keys(split.user).length) {
      await q(
        `INSERT INTO s_user_state AS t (app_name, user_id, state) VALUES ($1, $2, $3::jsonb)
         ON CONFLICT (app_name, user_id) DO UPDATE SET state = t.state || excluded.state`,
        [key.appName, key.userId, JSON.stringify(split.user)],
      );
    }
  }

  private async tiers(q: Query, appName: string, userId: string): Promise<[Json | undefined, Json | undefined]> {
    const rows = await q<{ tier: string; state: Json }>(
      `SELECT 'app' AS tier, state FROM s_app_state WHERE app_name = $1
       UNION ALL SELECT 'user', state FROM s_user_state WHERE app_name = $1 AND user_id = $2`,
      [appName, userId],
    );
    return [rows.find((r) => r.tier === 'app')?.state, rows.find((r) => r.tier === 'user')?.state];
  }

  async create(key: SessionKey, state: Delta): Promise<void> {
    const now = Date.now() / 1000;
    const split = splitDelta(state);
    const mergedState = await this.transaction('BEGIN', async (q) => {
      const rows = await q(
        `INSERT INTO s_sessions (app_name, user_id, id, state, revision, last_seq, create_time, update_time)
         VALUES ($1, $2, $3, $4::jsonb, 0, 0, $5, $5) ON CONFLICT DO NOTHING RETURNING pk`,
        [key.appName, key.userId, key.sessionId, JSON.stringify(split.session), now],
      );
      if (rows.length === 0) throw new Error(`Session already exists: ${key.sessionId}`);
      await this.shared(q, key, state);
      const [app, user] = await this.tiers(q, key.appName, key.userId);
      return merged(app, user, split.session as Json);
    });
    this.holdCreated(key, mergedState as Session['state'], now);
  }

  async append(key: SessionKey, input: BenchEvent): Promise<void> {
    const session = this.held(key);
    const event = storedEvent(input);
    const split = splitDelta(event.actions.stateDelta);
    const revision = await this.transaction('BEGIN', async (q) => {
      const rows = await q<{ pk: number; revision: number; last_seq: number }>(
        `UPDATE s_sessions SET state = state || $1::jsonb, update_time = $2, revision = revision + 1, last_seq = last_seq + 1
         WHERE app_name = $3 AND user_id = $4 AND id = $5 AND revision = $6 RETURNING pk, revision, last_seq`,
        [JSON.stringify(split.session), event.timestamp, key.appName, key.userId, key.sessionId, session.revision],
      );
      const row = rows[0];
      if (!row) throw new Error(STALE_MESSAGE);
      await q('INSERT INTO s_events (session_pk, seq, timestamp, data) VALUES ($1, $2, $3, $4)', [
        row.pk,
        row.last_seq,
        event.timestamp,
        JSON.stringify(event),
      ]);
      await this.shared(q, key, event.actions.stateDelta);
      return row.revision;
    });
    applyAppended(session, event, input.stateDelta, revision);
  }

  protected read(key: SessionKey, numRecentEvents: number | undefined): Promise<Session | null> {
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ', async (q) => {
      const row = (
        await q<Row>(`SELECT ${ROW} FROM s_sessions WHERE app_name = $1 AND user_id = $2 AND id = $3`, [
          key.appName,
          key.userId,
          key.sessionId,
        ])
      )[0];
      if (!row) return null;
      const [app, user] = await this.tiers(q, key.appName, key.userId);
      const events =
        numRecentEvents === undefined
          ? await q<{ data: string }>('SELECT data FROM s_events WHERE session_pk = $1 ORDER BY seq', [row.pk])
          : (
              await q<{ data: string }>('SELECT data FROM s_events WHERE session_pk = $1 ORDER BY seq DESC LIMIT $2', [
                row.pk,
                numRecentEvents,
              ])
            ).reverse();
      return {
        id: row.id,
        appName: key.appName,
        userId: row.user_id,
        state: merged(app, user, row.state),
        events: events.map((e) => JSON.parse(e.data)),
        lastUpdateTime: row.update_time,
        revision: row.revision,
      } as Session;
    });
  }

  private async withState(q: Query, appName: string, rows: Row[]): Promise<Json[]> {
    const users = [...new Set(rows.map((r) => r.user_id))];
    const shared = await q<{ user_id: string | null; state: Json }>(
      `SELECT NULL AS user_id, state FROM s_app_state WHERE app_name = $1
       UNION ALL SELECT user_id, state FROM s_user_state WHERE app_name = $1 AND user_id = ANY($2::text[])`,
      [appName, users],
    );
    const app = shared.find((r) => r.user_id === null)?.state;
    const byUser = new Map(shared.filter((r) => r.user_id !== null).map((r) => [r.user_id, r.state]));
    return rows.map((row) => merged(app, byUser.get(row.user_id), row.state));
  }

  async list(appName: string, userId?: string): Promise<number> {
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ', async (q) => {
      const rows = await q<Row>(
        `SELECT ${ROW} FROM s_sessions WHERE app_name = $1${userId === undefined ? '' : ' AND user_id = $2'}`,
        userId === undefined ? [appName] : [appName, userId],
      );
      return (await this.withState(q, appName, rows)).length;
    });
  }

  async sessionPage(appName: string, userId: string | undefined, limit: number): Promise<{ items: number; total: number }> {
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ', async (q) => {
      const where = `app_name = $1${userId === undefined ? '' : ' AND user_id = $2'}`;
      const params = userId === undefined ? [appName] : [appName, userId];
      const rows = await q<Row>(`SELECT ${ROW} FROM s_sessions WHERE ${where} ORDER BY update_time DESC LIMIT ${Number(limit)}`, params);
      const total = await q<{ n: string }>(`SELECT COUNT(*) AS n FROM s_sessions WHERE ${where}`, params);
      return { items: (await this.withState(q, appName, rows)).length, total: Number(total[0]?.n ?? 0) };
    });
  }

  async seedSessions(appName: string, sessions: SeedSession[]): Promise<void> {
    const now = Date.now() / 1000;
    await this.transaction('BEGIN', async (q) => {
      await q(
        `INSERT INTO s_sessions (app_name, user_id, id, state, revision, last_seq, create_time, update_time)
         SELECT $1, u, i, s::jsonb, 0, 0, $5, $5 FROM unnest($2::text[], $3::text[], $4::text[]) AS t(u, i, s)`,
        [
          appName,
          sessions.map((s) => s.userId),
          sessions.map((s) => s.sessionId),
          sessions.map((s) => JSON.stringify(splitDelta(s.state).session)),
          now,
        ],
      );
      const app: Json = {};
      const users = new Map<string, Json>();
      for (const s of sessions) {
        const split = splitDelta(s.state);
        Object.assign(app, split.app);
        users.set(s.userId, { ...users.get(s.userId), ...split.user });
      }
      await q('INSERT INTO s_app_state (app_name, state) VALUES ($1, $2::jsonb) ON CONFLICT DO NOTHING', [appName, JSON.stringify(app)]);
      await q(
        `INSERT INTO s_user_state (app_name, user_id, state) SELECT $1, u, s::jsonb FROM unnest($2::text[], $3::text[]) AS t(u, s)
         ON CONFLICT DO NOTHING`,
        [appName, [...users.keys()], [...users.values()].map((v) => JSON.stringify(v))],
      );
    });
    await this.pool.query('ANALYZE');
  }

  async seedEvents(key: SessionKey, inputs: BenchEvent[]): Promise<void> {
    await this.transaction('BEGIN', async (q) => {
      const row = (
        await q<{ pk: number }>('SELECT pk FROM s_sessions WHERE app_name = $1 AND user_id = $2 AND id = $3', [
          key.appName,
          key.userId,
          key.sessionId,
        ])
      )[0];
      if (!row) throw new Error(`Session ${key.sessionId} not found.`);
      const base = Date.now() / 1000 - inputs.length - 10;
      const events = inputs.map((input, i) => ({ ...storedEvent(input), timestamp: base + i }));
      for (let i = 0; i < events.length; i += 1000) {
        const batch = events.slice(i, i + 1000);
        await q(
          `INSERT INTO s_events (session_pk, seq, timestamp, data) SELECT $1, seq, ts, d FROM unnest($2::int[], $3::float8[], $4::text[]) AS t(seq, ts, d)`,
          [row.pk, batch.map((_, j) => i + j + 1), batch.map((e) => e.timestamp), batch.map((e) => JSON.stringify(e))],
        );
      }
      await q('UPDATE s_sessions SET last_seq = $1, revision = revision + $1 WHERE pk = $2', [inputs.length, row.pk]);
    });
    await this.pool.query('ANALYZE');
    this.forget(key);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
