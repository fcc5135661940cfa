// The PostgreSQL floor: node-postgres directly on Statehouse's own schema,
// with Statehouse's semantics: per-key tier rows (existing rows locked in key
// order, so concurrent writers of one user never lose each other's keys), a
// history row per change, an event row, a compare-and-swap on the session
// revision, ONE transaction per append. Per tier: one SELECT ... FOR UPDATE for
// the old values, one statement that upserts and records the history.
import pg from 'pg';
import { pooledTransaction } from '../../lib/db/pooled-transaction';
import type { Session } from '../../lib/session-service';
import { applyAppended, groupBy, listedSessions, mergedState, sessionOf, storedEvent, STALE_MESSAGE, TIERS, tierRows } from './raw-common';
import type { Cause, KeyValue, SessionRow, Tier, TierRows } from './raw-common';
import type { BenchEvent, BenchTarget, Delta, SeedSession, SessionKey } from './types';
import { HeldSessionsTarget } from './held-sessions';

interface TierSql {
  table: string;
  /** Owner columns, and the owner condition with $1.. placeholders. */
  columns: string[];
  conflict: string;
  updateTime: boolean;
}

const TIER_SQL: Record<Tier, TierSql> = {
  app: { table: 'app_state', columns: ['app_name'], conflict: 'app_name, key', updateTime: true },
  user: { table: 'user_state', columns: ['app_name', 'user_id'], conflict: 'app_name, user_id, key', updateTime: true },
  session: { table: 'session_state', columns: ['session_pk'], conflict: 'session_pk, key', updateTime: false },
};

function selectOldSql(tier: Tier): string {
  const t = TIER_SQL[tier];
  const owner = t.columns.map((c, i) => `${c} = $${i + 1}`).join(' AND ');
  return `SELECT key, value FROM ${t.table} WHERE ${owner} AND key = ANY($${t.columns.length + 1}::text[]) ORDER BY key FOR UPDATE`;
}

/** Params: owner columns..., keys, values, olds, time, app, ownerUser, ownerSession, srcUser, srcSession, eventId, eventSeq, actor. */
function upsertSql(tier: Tier): string {
  const t = TIER_SQL[tier];
  const n = t.columns.length;
  const p = (i: number) => `$${n + i}`;
  const ownerValues = t.columns.map((_, i) => `$${i + 1}`).join(', ');
  const columns = [...t.columns, 'key', 'value', ...(t.updateTime ? ['update_time'] : [])].join(', ');
  const values = [ownerValues, 'key', 'value', ...(t.updateTime ? [`${p(4)}::float8`] : [])].join(', ');
  const set = t.updateTime ? 'value = excluded.value, update_time = excluded.update_time' : 'value = excluded.value';
  return `WITH input AS (SELECT * FROM unnest(${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[]) AS i(key, value, old)),
    up AS (INSERT INTO ${t.table} (${columns}) SELECT ${values} FROM input ORDER BY key
           ON CONFLICT (${t.conflict}) DO UPDATE SET ${set})
    INSERT INTO state_changes (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
      source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
    SELECT ${p(5)}, '${tier}', ${p(6)}, ${p(7)}, key, old, value, ${p(8)}, ${p(9)}, ${p(10)}, ${p(11)}::int, ${p(12)}, NULL, ${p(4)}::float8 FROM input`;
}

