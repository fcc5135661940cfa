// The SQLite floor: better-sqlite3 directly, prepared statements, on
// Statehouse's own schema (same tables and indexes, migrated the same way),
// with Statehouse's semantics: per-key tier rows, a history row per change,
// an event row, a compare-and-swap on the session revision, and ONE
// transaction per append. better-sqlite3 is synchronous, so each call runs
// its transaction to completion before anything else in the process runs.
import type Database from 'better-sqlite3';
import type { Session } from '../../lib/session-service';
import { applyAppended, listedSessions, mergedState, sessionOf, storedEvent, STALE_MESSAGE, TIERS, tierRows } from './raw-common';
import type { Cause, KeyValue, SessionRow, Tier } from './raw-common';
import type { BenchEvent, BenchTarget, Delta, SeedSession, SessionKey } from './types';
import { HeldSessionsTarget } from './held-sessions';
import { openSqliteFile } from './sqlite-file';

export class RawSqliteTarget extends HeldSessionsTarget implements BenchTarget {
  readonly impl = 'raw';
  readonly provider = 'sqlite';
  /** Statements executed and transactions run, for the statement-count profile. */
  readonly counts = { statements: 0, transactions: 0 };
  private readonly db: Database.Database;
  private readonly stmt;

  constructor(file: string) {
    super();
    this.db = openSqliteFile(file, true);
    const db = this.db;
    // One object per tier, each with its own parameter types.
    const tiers = {
      app: {
        select: db.prepare<[string, string], KeyValue>('SELECT key, value FROM app_state WHERE app_name = ? AND key = ?'),
        upsert: db.prepare(
          `INSERT INTO app_state (app_name, key, value, update_time) VALUES (@app, @key, @value, @time)
           ON CONFLICT (app_name, key) DO UPDATE SET value = excluded.value, update_time = excluded.update_time`,
        ),
      },
      user: {
        select: db.prepare<[string, string, string], KeyValue>(
          'SELECT key, value FROM user_state WHERE app_name = ? AND user_id = ? AND key = ?',
        ),
        upsert: db.prepare(
          `INSERT INTO user_state (app_name, user_id, key, value, update_time) VALUES (@app, @user, @key, @value, @time)
           ON CONFLICT (app_name, user_id, key) DO UPDATE SET value = excluded.value, update_time = excluded.update_time`,
        ),
      },
      session: {
        select: db.prepare<[number, string], KeyValue>('SELECT key, value FROM session_state WHERE session_pk = ? AND key = ?'),
        upsert: db.prepare(
          `INSERT INTO session_state (session_pk, key, value) VALUES (@pk, @key, @value)
           ON CONFLICT (session_pk, key) DO UPDATE SET value = excluded.value`,
        ),
      },
    };
    this.stmt = {
      tiers,
      history: db.prepare(
        `INSERT INTO state_changes (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
           source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
         VALUES (@app, @scope, @ownerUser, @ownerSession, @key, @old, @value, @user, @session, @eventId, @eventSeq, @actor, NULL, @time)`,
      ),
      insertSession: db.prepare<[string, string, string, number, number], { pk: number }>(
        `INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
         VALUES (?, ?, ?, 0, 0, ?, ?) ON CONFLICT DO NOTHING RETURNING pk`,
      ),
      findSession: db.prepare<[string, string, string], SessionRow>(
        'SELECT pk, revision, last_seq, update_time FROM sessions WHERE app_name = ? AND user_id = ? AND id = ?',
      ),
      claim: db.prepare<[number, string, string, string, number], SessionRow>(
        `UPDATE sessions SET revision = revision + 1, last_seq = last_seq + 1, update_time = ?
         WHERE app_name = ? AND user_id = ? AND id = ? AND revision = ? RETURNING pk, revision, last_seq, update_time`,
      ),
      insertEvent: db.prepare(
        `INSERT INTO events (session_pk, seq, id, invocation_id, author, timestamp, data)
         VALUES (@pk, @seq, @id, @invocationId, @author, @timestamp, @data)`,
      ),
      appState: db.prepare<[string], KeyValue>('SELECT key, value FROM app_state WHERE app_name = ?'),
      userState: db.prepare<[string, string], KeyValue>('SELECT key, value FROM user_state WHERE app_name = ? AND user_id = ?'),
      sessionState: db.prepare<[number], KeyValue>('SELECT key, value FROM session_state WHERE session_pk = ?'),
      allEvents: db.prepare<[number], { data: string }>('SELECT data FROM events WHERE session_pk = ? ORDER BY timestamp, seq'),
      recentEvents: db.prepare<[number, number], { data: string }>(
        'SELECT data FROM events WHERE session_pk = ? ORDER BY timestamp DESC, seq DESC LIMIT ?',
      ),
      listSessions: db.prepare<[string], SessionRow & { user_id: string; id: string }>(
        'SELECT pk, user_id, id, revision, last_seq, update_time FROM sessions WHERE app_name = ? ORDER BY pk',
      ),
      listUserSessions: db.prepare<[string, string], SessionRow & { user_id: string; id: string }>(
        'SELECT pk, user_id, id, revision, last_seq, update_time FROM sessions WHERE app_name = ? AND user_id = ? ORDER BY pk',
      ),
      listSessionState: db.prepare<[string], KeyValue & { session_pk: number }>(
        `SELECT ss.session_pk, ss.key, ss.value FROM session_state ss JOIN sessions s ON s.pk = ss.session_pk WHERE s.app_name = ?`,
      ),
      listUserSessionState: db.prepare<[string, string], KeyValue & { session_pk: number }>(
        `SELECT ss.session_pk, ss.key, ss.value FROM session_state ss JOIN sessions s ON s.pk = ss.session_pk
         WHERE s.app_name = ? AND s.user_id = ?`,
      ),
      listUserState: db.prepare<[string], KeyValue & { user_id: string }>('SELECT user_id, key, value FROM user_state WHERE app_name = ?'),
      page: db.prepare<[string, number], SessionRow & { user_id: string; id: string; create_time: number }>(
        `SELECT pk, user_id, id, revision, last_seq, create_time, update_time FROM sessions WHERE app_name = ?
         ORDER BY update_time DESC, pk DESC LIMIT ?`,
      ),
      // The count the schema's triggers keep, as Statehouse reads it.
      countSessions: db.prepare<[string], { n: number }>(
        'SELECT COALESCE(SUM(sessions), 0) AS n FROM app_session_counts WHERE app_name = ?',
      ),
      userPage: db.prepare<[string, string, number], SessionRow & { user_id: string; id: string }>(
        `SELECT pk, user_id, id, revision, last_seq, update_time FROM sessions WHERE app_name = ? AND user_id = ?
         ORDER BY update_time DESC, pk DESC LIMIT ?`,
      ),
      countUserSessions: db.prepare<[string, string], { n: number }>(
        'SELECT COALESCE(SUM(sessions), 0) AS n FROM user_session_counts WHERE app_name = ? AND user_id = ?',
      ),
    };
  }

