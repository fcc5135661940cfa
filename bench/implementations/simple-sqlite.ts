// The simpler floor on SQLite: ADK's semantics on the simplest schema
// (one JSON state row per tier and owner, an events table; no per-key rows,
// no history, no counts), better-sqlite3 directly, one transaction per
// write. Events are read in append order through the primary key. Shared tiers are merged in SQL (json_patch), so concurrent writers of
// one user keep each other's keys; a stale session copy is refused.
import type Database from 'better-sqlite3';
import type { Session } from '../../lib/session-service';
import { applyAppended, STALE_MESSAGE, storedEvent } from './raw-common';
import { splitDelta } from '../../lib/session-service';
import type { BenchEvent, BenchTarget, Delta, SeedSession, SessionKey } from './types';
import { HeldSessionsTarget } from './held-sessions';
import { openSqliteFile } from './sqlite-file';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS s_sessions (pk INTEGER PRIMARY KEY, app_name TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL,
  state TEXT NOT NULL, revision INTEGER NOT NULL, last_seq INTEGER NOT NULL, create_time REAL NOT NULL, update_time REAL NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS s_sessions_key ON s_sessions (app_name, user_id, id);
CREATE INDEX IF NOT EXISTS s_sessions_app ON s_sessions (app_name, update_time);
CREATE INDEX IF NOT EXISTS s_sessions_user ON s_sessions (app_name, user_id, update_time);
CREATE TABLE IF NOT EXISTS s_app_state (app_name TEXT PRIMARY KEY, state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS s_user_state (app_name TEXT NOT NULL, user_id TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (app_name, user_id));
CREATE TABLE IF NOT EXISTS s_events (session_pk INTEGER NOT NULL, seq INTEGER NOT NULL, timestamp REAL NOT NULL, data TEXT NOT NULL,
  PRIMARY KEY (session_pk, seq));
`;

interface Row {
  pk: number;
  user_id: string;
  id: string;
  state: string;
  revision: number;
  last_seq: number;
  update_time: number;
}

function merged(app: string | undefined, user: string | undefined, session: string): Record<string, unknown> {
  const state = JSON.parse(session) as Record<string, unknown>;
  for (const [k, v] of Object.entries(JSON.parse(app ?? '{}') as Record<string, unknown>)) state[`app:${k}`] = v;
  for (const [k, v] of Object.entries(JSON.parse(user ?? '{}') as Record<string, unknown>)) state[`user:${k}`] = v;
  return state;
}

export class SimpleSqliteTarget extends HeldSessionsTarget implements BenchTarget {
  readonly impl = 'simple';
  readonly provider = 'sqlite';
  private readonly db: Database.Database;
  private readonly stmt;

  constructor(file: string) {
    super();
    this.db = openSqliteFile(file, false);
    this.db.exec(SCHEMA);
    const db = this.db;
    this.stmt = {
      insertSession: db.prepare<[string, string, string, string, number, number], { pk: number }>(
        `INSERT INTO s_sessions (app_name, user_id, id, state, revision, last_seq, create_time, update_time)
         VALUES (?, ?, ?, ?, 0, 0, ?, ?) ON CONFLICT DO NOTHING RETURNING pk`,
      ),
      claim: db.prepare<[string, number, string, string, string, number], { pk: number; revision: number; last_seq: number }>(
        `UPDATE s_sessions SET state = json_patch(state, ?), update_time = ?, revision = revision + 1, last_seq = last_seq + 1
         WHERE app_name = ? AND user_id = ? AND id = ? AND revision = ? RETURNING pk, revision, last_seq`,
      ),
      exists: db.prepare<[string, string, string], { pk: number }>(
        'SELECT pk FROM s_sessions WHERE app_name = ? AND user_id = ? AND id = ?',
      ),
      event: db.prepare('INSERT INTO s_events (session_pk, seq, timestamp, data) VALUES (?, ?, ?, ?)'),
      app: db.prepare(
        `INSERT INTO s_app_state (app_name, state) VALUES (?, ?)
         ON CONFLICT (app_name) DO UPDATE SET state = json_patch(state, excluded.state)`,
      ),
      user: db.prepare(
        `INSERT INTO s_user_state (app_name, user_id, state) VALUES (?, ?, ?)
         ON CONFLICT (app_name, user_id) DO UPDATE SET state = json_patch(state, excluded.state)`,
      ),
      find: db.prepare<[string, string, string], Row>(
        'SELECT pk, user_id, id, state, revision, last_seq, update_time FROM s_sessions WHERE app_name = ? AND user_id = ? AND id = ?',
      ),
      appState: db.prepare<[string], { state: string }>('SELECT state FROM s_app_state WHERE app_name = ?'),
      userState: db.prepare<[string, string], { state: string }>('SELECT state FROM s_user_state WHERE app_name = ? AND user_id = ?'),
      recent: db.prepare<[number, number], { data: string }>('SELECT data FROM s_events WHERE session_pk = ? ORDER BY seq DESC LIMIT ?'),
      all: db.prepare<[number], { data: string }>('SELECT data FROM s_events WHERE session_pk = ? ORDER BY seq'),
      list: db.prepare<[string], Row>('SELECT pk, user_id, id, state, revision, last_seq, update_time FROM s_sessions WHERE app_name = ?'),
      listUser: db.prepare<[string, string], Row>(
        'SELECT pk, user_id, id, state, revision, last_seq, update_time FROM s_sessions WHERE app_name = ? AND user_id = ?',
      ),
      page: db.prepare<[string, number], Row>(
        `SELECT pk, user_id, id, state, revision, last_seq, update_time FROM s_sessions WHERE app_name = ?
         ORDER BY update_time DESC LIMIT ?`,
      ),
      userPage: db.prepare<[string, string, number], Row>(
        `SELECT pk, user_id, id, state, revision, last_seq, update_time FROM s_sessions WHERE app_name = ? AND user_id = ?
         ORDER BY update_time DESC LIMIT ?`,
      ),
      count: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM s_sessions WHERE app_name = ?'),
      countUser: db.prepare<[string, string], { n: number }>('SELECT COUNT(*) AS n FROM s_sessions WHERE app_name = ? AND user_id = ?'),
    };
  }

  private shared(key: SessionKey, delta: Delta): void {
    const split = splitDelta(delta);
    if (Object.keys(split.app).length) this.stmt.app.run(key.appName, JSON.stringify(split.app));
    if (Object.keys(split.user).length) this.stmt.user.run(key.appName, key.userId, JSON.stringify(split.user));
  }

  async create(key: SessionKey, state: Delta): Promise<void> {
    const now = Date.now() / 1000;
    const session = this.db
      .transaction(() => {
        const split = splitDelta(state);
        const row = this.stmt.insertSession.get(key.appName, key.userId, key.sessionId, JSON.stringify(split.session), now, now);
        if (!row) throw new Error(`Session already exists: ${key.sessionId}`);
        this.shared(key, state);
        const s = JSON.stringify(split.session);
        return merged(this.stmt.appState.get(key.appName)?.state, this.stmt.userState.get(key.appName, key.userId)?.state, s);
      })
      .immediate();
    this.holdCreated(key, session as Session['state'], now);
  }

  async append(key: SessionKey, input: BenchEvent): Promise<void> {
    const session = this.held(key);
    const event = storedEvent(input);
    const revision = this.db
      .transaction(() => {
        const split = splitDelta(event.actions.stateDelta);
        const row = this.stmt.claim.get(
          JSON.stringify(split.session),
          event.timestamp,
          key.appName,
          key.userId,
          key.sessionId,
          session.revision,
        );
        if (!row) throw new Error(this.stmt.exists.get(key.appName, key.userId, key.sessionId) ? STALE_MESSAGE : 'Session not found');
        this.stmt.event.run(row.pk, row.last_seq, event.timestamp, JSON.stringify(event));
        this.shared(key, event.actions.stateDelta);
        return row.revision;
      })
      .immediate();
    applyAppended(session, event, input.stateDelta, revision);
  }

  protected read(key: SessionKey, numRecentEvents: number | undefined): Session | null {
    return this.db
      .transaction(() => {
        const row = this.stmt.find.get(key.appName, key.userId, key.sessionId);
        if (!row) return null;
        const state = merged(
          this.stmt.appState.get(key.appName)?.state,
          this.stmt.userState.get(key.appName, key.userId)?.state,
          row.state,
        );
        const events = numRecentEvents === undefined ? this.stmt.all.all(row.pk) : this.stmt.recent.all(row.pk, numRecentEvents).reverse();
        return {
          id: row.id,
          appName: key.appName,
          userId: row.user_id,
          state,
          events: events.map((e) => JSON.parse(e.data)),
          lastUpdateTime: row.update_time,
          revision: row.revision,
        } as Session;
      })
      .deferred();
  }

  private withState(appName: string, rows: Row[]): Record<string, unknown>[] {
    const app = this.stmt.appState.get(appName)?.state;
    const users = new Map<string, string | undefined>();
    return rows.map((row) => {
      if (!users.has(row.user_id)) users.set(row.user_id, this.stmt.userState.get(appName, row.user_id)?.state);
      return merged(app, users.get(row.user_id), row.state);
    });
  }

  async list(appName: string, userId?: string): Promise<number> {
    return this.db
      .transaction(() =>
        this.withState(appName, userId === undefined ? this.stmt.list.all(appName) : this.stmt.listUser.all(appName, userId)),
      )
      .deferred().length;
  }

  async sessionPage(appName: string, userId: string | undefined, limit: number): Promise<{ items: number; total: number }> {
    return this.db
      .transaction(() => {
        const rows = userId === undefined ? this.stmt.page.all(appName, limit) : this.stmt.userPage.all(appName, userId, limit);
        const total = (userId === undefined ? this.stmt.count.get(appName) : this.stmt.countUser.get(appName, userId))?.n ?? 0;
        return { items: this.withState(appName, rows).length, total };
      })
      .deferred();
  }

  async seedSessions(appName: string, sessions: SeedSession[]): Promise<void> {
    const now = Date.now() / 1000;
    this.db.transaction(() => {
      for (const s of sessions) {
        const split = splitDelta(s.state);
        this.stmt.insertSession.get(appName, s.userId, s.sessionId, JSON.stringify(split.session), now, now);
        this.shared({ appName, userId: s.userId, sessionId: s.sessionId }, s.state);
      }
    })();
  }

  async seedEvents(key: SessionKey, inputs: BenchEvent[]): Promise<void> {
    this.db.transaction(() => {
      const row = this.stmt.find.get(key.appName, key.userId, key.sessionId);
      if (!row) throw new Error(`Session ${key.sessionId} not found.`);
      const base = Date.now() / 1000 - inputs.length - 10;
      inputs.forEach((input, i) => {
        const event = { ...storedEvent(input), timestamp: base + i };
        this.stmt.event.run(row.pk, i + 1, event.timestamp, JSON.stringify(event));
      });
      this.db.prepare('UPDATE s_sessions SET last_seq = ?, revision = revision + ? WHERE pk = ?').run(inputs.length, inputs.length, row.pk);
    })();
    this.forget(key);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
