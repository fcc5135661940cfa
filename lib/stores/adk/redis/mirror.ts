// Redis has no SQL; the shared base (../base) reads SQL. The mirror is an
// in-memory SQLite database holding what the last read of Redis found, in
// the tables the base reads (MIRROR_LAYOUT), kept up to date before every
// read (at most every SYNC_EVERY_MS) and inside every write. It is
// Statehouse's own working copy, never the agent's: nothing is written to
// Redis but by the layout's writers (python-writes.ts, community-writes.ts),
// which write what that ADK writes, then read the result back into the
// mirror within the same write.
//
// A session is rewritten in the mirror only when its stored text changed;
// a session whose events only grew gets the new events appended, so the
// base's timelines (base/timeline.ts) extend rather than start again.
import Database from 'better-sqlite3';
import type { AgentDb, AgentQuery, Param, Row } from '../agent-db';
import { adkLayout } from '../layout';
import { Queue } from '../serial-queue';
import { finishTransaction } from '../sqlite-transaction';
import { redisCall } from './client';
import type { SessionRef } from '../../../session-service/store';
import type { RedisSnapshot, SessionRecord } from './snapshot';

/** Reads within this long of the last read of Redis use the mirror as it is (the console polls every second). */
export const SYNC_EVERY_MS = 250;

export const MIRROR_LAYOUT = adkLayout({
  sessionUpdateTime: 'last_update_time',
  // The stored list's order is ADK's order (events are appended to it), whatever the timestamps say.
  eventOrder: 'position',
  eventColumns: ['id', 'invocation_id', 'position', 'event'],
  searchText: 'event',
});

const DDL = `
CREATE TABLE sessions (app_name TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL, state TEXT, create_time, last_update_time,
  revision TEXT, redis_key TEXT NOT NULL, PRIMARY KEY (app_name, user_id, id));
CREATE TABLE events (id TEXT, app_name TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT NOT NULL, position INTEGER NOT NULL,
  invocation_id TEXT, event TEXT);
CREATE INDEX events_by_session ON events (app_name, user_id, session_id, position);
CREATE TABLE app_states (app_name TEXT PRIMARY KEY, state TEXT, update_time);
CREATE TABLE user_states (app_name TEXT NOT NULL, user_id TEXT NOT NULL, state TEXT, update_time, PRIMARY KEY (app_name, user_id));
`;

/** Some sessions (null: gone) and tiers (null state: gone) as Redis holds them now. */
export interface MirrorPart {
  sessions: Array<[SessionRef, SessionRecord | null]>;
  apps: Array<{ appName: string; state: string | null }>;
  users: Array<{ appName: string; userId: string; state: string | null }>;
}

/** Thrown by a writer when Redis moved on since the mirror was read: the write starts again on a fresh mirror. */
export class MirrorBehind extends Error {
  constructor() {
    super('The Redis session changed while the console wrote it.');
    this.name = 'MirrorBehind';
  }
}

/** How many times a write starts again when Redis keeps moving (an agent appending at that moment). */
const WRITE_ATTEMPTS = 5;

const refKey = (app: string, user: string, id: string) => JSON.stringify([app, user, id]);

interface Cached {
  row: string;
  events: string[];
  /** The record it was built from: the same object again (RecordMemo) means nothing changed. */
  record: SessionRecord;
}

function idOf(text: string, position: number): string {
  try {
    const value = JSON.parse(text) as { id?: unknown };
    if (value && typeof value === 'object' && typeof value.id === 'string') return value.id;
  } catch {
    // Not an object: listed by its place.
  }
  return `#${position}`;
}

function invocationOf(text: string): string | null {
  try {
    const value = JSON.parse(text) as { invocation_id?: unknown };
    return value && typeof value === 'object' && typeof value.invocation_id === 'string' ? value.invocation_id : null;
  } catch {
    return null;
  }
}

export class RedisMirror implements AgentDb {
  readonly dialect = 'sqlite' as const;
  readonly journalMode = null;
  private readonly db = new Database(':memory:');
  private readonly queue = new Queue();
  private readonly cache = new Map<string, Cached>();
  private readonly tiers = new Map<string, string>();
  private syncedAt = -Infinity;
  private readonly direct: AgentQuery;

  constructor(
    readonly location: string,
    private readonly readRedis: () => Promise<RedisSnapshot>,
    private readonly closeRedis: () => Promise<void>,
  ) {
    this.db.exec(DDL);
    this.direct = {
      all: async (sql, params = []) => this.db.prepare(sql).all(...params) as Row[],
      run: async (sql, params = []) => this.db.prepare(sql).run(...params).changes,
    };
  }

  all(sql: string, params?: Param[]): Promise<Row[]> {
    return this.read((q) => q.all(sql, params));
  }

  run(sql: string, params?: Param[]): Promise<number> {
    return this.write((q) => q.run(sql, params));
  }