  private run<T>(fn: () => T, mode: 'immediate' | 'deferred'): T {
    this.counts.transactions++;
    const tx = this.db.transaction(fn);
    return mode === 'immediate' ? tx.immediate() : tx.deferred();
  }

  private count<T>(value: T): T {
    this.counts.statements++;
    return value;
  }

  private writeTiers(key: SessionKey, pk: number, delta: Delta, cause: Cause): void {
    const rows = tierRows(delta);
    const tiers = this.stmt.tiers;
    const oldValue = (tier: Tier, k: string): KeyValue | undefined =>
      tier === 'app'
        ? tiers.app.select.get(key.appName, k)
        : tier === 'user'
          ? tiers.user.select.get(key.appName, key.userId, k)
          : tiers.session.select.get(pk, k);
    for (const tier of TIERS) {
      const upsert = tiers[tier].upsert;
      for (const [k, value] of rows[tier]) {
        const old = this.count(oldValue(tier, k));
        this.count(upsert.run({ app: key.appName, user: key.userId, pk, key: k, value, time: cause.time }));
        this.count(
          this.stmt.history.run({
            app: key.appName,
            scope: tier,
            ownerUser: tier === 'app' ? '' : key.userId,
            ownerSession: tier === 'session' ? key.sessionId : '',
            key: k,
            old: old?.value ?? null,
            value,
            user: key.userId,
            session: key.sessionId,
            eventId: cause.eventId,
            eventSeq: cause.eventSeq,
            actor: cause.actor,
            time: cause.time,
          }),
        );
      }
    }
  }

  private state(key: SessionKey, pk: number) {
    return mergedState(
      this.count(this.stmt.appState.all(key.appName)),
      this.count(this.stmt.userState.all(key.appName, key.userId)),
      this.count(this.stmt.sessionState.all(pk)),
    );
  }

  async create(key: SessionKey, state: Delta): Promise<void> {
    const now = Date.now() / 1000;
    const session = this.run(() => {
      const row = this.count(this.stmt.insertSession.get(key.appName, key.userId, key.sessionId, now, now));
      if (!row) throw new Error(`Session already exists: ${key.sessionId}`);
      const cause = { eventId: null, eventSeq: null, actor: 'session:create', time: now };
      this.writeTiers(key, row.pk, state, cause);
      return this.state(key, row.pk);
    }, 'immediate');
    this.holdCreated(key, session, now);
  }

  async append(key: SessionKey, input: BenchEvent): Promise<void> {
    const session = this.held(key);
    const event = storedEvent(input);
    const data = JSON.stringify(event);
    const revision = this.run(() => {
      const row = this.count(this.stmt.claim.get(event.timestamp, key.appName, key.userId, key.sessionId, session.revision));
      if (!row) {
        throw new Error(
          this.stmt.findSession.get(key.appName, key.userId, key.sessionId) ? STALE_MESSAGE : `Session ${key.sessionId} not found.`,
        );
      }
      this.count(
        this.stmt.insertEvent.run({
          pk: row.pk,
          seq: row.last_seq,
          id: event.id,
          invocationId: event.invocationId,
          author: event.author,
          timestamp: event.timestamp,
          data,
        }),
      );
      const cause = {
        eventId: event.id,
        eventSeq: row.last_seq,
        actor: event.author,
        time: event.timestamp,
      };
      this.writeTiers(key, row.pk, event.actions.stateDelta, cause);
      return row.revision;
    }, 'immediate');
    applyAppended(session, event, input.stateDelta, revision);
  }