const SQL = {
  selectOld: { app: selectOldSql('app'), user: selectOldSql('user'), session: selectOldSql('session') },
  upsert: { app: upsertSql('app'), user: upsertSql('user'), session: upsertSql('session') },
  insertSession: `INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
    VALUES ($1, $2, $3, 0, 0, $4, $4) ON CONFLICT DO NOTHING RETURNING pk`,
  findSession: 'SELECT pk, revision, last_seq, update_time FROM sessions WHERE app_name = $1 AND user_id = $2 AND id = $3',
  claim: `UPDATE sessions SET revision = revision + 1, last_seq = last_seq + 1, update_time = $1
    WHERE app_name = $2 AND user_id = $3 AND id = $4 AND revision = $5 RETURNING pk, revision, last_seq, update_time`,
  insertEvent: `INSERT INTO events (session_pk, seq, id, invocation_id, author, timestamp, data) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  appState: 'SELECT key, value FROM app_state WHERE app_name = $1',
  userState: 'SELECT key, value FROM user_state WHERE app_name = $1 AND user_id = $2',
  sessionState: 'SELECT key, value FROM session_state WHERE session_pk = $1',
  allEvents: 'SELECT data FROM events WHERE session_pk = $1 ORDER BY timestamp, seq',
  recentEvents: 'SELECT data FROM events WHERE session_pk = $1 ORDER BY timestamp DESC, seq DESC LIMIT $2',
};

export class RawPostgresTarget extends HeldSessionsTarget implements BenchTarget {
  readonly impl = 'raw';
  readonly provider = 'postgresql';
  readonly counts = { statements: 0, transactions: 0 };
  private readonly pool: pg.Pool;

  constructor(url: string) {
    super();
    // Same pool size as Prisma's pg adapter (pg.Pool's default of 10).
    this.pool = new pg.Pool({ connectionString: url, max: 10 });
  }

  private async transaction<T>(
    begin: string,
    fn: (q: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>) => Promise<T>,
  ): Promise<T> {
    this.counts.transactions++;
    const client = await this.pool.connect();
    const q = async <R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]> => {
      this.counts.statements++;
      return (await client.query<R>(text, values)).rows;
    };
    // BEGIN and COMMIT are counted as the transaction, not as statements (as Prisma's are).
    return pooledTransaction(client, begin, () => fn(q));
  }

  private async writeTiers(
    q: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>,
    key: SessionKey,
    pk: number,
    delta: Delta,
    cause: Cause,
  ): Promise<void> {
    const rows = tierRows(delta);
    for (const tier of TIERS) {
      const entries: TierRows = rows[tier];
      if (entries.length === 0) continue;
      const owner = tier === 'app' ? [key.appName] : tier === 'user' ? [key.appName, key.userId] : [pk];
      const keys = entries.map(([k]) => k);
      const old = new Map((await q<KeyValue>(SQL.selectOld[tier], [...owner, keys])).map((r) => [r.key, r.value]));
      await q(SQL.upsert[tier], [
        ...owner,
        keys,
        entries.map(([, v]) => v),
        keys.map((k) => old.get(k) ?? null),
        cause.time,
        key.appName,
        tier === 'app' ? '' : key.userId,
        tier === 'session' ? key.sessionId : '',
        key.userId,
        key.sessionId,
        cause.eventId,
        cause.eventSeq,
        cause.actor,
      ]);
    }
  }

  async create(key: SessionKey, state: Delta): Promise<void> {
    const now = Date.now() / 1000;
    const session = await this.transaction('BEGIN', async (q) => {
      const row = (await q<{ pk: number }>(SQL.insertSession, [key.appName, key.userId, key.sessionId, now]))[0];
      if (!row) throw new Error(`Session already exists: ${key.sessionId}`);
      await this.writeTiers(q, key, row.pk, state, { eventId: null, eventSeq: null, actor: 'session:create', time: now });
      return this.state(q, key, row.pk);
    });
    this.holdCreated(key, session, now);
  }

  private async state(q: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>, key: SessionKey, pk: number) {
    const app = await q<KeyValue>(SQL.appState, [key.appName]);
    const user = await q<KeyValue>(SQL.userState, [key.appName, key.userId]);
    const session = await q<KeyValue>(SQL.sessionState, [pk]);
    return mergedState(app, user, session);
  }

  async append(key: SessionKey, input: BenchEvent): Promise<void> {
    const session = this.held(key);
    const event = storedEvent(input);
    const data = JSON.stringify(event);
    const revision = await this.transaction('BEGIN', async (q) => {
      const row = (await q<SessionRow>(SQL.claim, [event.timestamp, key.appName, key.userId, key.sessionId, session.revision]))[0];
      if (!row) {
        const exists = (await q(SQL.findSession, [key.appName, key.userId, key.sessionId])).length > 0;
        throw new Error(exists ? STALE_MESSAGE : `Session ${key.sessionId} not found.`);
      }
      await q(SQL.insertEvent, [row.pk, row.last_seq, event.id, event.invocationId, event.author, event.timestamp, data]);
      await this.writeTiers(q, key, row.pk, event.actions.stateDelta, {
        eventId: event.id,
        eventSeq: row.last_seq,
        actor: event.author,
        time: event.timestamp,
      });
      return row.revision;
    });
    applyAppended(session, event, input.stateDelta, revision);
  }

  protected read(key: SessionKey, numRecentEvents: number | undefined): Promise<Session | null> {
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ', async (q) => {
      const row = (await q<SessionRow>(SQL.findSession, [key.appName, key.userId, key.sessionId]))[0];
      if (!row) return null;
      const state = await this.state(q, key, row.pk);
      const rows =
        numRecentEvents === undefined
          ? await q<{ data: string }>(SQL.allEvents, [row.pk])
          : numRecentEvents === 0
            ? []
            : (await q<{ data: string }>(SQL.recentEvents, [row.pk, numRecentEvents])).reverse();
      return sessionOf(key, row, state, rows);
    });
  }

  async list(appName: string, userId?: string): Promise<number> {
    const byUser = userId === undefined ? '' : ' AND user_id = $2';
    const bySessionUser = userId === undefined ? '' : ' AND s.user_id = $2';
    const params = userId === undefined ? [appName] : [appName, userId];
    const sessions = await this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ', async (q) => {
      const rows = await q<SessionRow & { id: string; user_id: string }>(
        `SELECT pk, user_id, id, revision, last_seq, update_time FROM sessions WHERE app_name = $1${byUser} ORDER BY pk`,
        params,
      );
      const sessionState = await q<KeyValue & { session_pk: number }>(
        `SELECT ss.session_pk, ss.key, ss.value FROM session_state ss JOIN sessions s ON s.pk = ss.session_pk
         WHERE s.app_name = $1${bySessionUser}`,
        params,
      );
      const userState = await q<KeyValue & { user_id: string }>(
        `SELECT user_id, key, value FROM user_state WHERE app_name = $1${byUser}`,
        params,
      );
      const appState = await q<KeyValue>(SQL.appState, [appName]);
      return listedSessions(rows, appState, userState, sessionState);
    });
    return sessions.length;
  }

  async listPage(appName: string, limit: number): Promise<{ items: number; total: number }> {
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ', async (q) => {
      const rows = await q<SessionRow & { id: string; user_id: string }>(
        `SELECT pk, user_id, id, revision, last_seq, create_time, update_time FROM sessions WHERE app_name = $1
         ORDER BY update_time DESC, pk DESC LIMIT $2`,
        [appName, limit],
      );
      // The count the schema's triggers keep, as Statehouse reads it.
      const total = await q<{ n: string }>('SELECT COALESCE(SUM(sessions), 0) AS n FROM app_session_counts WHERE app_name = $1', [appName]);
      return { items: rows.length, total: Number(total[0]?.n ?? 0) };
    });
  }

  /** A page with merged state: the page's rows; their session state, their users' and the app's in one statement each; the total. */
  async sessionPage(appName: string, userId: string | undefined, limit: number): Promise<{ items: number; total: number }> {
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ', async (q) => {
      const byUser = userId === undefined ? '' : ' AND user_id = $3';
      const rows = await q<SessionRow & { id: string; user_id: string }>(
        `SELECT pk, user_id, id, revision, last_seq, update_time FROM sessions WHERE app_name = $1${byUser}
         ORDER BY update_time DESC, pk DESC LIMIT $2`,
        userId === undefined ? [appName, limit] : [appName, limit, userId],
      );
      const pks = rows.map((r) => r.pk);
      const userIds = [...new Set(rows.map((r) => r.user_id))];
      const sessionState = await q<KeyValue & { session_pk: number }>(
        'SELECT session_pk, key, value FROM session_state WHERE session_pk = ANY($1::int[])',
        [pks],
      );
      const userState = await q<KeyValue & { user_id: string }>(
        'SELECT user_id, key, value FROM user_state WHERE app_name = $1 AND user_id = ANY($2::text[])',
        [appName, userIds],
      );
      const app = await q<KeyValue>(SQL.appState, [appName]);
      const total = await q<{ n: string }>(
        userId === undefined
          ? 'SELECT COALESCE(SUM(sessions), 0) AS n FROM app_session_counts WHERE app_name = $1'
          : 'SELECT COALESCE(SUM(sessions), 0) AS n FROM user_session_counts WHERE app_name = $1 AND user_id = $2',
        userId === undefined ? [appName] : [appName, userId],
      );
      const bySession = groupBy(sessionState, (r) => r.session_pk);
      const byUserId = groupBy(userState, (r) => r.user_id);
      const sessions = rows.map((row) => mergedState(app, byUserId.get(row.user_id) ?? [], bySession.get(row.pk) ?? []));
      return { items: sessions.length, total: Number(total[0]?.n ?? 0) };
    });
  }

  async seedSessions(appName: string, sessions: SeedSession[]): Promise<void> {
    const now = Date.now() / 1000;
    await this.transaction('BEGIN', async (q) => {
      const inserted = await q<{ pk: number; id: string; user_id: string }>(
        `INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
         SELECT $1, u, i, 0, 0, $4, $4 FROM unnest($2::text[], $3::text[]) AS t(u, i) RETURNING pk, id, user_id`,
        [appName, sessions.map((s) => s.userId), sessions.map((s) => s.sessionId), now],
      );
      const pkOf = new Map(inserted.map((r) => [`${r.user_id}\u0000${r.id}`, r.pk]));
      const app = new Map<string, string>();
      const user = new Map<string, [string, string, string]>();
      const state: [number, string, string][] = [];
      for (const s of sessions) {
        const rows = tierRows(s.state);
        for (const [k, v] of rows.app) app.set(k, v);
        for (const [k, v] of rows.user) user.set(`${s.userId}\u0000${k}`, [s.userId, k, v]);
        const pk = pkOf.get(`${s.userId}\u0000${s.sessionId}`);
        if (pk === undefined) throw new Error('seeded session missing');
        for (const [k, v] of rows.session) state.push([pk, k, v]);
      }
      await q(
        `INSERT INTO app_state (app_name, key, value, update_time) SELECT $1, k, v, $4 FROM unnest($2::text[], $3::text[]) AS t(k, v)
         ON CONFLICT (app_name, key) DO UPDATE SET value = excluded.value`,
        [appName, [...app.keys()], [...app.values()], now],
      );
      const users = [...user.values()];
      await q(
        `INSERT INTO user_state (app_name, user_id, key, value, update_time)
         SELECT $1, u, k, v, $5 FROM unnest($2::text[], $3::text[], $4::text[]) AS t(u, k, v)
         ON CONFLICT (app_name, user_id, key) DO UPDATE SET value = excluded.value`,
        [appName, users.map((u) => u[0]), users.map((u) => u[1]), users.map((u) => u[2]), now],
      );
      await q(`INSERT INTO session_state (session_pk, key, value) SELECT * FROM unnest($1::int[], $2::text[], $3::text[])`, [
        state.map((s) => s[0]),
        state.map((s) => s[1]),
        state.map((s) => s[2]),
      ]);
    });
    await this.analyze();
  }

  /**
   * Planner statistics after a bulk load, as autovacuum would have gathered
   * them long before a real table grew this large (without them the planner
   * may sort a whole app where an index range would do).
   */
  private async analyze(): Promise<void> {
    await this.pool.query('ANALYZE');
  }

  async seedEvents(key: SessionKey, inputs: BenchEvent[]): Promise<void> {
    await this.transaction('BEGIN', async (q) => {
      const row = (await q<SessionRow>(SQL.findSession, [key.appName, key.userId, key.sessionId]))[0];
      if (!row) throw new Error(`Session ${key.sessionId} not found.`);
      const events = inputs.map(storedEvent);
      const seqs = events.map((_, i) => row.last_seq + i + 1);
      await q(
        `INSERT INTO events (session_pk, seq, id, invocation_id, author, timestamp, data)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::text[])`,
        [
          row.pk,
          seqs,
          events.map((e) => e.id),
          events.map((e) => e.invocationId),
          events.map((e) => e.author),
          events.map((e) => e.timestamp),
          events.map((e) => JSON.stringify(e)),
        ],
      );
      const last = events.at(-1)?.timestamp ?? row.update_time;
      await q('UPDATE sessions SET last_seq = $1, revision = revision + $2, update_time = $3 WHERE pk = $4', [
        row.last_seq + events.length,
        events.length,
        last,
        row.pk,
      ]);
    });
    await this.analyze();
    this.forget(key);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