  read<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    return this.queue.run(async () => {
      if (performance.now() - this.syncedAt >= SYNC_EVERY_MS) await this.sync();
      this.db.exec('BEGIN');
      return finishTransaction(this.db, this.direct, fn);
    });
  }

  /** On a fresh mirror; a writer that finds Redis moved on (MirrorBehind) makes it start again on a fresher one. */
  write<R>(fn: (q: AgentQuery) => Promise<R>): Promise<R> {
    return this.queue.run(async () => {
      for (let attempt = 1; ; attempt++) {
        await this.sync();
        this.db.exec('BEGIN');
        try {
          return await finishTransaction(this.db, this.direct, fn);
        } catch (error) {
          // Redis may hold what the failed write did before it failed: read it again next time.
          this.syncedAt = -Infinity;
          if (!(error instanceof MirrorBehind) || attempt >= WRITE_ATTEMPTS) throw error;
        }
      }
    });
  }

  /** Inside a write: reads Redis again and applies it, in the open transaction (the writer's result becomes visible to the rest of the write). */
  async refresh(): Promise<void> {
    this.apply(await redisCall(this.readRedis));
    this.syncedAt = performance.now();
  }

  /** Inside a write: these sessions (null: gone) and tiers read again, the rest of the mirror as it is. */
  applyPartial(part: MirrorPart): void {
    for (const [ref, session] of part.sessions) {
      const key = refKey(ref.appName, ref.userId, ref.sessionId);
      if (session) this.applySession(key, session);
      else this.removeSession(key);
    }
    for (const app of part.apps) this.applyTier(JSON.stringify([app.appName]), app.state);
    for (const user of part.users) this.applyTier(JSON.stringify([user.appName, user.userId]), user.state);
  }

  private async sync(): Promise<void> {
    const snapshot = await redisCall(this.readRedis);
    this.db.transaction(() => this.apply(snapshot))();
    this.syncedAt = performance.now();
  }

  /** Brings the mirror to the snapshot, touching only what changed. */
  private apply(snapshot: RedisSnapshot): void {
    const seen = new Set<string>();
    for (const session of snapshot.sessions) {
      const key = refKey(session.ref.appName, session.ref.userId, session.ref.sessionId);
      if (seen.has(key)) continue;
      seen.add(key);
      this.applySession(key, session);
    }
    for (const key of [...this.cache.keys()]) if (!seen.has(key)) this.removeSession(key);
    const tiers = new Map<string, string>();
    for (const app of snapshot.apps) tiers.set(JSON.stringify([app.appName]), app.state);
    for (const user of snapshot.users) tiers.set(JSON.stringify([user.appName, user.userId]), user.state);
    for (const [key, state] of tiers) this.applyTier(key, state);
    for (const key of [...this.tiers.keys()]) if (!tiers.has(key)) this.applyTier(key, null);
  }

  private removeSession(key: string): void {
    const [app, user, id] = JSON.parse(key) as [string, string, string];
    this.db.prepare('DELETE FROM events WHERE app_name = ? AND user_id = ? AND session_id = ?').run(app, user, id);
    this.db.prepare('DELETE FROM sessions WHERE app_name = ? AND user_id = ? AND id = ?').run(app, user, id);
    this.cache.delete(key);
  }

  /** A tier's row as found (null: its hash is gone). */
  private applyTier(key: string, state: string | null): void {
    if ((this.tiers.get(key) ?? null) === state) return;
    const [app, user] = JSON.parse(key) as [string, string?];
    if (state === null) {
      if (user === undefined) this.db.prepare('DELETE FROM app_states WHERE app_name = ?').run(app);
      else this.db.prepare('DELETE FROM user_states WHERE app_name = ? AND user_id = ?').run(app, user);
      this.tiers.delete(key);
      return;
    }
    if (user === undefined)
      this.db.prepare('INSERT OR REPLACE INTO app_states (app_name, state, update_time) VALUES (?, ?, NULL)').run(app, state);
    else
      this.db
        .prepare('INSERT OR REPLACE INTO user_states (app_name, user_id, state, update_time) VALUES (?, ?, ?, NULL)')
        .run(app, user, state);
    this.tiers.set(key, state);
  }

  private applySession(key: string, session: SessionRecord): void {
    const { appName, userId, sessionId } = session.ref;
    if (this.cache.get(key)?.record === session) return;
    const row = JSON.stringify([session.state, session.update, session.create, session.revision, session.key]);
    const cached = this.cache.get(key);
    if (cached?.row !== row) {
      this.db
        .prepare(
          'INSERT OR REPLACE INTO sessions (app_name, user_id, id, state, create_time, last_update_time, revision, redis_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(appName, userId, sessionId, session.state, session.create, session.update, session.revision, session.key);
    }
    const before = cached?.events ?? [];
    const grew = before.length <= session.events.length && before.every((text, i) => session.events[i] === text);
    if (!grew) this.db.prepare('DELETE FROM events WHERE app_name = ? AND user_id = ? AND session_id = ?').run(appName, userId, sessionId);
    const insert = this.db.prepare(
      'INSERT INTO events (id, app_name, user_id, session_id, position, invocation_id, event) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    session.events.forEach((text, position) => {
      if (grew && position < before.length) return;
      insert.run(idOf(text, position), appName, userId, sessionId, position, invocationOf(text), text);
    });
    this.cache.set(key, { row, events: session.events, record: session });
  }

  async close(): Promise<void> {
    await this.queue.run(async () => {
      this.db.close();
      await this.closeRedis();
    });
  }
}