  protected read(key: SessionKey, numRecentEvents: number | undefined): Session | null {
    return this.run(() => {
      const row = this.count(this.stmt.findSession.get(key.appName, key.userId, key.sessionId));
      if (!row) return null;
      const state = this.state(key, row.pk);
      const rows =
        numRecentEvents === undefined
          ? this.count(this.stmt.allEvents.all(row.pk))
          : numRecentEvents === 0
            ? []
            : this.count(this.stmt.recentEvents.all(row.pk, numRecentEvents)).reverse();
      return sessionOf(key, row, state, rows);
    }, 'deferred');
  }

  async list(appName: string, userId?: string): Promise<number> {
    const sessions = this.run(() => {
      const rows = this.count(userId === undefined ? this.stmt.listSessions.all(appName) : this.stmt.listUserSessions.all(appName, userId));
      const sessionState = this.count(
        userId === undefined ? this.stmt.listSessionState.all(appName) : this.stmt.listUserSessionState.all(appName, userId),
      );
      const userState = this.count(
        userId === undefined
          ? this.stmt.listUserState.all(appName)
          : this.stmt.userState.all(appName, userId).map((r) => ({ ...r, user_id: userId })),
      );
      const appState = this.count(this.stmt.appState.all(appName));
      return listedSessions(rows, appState, userState, sessionState);
    }, 'deferred');
    return sessions.length;
  }

  async listPage(appName: string, limit: number): Promise<{ items: number; total: number }> {
    return this.run(() => {
      const rows = this.count(this.stmt.page.all(appName, limit));
      const total = this.count(this.stmt.countSessions.get(appName))?.n ?? 0;
      return { items: rows.length, total };
    }, 'deferred');
  }

  /** A page with merged state: the page's rows, then each one's session state and its user's, and the app's. */
  async sessionPage(appName: string, userId: string | undefined, limit: number): Promise<{ items: number; total: number }> {
    return this.run(() => {
      const rows = this.count(userId === undefined ? this.stmt.page.all(appName, limit) : this.stmt.userPage.all(appName, userId, limit));
      const app = this.count(this.stmt.appState.all(appName));
      const users = new Map<string, KeyValue[]>();
      const sessions = rows.map((row) => {
        let user = users.get(row.user_id);
        if (!user) users.set(row.user_id, (user = this.count(this.stmt.userState.all(appName, row.user_id))));
        return mergedState(app, user, this.count(this.stmt.sessionState.all(row.pk)));
      });
      const counted = userId === undefined ? this.stmt.countSessions.get(appName) : this.stmt.countUserSessions.get(appName, userId);
      return { items: sessions.length, total: this.count(counted)?.n ?? 0 };
    }, 'deferred');
  }

  async seedSessions(appName: string, sessions: SeedSession[]): Promise<void> {
    const now = Date.now() / 1000;
    const insertUser = this.db.prepare(
      `INSERT INTO user_state (app_name, user_id, key, value, update_time) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (app_name, user_id, key) DO UPDATE SET value = excluded.value`,
    );
    const insertApp = this.db.prepare(
      `INSERT INTO app_state (app_name, key, value, update_time) VALUES (?, ?, ?, ?)
       ON CONFLICT (app_name, key) DO UPDATE SET value = excluded.value`,
    );
    const insertState = this.db.prepare('INSERT INTO session_state (session_pk, key, value) VALUES (?, ?, ?)');
    this.db
      .transaction(() => {
        for (const s of sessions) {
          const row = this.stmt.insertSession.get(appName, s.userId, s.sessionId, now, now);
          if (!row) throw new Error(`Session already exists: ${s.sessionId}`);
          const rows = tierRows(s.state);
          for (const [k, v] of rows.app) insertApp.run(appName, k, v, now);
          for (const [k, v] of rows.user) insertUser.run(appName, s.userId, k, v, now);
          for (const [k, v] of rows.session) insertState.run(row.pk, k, v);
        }
      })
      .immediate();
  }

  async seedEvents(key: SessionKey, events: BenchEvent[]): Promise<void> {
    this.db
      .transaction(() => {
        const row = this.stmt.findSession.get(key.appName, key.userId, key.sessionId);
        if (!row) throw new Error(`Session ${key.sessionId} not found.`);
        let seq = row.last_seq;
        let last = row.update_time;
        for (const input of events) {
          const event = storedEvent(input);
          seq++;
          last = event.timestamp;
          this.stmt.insertEvent.run({
            pk: row.pk,
            seq,
            id: event.id,
            invocationId: event.invocationId,
            author: event.author,
            timestamp: event.timestamp,
            data: JSON.stringify(event),
          });
        }
        this.db
          .prepare('UPDATE sessions SET last_seq = ?, revision = revision + ?, update_time = ? WHERE pk = ?')
          .run(seq, events.length, last, row.pk);
      })
      .immediate();
    this.forget(key);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
