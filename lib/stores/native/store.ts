import { empty, join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { containsPattern, readIsolation, toNumber, toNumberOrNull, type Dialect } from './dialect';
import { invalidInput, sessionAlreadyExists, sessionNotFound, staleSession } from '../../session-service/errors';
import { completeEvent, newId, nowSeconds, storedForm } from '../../session-service/events';
import { encodeJson, ownEntries, setOwn } from '../../session-service/json';
import { applyToSession } from '../../session-service/append';
import {
  decodeEvent,
  recordOf,
  SOURCE_COLUMNS,
  stateChange,
  stateEntry,
  type ChangeRow,
  type EntryRow,
  type KeyValueRow,
} from './rows';
import { mergeState, scopeOfKey, splitDelta, type ScopedDelta } from '../../session-service/scope';
import type {
  AppendOptions,
  AppendResult,
  CreateSessionRequest,
  DataScope,
  EventQuery,
  KeyHistoryRequest,
  ListSessionsRequest,
  PageRequest,
  SessionRef,
  SessionSearch,
  SessionStore,
  StateEdit,
  UserListRequest,
} from '../../session-service/store';
import {
  decodeSnapshot,
  mergedStateSql,
  runSteps,
  runStepsAsync,
  sessionSnapshotSql,
  sqliteSessionRead,
  stateOfRows,
  type SnapshotRow,
  type TierRow,
} from './session-read';
import type { SqlClient, SqlExecutor } from '../../db/sql';
import { writeTier, type ChangeCause, type TierChanges, type TierOwner } from './tier-writes';
import type {
  AppSummary,
  Event,
  GetSessionConfig,
  NewEvent,
  Page,
  Session,
  SessionSummary,
  SessionTiers,
  StateChange,
  StateEntry,
  StateRecord,
  StoredEvent,
  UserSummary,
} from '../../session-service/types';

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;
/** Matches of a narrowed session search counted past the page's offset; beyond, the total is a lower bound. */
export const SEARCH_COUNT_LIMIT = 10_000;

export interface ServiceOptions {
  /** SEARCH_COUNT_LIMIT by default; tests lower it. */
  searchCountLimit?: number;
}

interface SessionRow {
  pk: unknown;
  app_name: string;
  user_id: string;
  id: string;
  revision: unknown;
  last_seq: unknown;
  create_time: unknown;
  update_time: unknown;
}

const SESSION_COLUMNS = sql`pk, app_name, user_id, id, revision, last_seq, create_time, update_time`;

const SESSION_ORDER: Record<NonNullable<SessionSearch['order']>, Sql> = {
  recent: sql`update_time DESC, pk DESC`,
  oldest: sql`update_time, pk`,
};

const USER_ORDER: Record<NonNullable<UserListRequest['order']>, Sql> = {
  recent: sql`last DESC, user_id`,
  sessions: sql`sessions DESC, last DESC, user_id`,
  id: sql`user_id`,
};

/** An ORDER BY for a caller's choice; anything outside the table is an INVALID_INPUT, never SQL. */
function orderBy<K extends string>(choices: Record<K, Sql>, choice: string | undefined, fallback: K): Sql {
  const key = choice ?? fallback;
  if (!Object.hasOwn(choices, key)) {
    throw invalidInput(`order must be one of ${Object.keys(choices).join(', ')}; got ${JSON.stringify(key)}.`);
  }
  return choices[key as K];
}

function summaryOf(row: SessionRow): SessionSummary {
  return {
    id: row.id,
    appName: row.app_name,
    userId: row.user_id,
    createTime: toNumber(row.create_time),
    lastUpdateTime: toNumber(row.update_time),
    eventCount: toNumber(row.last_seq),
    revision: toNumber(row.revision),
  };
}

function pageBounds(page: PageRequest | undefined): { limit: number; offset: number } {
  const limit = page?.limit ?? DEFAULT_PAGE_SIZE;
  const offset = page?.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalidInput(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  }
  if (!Number.isInteger(offset) || offset < 0) throw invalidInput('offset must be a non-negative integer.');
  return { limit, offset };
}

function tierChanges(record: StateRecord): TierChanges {
  return ownEntries(record);
}

/**
 * ADK's session service on a Prisma client (SQLite or PostgreSQL through
 * driver adapters). Every write is one transaction; appends are guarded by a
 * compare-and-swap on the session's revision, shared tiers by per-key rows.
 */
export class NativeSessionStore implements SessionStore {
  private readonly searchCountLimit: number;

  constructor(
    private readonly client: SqlClient,
    private readonly dialect: Dialect,
    options: ServiceOptions = {},
  ) {
    this.searchCountLimit = options.searchCountLimit ?? SEARCH_COUNT_LIMIT;
  }

  private read<R>(fn: (tx: SqlExecutor) => Promise<R>): Promise<R> {
    // One snapshot for multi-statement reads; on SQLite this also queues
    // behind the adapter's open write transaction instead of reading into it.
    return this.client.$transaction(fn, readIsolation(this.dialect));
  }

  private write<R>(fn: (tx: SqlExecutor) => Promise<R>): Promise<R> {
    return this.client.$transaction(fn);
  }

  async createSession(request: CreateSessionRequest, options: AppendOptions = {}): Promise<Session> {
    const sessionId = request.sessionId?.trim() || newId();
    const now = nowSeconds();
    const split = splitDelta(request.state ?? {});
    // Every event is completed (and so checked) before anything is written.
    const pending = (request.events ?? []).map(completeEvent).filter((event) => !event.partial).map(pendingEvent);
    const ref: SessionRef = { appName: request.appName, userId: request.userId, sessionId };
    const { state, revisions } = await this.write(async (tx) => {
      const inserted = await tx.$queryRaw<{ pk: unknown }[]>(
        sql`INSERT INTO sessions (app_name, user_id, id, revision, last_seq, create_time, update_time)
            VALUES (${request.appName}, ${request.userId}, ${sessionId}, 0, 0, ${now}, ${now})
            ON CONFLICT DO NOTHING RETURNING pk`,
      );
      const pk = inserted[0]?.pk;
      if (pk === undefined) throw sessionAlreadyExists(sessionId);
      const owner = { ...ref, sessionPk: toNumber(pk) };
      const cause: ChangeCause = {
        actor: 'session:create',
        reason: null,
        time: now,
        sourceUserId: request.userId,
        sourceSessionId: sessionId,
        eventId: null,
        eventSeq: null,
      };
      await this.writeScoped(tx, owner, split, cause);
      const state = await this.mergedState(tx, request.appName, request.userId, owner.sessionPk);
      // The initial events go through the same path as appendEvent, in this transaction.
      const revisions: number[] = [];
      let revision = 0;
      for (const event of pending) {
        revision = await this.insertEvent(tx, ref, revision, event, options);
        revisions.push(revision);
      }
      return { state, revisions };
    });
    const session: Session = {
      id: sessionId,
      appName: request.appName,
      userId: request.userId,
      state,
      events: [],
      lastUpdateTime: now,
      revision: 0,
    };
    pending.forEach(({ event, stored }, i) => applyToSession(session, event, stored, revisions[i] ?? session.revision));
    return session;
  }

  private async writeScoped(
    tx: SqlExecutor,
    owner: Omit<TierOwner, 'scope'>,
    split: ScopedDelta,
    cause: ChangeCause,
  ): Promise<void> {
    // Fixed order (app, user, session) so concurrent writers lock in the same order.
    await writeTier(tx, this.dialect, { ...owner, scope: 'app' }, tierChanges(split.app), cause);
    await writeTier(tx, this.dialect, { ...owner, scope: 'user' }, tierChanges(split.user), cause);
    await writeTier(tx, this.dialect, { ...owner, scope: 'session' }, tierChanges(split.session), cause);
  }

  private async mergedState(tx: SqlExecutor, appName: string, userId: string, sessionPk: number): Promise<StateRecord> {
    return stateOfRows(await tx.$queryRaw<TierRow[]>(mergedStateSql(appName, userId, sessionPk)));
  }

  private async findSession(tx: SqlExecutor, ref: SessionRef): Promise<SessionRow | null> {
    const rows = await tx.$queryRaw<SessionRow[]>(
      sql`SELECT ${SESSION_COLUMNS} FROM sessions
          WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND id = ${ref.sessionId}`,
    );
    return rows[0] ?? null;
  }

  async getSession(ref: SessionRef, config: GetSessionConfig = {}): Promise<Session | null> {
    const { numRecentEvents, afterTimestamp } = config;
    if (numRecentEvents !== undefined && (!Number.isInteger(numRecentEvents) || numRecentEvents < 0)) {
      throw invalidInput('numRecentEvents must be a non-negative integer.');
    }
    if (afterTimestamp !== undefined && !Number.isFinite(afterTimestamp)) {
      throw invalidInput('afterTimestamp must be a number of seconds.');
    }
    if (this.dialect === 'postgresql') {
      // One statement is one snapshot: no transaction needed (session-read.ts).
      const rows = await this.client.$queryRaw<SnapshotRow[]>(sessionSnapshotSql(ref, numRecentEvents, afterTimestamp));
      return decodeSnapshot(ref, rows);
    }
    const steps = () => sqliteSessionRead(ref, numRecentEvents, afterTimestamp);
    const now = this.client.$readNow?.((tx) => runSteps(steps(), (statement) => tx.queryRows(statement)));
    if (now) return now.result;
    return this.read((tx) => runStepsAsync(steps(), (statement) => tx.$queryRaw(statement)));
  }

  async listSessions(request: ListSessionsRequest): Promise<{ sessions: Session[] }> {
    const byUser = request.userId === undefined ? empty : sql` AND user_id = ${request.userId}`;
    const bySessionUser = request.userId === undefined ? empty : sql` AND s.user_id = ${request.userId}`;
    return this.read(async (tx) => {
      const [rows, sessionState, userState, appState] = await Promise.all([
        tx.$queryRaw<SessionRow[]>(
          sql`SELECT ${SESSION_COLUMNS} FROM sessions WHERE app_name = ${request.appName}${byUser} ORDER BY pk`,
        ),
        tx.$queryRaw<(KeyValueRow & { session_pk: unknown })[]>(
          sql`SELECT ss.session_pk, ss.key, ss.value FROM session_state ss JOIN sessions s ON s.pk = ss.session_pk
              WHERE s.app_name = ${request.appName}${bySessionUser}`,
        ),
        tx.$queryRaw<(KeyValueRow & { user_id: string })[]>(
          sql`SELECT user_id, key, value FROM user_state WHERE app_name = ${request.appName}${byUser}`,
        ),
        tx.$queryRaw<KeyValueRow[]>(sql`SELECT key, value FROM app_state WHERE app_name = ${request.appName}`),
      ]);
      const app = recordOf(appState);
      const sessionRows = groupBy(sessionState, (row) => toNumber(row.session_pk));
      const userRows = groupBy(userState, (row) => row.user_id);
      const sessions = rows.map((row) => ({
        id: row.id,
        appName: row.app_name,
        userId: row.user_id,
        state: mergeState(
          app,
          recordOf(userRows.get(row.user_id) ?? []),
          recordOf(sessionRows.get(toNumber(row.pk)) ?? []),
        ),
        events: [],
        lastUpdateTime: toNumber(row.update_time),
        revision: toNumber(row.revision),
      }));
      return { sessions };
    });
  }

  async deleteSession(ref: SessionRef): Promise<void> {
    await this.write(async (tx) => {
      await tx.$executeRaw(
        sql`DELETE FROM sessions WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND id = ${ref.sessionId}`,
      );
      // The session tier's history goes with it; a new session may reuse the id.
      await tx.$executeRaw(
        sql`DELETE FROM state_changes WHERE app_name = ${ref.appName} AND scope = 'session'
            AND owner_user_id = ${ref.userId} AND owner_session_id = ${ref.sessionId}`,
      );
    });
  }

  async clearData(scope: DataScope): Promise<void> {
    const { appName, userId } = scope;
    await this.write(async (tx) => {
      if (userId === undefined) {
        await tx.$executeRaw(sql`DELETE FROM sessions WHERE app_name = ${appName}`);
        await tx.$executeRaw(sql`DELETE FROM app_state WHERE app_name = ${appName}`);
        await tx.$executeRaw(sql`DELETE FROM user_state WHERE app_name = ${appName}`);
        await tx.$executeRaw(sql`DELETE FROM state_changes WHERE app_name = ${appName}`);
      } else {
        await tx.$executeRaw(sql`DELETE FROM sessions WHERE app_name = ${appName} AND user_id = ${userId}`);
        await tx.$executeRaw(sql`DELETE FROM user_state WHERE app_name = ${appName} AND user_id = ${userId}`);
        await tx.$executeRaw(
          sql`DELETE FROM state_changes WHERE app_name = ${appName} AND scope <> 'app' AND owner_user_id = ${userId}`,
        );
      }
      // The triggers spread an app's counts over slots and leave emptied ones behind; recounted, an
      // app left without sessions has no count rows, as if it never had any. A slot row a concurrent
      // create committed meanwhile is overwritten with a count that includes its session (ON CONFLICT).
      await tx.$executeRaw(sql`DELETE FROM app_session_counts WHERE app_name = ${appName}`);
      await tx.$executeRaw(
        sql`INSERT INTO app_session_counts (app_name, slot, sessions, users)
            SELECT app_name, pk % 16, COUNT(*), 0 FROM sessions WHERE app_name = ${appName} GROUP BY app_name, pk % 16
            ON CONFLICT (app_name, slot) DO UPDATE SET sessions = excluded.sessions, users = 0`,
      );
      await tx.$executeRaw(
        sql`INSERT INTO app_session_counts (app_name, slot, sessions, users)
            SELECT app_name, 0, 0, COUNT(*) FROM user_session_counts WHERE app_name = ${appName} GROUP BY app_name
            ON CONFLICT (app_name, slot) DO UPDATE SET users = excluded.users`,
      );
    });
  }

  async append(ref: SessionRef, newEvent: NewEvent, options: AppendOptions = {}): Promise<AppendResult> {
    const event = completeEvent(newEvent);
    if (event.partial) {
      const summary = await this.getSessionSummary(ref);
      if (!summary) throw sessionNotFound(ref.sessionId);
      return { event, revision: summary.revision };
    }
    const pending = pendingEvent(event);
    const revision = await this.write((tx) => this.insertEvent(tx, ref, options.expectedRevision, pending, options));
    return { event: pending.stored, revision };
  }

  /**
   * Stores one event on a session (at `revision`, when given) and persists
   * its delta by scope, inside the caller's transaction; returns the
   * session's new revision.
   */
  private async insertEvent(
    tx: SqlExecutor,
    ref: SessionRef,
    revision: number | undefined,
    { stored, data, split }: PendingEvent,
    options: AppendOptions,
  ): Promise<number> {
    // Compare-and-swap on the revision: the first statement is a write, so
    // SQLite takes its write lock here and PostgreSQL locks the row; a
    // second, stale copy finds the revision moved on.
    const row = await this.claimAndInsert(tx, ref, revision, stored, data);
    if (!row) {
      throw (await this.findSession(tx, ref)) ? staleSession() : sessionNotFound(ref.sessionId);
    }
    const cause: ChangeCause = {
      actor: options.actor ?? stored.author,
      reason: null,
      time: stored.timestamp,
      sourceUserId: ref.userId,
      sourceSessionId: ref.sessionId,
      eventId: stored.id,
      eventSeq: toNumber(row.seq),
    };
    await this.writeScoped(tx, { ...ref, sessionPk: toNumber(row.pk) }, split, cause);
    return toNumber(row.revision);
  }

  /**
   * Bumps the session's revision if it is still `revision` and stores the
   * event under the next sequence number; null when the session is missing
   * or the revision moved on. PostgreSQL does both in one statement (one
   * round trip); SQLite, which has no writes inside WITH, in two.
   */
  private async claimAndInsert(
    tx: SqlExecutor,
    ref: SessionRef,
    revision: number | undefined,
    stored: Event,
    data: string,
  ): Promise<{ pk: unknown; seq: unknown; revision: unknown } | null> {
    const claim = sql`UPDATE sessions SET revision = revision + 1, last_seq = last_seq + 1, update_time = ${stored.timestamp}
      WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND id = ${ref.sessionId}${
        revision === undefined ? empty : sql` AND revision = ${revision}`
      }
      RETURNING pk, revision, last_seq`;
    if (this.dialect === 'postgresql') {
      const rows = await tx.$queryRaw<{ pk: unknown; seq: unknown; revision: unknown }[]>(
        sql`WITH claimed AS (${claim})
            INSERT INTO events (session_pk, seq, id, invocation_id, author, timestamp, data)
            SELECT pk, last_seq, CAST(${stored.id} AS TEXT), CAST(${stored.invocationId} AS TEXT), CAST(${stored.author} AS TEXT),
              CAST(${stored.timestamp} AS DOUBLE PRECISION), CAST(${data} AS TEXT) FROM claimed
            RETURNING session_pk AS pk, seq, (SELECT revision FROM claimed) AS revision`,
      );
      return rows[0] ?? null;
    }
    const claimed = (await tx.$queryRaw<{ pk: unknown; revision: unknown; last_seq: unknown }[]>(claim))[0];
    if (!claimed) return null;
    await tx.$executeRaw(
      sql`INSERT INTO events (session_pk, seq, id, invocation_id, author, timestamp, data)
          VALUES (${claimed.pk}, ${claimed.last_seq}, ${stored.id}, ${stored.invocationId}, ${stored.author}, ${stored.timestamp}, ${data})`,
    );
    return { pk: claimed.pk, seq: claimed.last_seq, revision: claimed.revision };
  }

  async listApps(): Promise<AppSummary[]> {
    return this.read(async (tx) => {
      const [withSessions, withState] = await Promise.all([
        // The counts the triggers keep (a few rows per app), and each app's newest update through its index.
        tx.$queryRaw<{ app_name: string; sessions: unknown; users: unknown; last: unknown }[]>(
          sql`SELECT c.app_name, SUM(c.sessions) AS sessions, SUM(c.users) AS users,
                (SELECT MAX(s.update_time) FROM sessions s WHERE s.app_name = c.app_name) AS last
              FROM app_session_counts c GROUP BY c.app_name HAVING SUM(c.sessions) > 0`,
        ),
        tx.$queryRaw<{ app_name: string }[]>(
          sql`SELECT app_name FROM app_state UNION SELECT app_name FROM user_state`,
        ),
      ]);
      const apps = new Map<string, AppSummary>();
      for (const row of withState) {
        apps.set(row.app_name, { appName: row.app_name, sessionCount: 0, userCount: 0, lastUpdateTime: null });
      }
      for (const row of withSessions) {
        apps.set(row.app_name, {
          appName: row.app_name,
          sessionCount: toNumber(row.sessions),
          userCount: toNumber(row.users),
          lastUpdateTime: toNumber(row.last),
        });
      }
      return [...apps.values()].sort((a, b) => (a.appName < b.appName ? -1 : a.appName > b.appName ? 1 : 0));
    });
  }

  async getAppSummary(appName: string): Promise<AppSummary | null> {
    return this.read(async (tx) => {
      // Constant time at any size: the counts the triggers keep, the newest update through its index.
      const [row] = await tx.$queryRaw<{ sessions: unknown; users: unknown; last: unknown; shared: unknown }[]>(
        sql`SELECT (SELECT SUM(sessions) FROM app_session_counts WHERE app_name = ${appName}) AS sessions,
              (SELECT SUM(users) FROM app_session_counts WHERE app_name = ${appName}) AS users,
              (SELECT MAX(update_time) FROM sessions WHERE app_name = ${appName}) AS last,
              (SELECT 1 FROM app_state WHERE app_name = ${appName}
               UNION ALL SELECT 1 FROM user_state WHERE app_name = ${appName} LIMIT 1) AS shared`,
      );
      const sessionCount = toNumberOrNull(row?.sessions) ?? 0;
      if (sessionCount === 0 && toNumberOrNull(row?.shared) === null) return null;
      return { appName, sessionCount, userCount: toNumberOrNull(row?.users) ?? 0, lastUpdateTime: toNumberOrNull(row?.last) };
    });
  }

  async listUsers(appName: string, page?: UserListRequest): Promise<Page<UserSummary>> {
    const { limit, offset } = pageBounds(page);
    const filter = page?.idContains ? sql` AND LOWER(user_id) LIKE ${containsPattern(page.idContains)} ESCAPE '\\'` : empty;
    const users = sql`
      SELECT user_id, CAST(SUM(sessions) AS BIGINT) AS sessions, MAX(last) AS last FROM (
        SELECT user_id, COUNT(*) AS sessions, MAX(update_time) AS last FROM sessions
          WHERE app_name = ${appName}${filter} GROUP BY user_id
        UNION ALL
        SELECT user_id, 0 AS sessions, MAX(update_time) AS last FROM user_state
          WHERE app_name = ${appName}${filter} GROUP BY user_id
      ) u GROUP BY user_id`;
    return this.read(async (tx) => {
      // The total rides on the page's rows (a window over the grouped users):
      // grouping every session of a large app once costs as much as the page itself.
      const rows = await tx.$queryRaw<{ user_id: string; sessions: unknown; last: unknown; total: unknown }[]>(
        sql`SELECT user_id, sessions, last, COUNT(*) OVER () AS total FROM (${users}) t
            ORDER BY ${orderBy(USER_ORDER, page?.order, 'recent')} LIMIT ${limit} OFFSET ${offset}`,
      );
      const first = rows[0];
      const total = first
        ? toNumber(first.total)
        : offset === 0
          ? 0
          : toNumber((await tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM (${users}) t`))[0]?.n ?? 0);
      return {
        items: rows.map((row) => ({
          userId: row.user_id,
          sessionCount: toNumber(row.sessions),
          lastUpdateTime: toNumber(row.last),
        })),
        total,
      };
    });
  }

  async searchSessions(search: SessionSearch): Promise<Page<SessionSummary>> {
    const { limit, offset } = pageBounds(search);
    const { where, narrowed } = this.sessionFilter(search);
    return this.read(async (tx) => {
      const [rows, counted] = await Promise.all([
        tx.$queryRaw<SessionRow[]>(
          sql`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE ${where}
              ORDER BY ${orderBy(SESSION_ORDER, search.order, 'recent')} LIMIT ${limit} OFFSET ${offset}`,
        ),
        tx.$queryRaw<{ n: unknown }[]>(this.countSql(search, where, narrowed ? offset + this.searchCountLimit + 1 : null)),
      ]);
      const n = toNumber(counted[0]?.n ?? 0);
      const totalIsLowerBound = narrowed && n > offset + this.searchCountLimit;
      return { items: rows.map(summaryOf), total: totalIsLowerBound ? offset + this.searchCountLimit : n, totalIsLowerBound };
    });
  }

  /**
   * How many sessions a search matches. An app's or a user's sessions are
   * counted by the triggers (one row or a few); a narrowed search counts its
   * matches up to `upTo` only, so that a page costs the same however many
   * sessions there are.
   */
  private countSql(search: SessionSearch, where: Sql, upTo: number | null): Sql {
    if (upTo !== null) return sql`SELECT COUNT(*) AS n FROM (SELECT 1 FROM sessions s WHERE ${where} LIMIT ${upTo}) t`;
    if (search.userId !== undefined) {
      return sql`SELECT COALESCE(SUM(sessions), 0) AS n FROM user_session_counts
                 WHERE app_name = ${search.appName} AND user_id = ${search.userId}`;
    }
    return sql`SELECT COALESCE(SUM(sessions), 0) AS n FROM app_session_counts WHERE app_name = ${search.appName}`;
  }

  /** The WHERE of a search; narrowed: it has conditions beyond the app and the user. */
  private sessionFilter(search: SessionSearch): { where: Sql; narrowed: boolean } {
    const conditions: Sql[] = [sql`s.app_name = ${search.appName}`];
    if (search.userId !== undefined) conditions.push(sql`s.user_id = ${search.userId}`);
    const scoped = conditions.length;
    if (search.idContains) {
      conditions.push(sql`LOWER(s.id) LIKE ${containsPattern(search.idContains)} ESCAPE '\\'`);
    }
    const value = search.stateValue === undefined ? undefined : encodeJson(search.stateValue);
    const valueIs = (column: string) => (value === undefined ? empty : sql` AND ${raw(column)} = ${value}`);
    // A user's sessions are few: each is probed for the key. An app's may be
    // 100,000: probing each would cost a lookup per session (most of a second
    // for a rare key), so the matching state rows are found through their key
    // (or scanned once for a bare value) and the sessions tested for membership.
    const perSession = search.userId !== undefined;
    const sessionsWith = (condition: Sql) =>
      perSession
        ? sql`EXISTS (SELECT 1 FROM session_state ss WHERE ss.session_pk = s.pk AND ${condition})`
        : sql`s.pk IN (SELECT ss.session_pk FROM session_state ss WHERE ${condition})`;
    const usersWith = (condition: Sql) =>
      perSession
        ? sql`EXISTS (SELECT 1 FROM user_state us WHERE us.app_name = s.app_name AND us.user_id = s.user_id AND ${condition})`
        : sql`s.user_id IN (SELECT us.user_id FROM user_state us WHERE us.app_name = ${search.appName} AND ${condition})`;
    const appHas = (condition: Sql) =>
      sql`EXISTS (SELECT 1 FROM app_state a WHERE a.app_name = ${search.appName} AND ${condition})`;
    if (search.stateKey !== undefined) {
      const { scope, key } = scopeOfKey(search.stateKey);
      if (scope === 'temp') {
        conditions.push(sql`1 = 0`);
      } else if (scope === 'session') {
        conditions.push(sessionsWith(sql`ss.key = ${key}${valueIs('ss.value')}`));
      } else if (scope === 'user') {
        conditions.push(usersWith(sql`us.key = ${key}${valueIs('us.value')}`));
      } else {
        conditions.push(appHas(sql`a.key = ${key}${valueIs('a.value')}`));
      }
    } else if (value !== undefined) {
      conditions.push(
        sql`(${sessionsWith(sql`ss.value = ${value}`)} OR ${usersWith(sql`us.value = ${value}`)} OR ${appHas(sql`a.value = ${value}`)})`,
      );
    }
    return { where: join(conditions, ' AND '), narrowed: conditions.length > scoped };
  }

  async getSessionSummary(ref: SessionRef): Promise<SessionSummary | null> {
    const row = await this.read((tx) => this.findSession(tx, ref));
    return row ? summaryOf(row) : null;
  }

  async getSessionTiers(ref: SessionRef): Promise<SessionTiers | null> {
    return this.read(async (tx) => {
      const row = await this.findSession(tx, ref);
      if (!row) return null;
      const [app, user, session] = await Promise.all([
        this.appEntries(tx, ref.appName),
        this.userEntries(tx, ref.appName, ref.userId),
        tx.$queryRaw<EntryRow[]>(
          sql`SELECT t.key, t.value, NULL AS update_time, ${raw(SOURCE_COLUMNS)} FROM session_state t
              LEFT JOIN state_changes h ON h.id = (
                SELECT MAX(c.id) FROM state_changes c WHERE c.app_name = ${ref.appName} AND c.scope = 'session'
                  AND c.owner_user_id = ${ref.userId} AND c.owner_session_id = ${ref.sessionId} AND c.key = t.key)
              WHERE t.session_pk = ${toNumber(row.pk)} ORDER BY t.key`,
        ),
      ]);
      return { app, user, session: session.map(stateEntry) };
    });
  }

  private async appEntries(tx: SqlExecutor, appName: string): Promise<StateEntry[]> {
    const rows = await tx.$queryRaw<EntryRow[]>(
      sql`SELECT t.key, t.value, t.update_time, ${raw(SOURCE_COLUMNS)} FROM app_state t
          LEFT JOIN state_changes h ON h.id = (
            SELECT MAX(c.id) FROM state_changes c WHERE c.app_name = t.app_name AND c.scope = 'app'
              AND c.owner_user_id = '' AND c.owner_session_id = '' AND c.key = t.key)
          WHERE t.app_name = ${appName} ORDER BY t.key`,
    );
    return rows.map(stateEntry);
  }

  private async userEntries(tx: SqlExecutor, appName: string, userId: string): Promise<StateEntry[]> {
    const rows = await tx.$queryRaw<EntryRow[]>(
      sql`SELECT t.key, t.value, t.update_time, ${raw(SOURCE_COLUMNS)} FROM user_state t
          LEFT JOIN state_changes h ON h.id = (
            SELECT MAX(c.id) FROM state_changes c WHERE c.app_name = t.app_name AND c.scope = 'user'
              AND c.owner_user_id = t.user_id AND c.owner_session_id = '' AND c.key = t.key)
          WHERE t.app_name = ${appName} AND t.user_id = ${userId} ORDER BY t.key`,
    );
    return rows.map(stateEntry);
  }

  getAppState(appName: string): Promise<StateEntry[]> {
    return this.read((tx) => this.appEntries(tx, appName));
  }

  getUserState(appName: string, userId: string): Promise<StateEntry[]> {
    return this.read((tx) => this.userEntries(tx, appName, userId));
  }

  async listEvents(ref: SessionRef, query: EventQuery = {}): Promise<Page<StoredEvent>> {
    const { limit, offset } = pageBounds(query);
    return this.read(async (tx) => {
      const row = await this.findSession(tx, ref);
      if (!row) throw sessionNotFound(ref.sessionId);
      const conditions: Sql[] = [sql`e.session_pk = ${toNumber(row.pk)}`];
      if (query.afterSeq !== undefined) conditions.push(sql`e.seq > ${query.afterSeq}`);
      if (query.author !== undefined) conditions.push(sql`e.author = ${query.author}`);
      if (query.invocationId !== undefined) conditions.push(sql`e.invocation_id = ${query.invocationId}`);
      if (query.touchedKey !== undefined) {
        const { scope, key } = scopeOfKey(query.touchedKey);
        conditions.push(
          // The event id too: a deleted session's shared-tier history stays, and a new session may reuse its id.
          sql`EXISTS (SELECT 1 FROM state_changes c WHERE c.app_name = ${ref.appName}
                AND c.source_user_id = ${ref.userId} AND c.source_session_id = ${ref.sessionId}
                AND c.key = ${key} AND c.scope = ${scope} AND c.event_seq = e.seq AND c.event_id = e.id)`,
        );
      }
      const where = join(conditions, ' AND ');
      const order = query.newestFirst ? sql`e.seq DESC` : sql`e.seq`;
      const [rows, total] = await Promise.all([
        tx.$queryRaw<{ seq: unknown; data: string }[]>(
          sql`SELECT e.seq, e.data FROM events e WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
        ),
        tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM events e WHERE ${where}`),
      ]);
      return {
        items: rows.map((r) => ({ seq: toNumber(r.seq), event: decodeEvent(r.data) })),
        total: toNumber(total[0]?.n ?? 0),
      };
    });
  }

  async listEventChanges(ref: SessionRef, seqs: number[]): Promise<StateChange[]> {
    if (seqs.length > MAX_PAGE_SIZE) throw invalidInput(`At most ${MAX_PAGE_SIZE} events at a time.`);
    if (!seqs.every((seq) => Number.isInteger(seq) && seq > 0)) {
      throw invalidInput('Event sequence numbers must be positive integers.');
    }
    return this.read(async (tx) => {
      const row = await this.findSession(tx, ref);
      if (!row) throw sessionNotFound(ref.sessionId);
      if (seqs.length === 0) return [];
      // Joined to this session's events by seq AND id: shared-tier history
      // outlives a deleted session, and a new session may reuse its id.
      const rows = await tx.$queryRaw<ChangeRow[]>(
        sql`SELECT h.id, h.app_name, h.scope, h.owner_user_id, h.owner_session_id, h.key, h.old_value, h.new_value,
              ${raw(SOURCE_COLUMNS)} FROM state_changes h
            JOIN events e ON e.session_pk = ${toNumber(row.pk)} AND e.seq = h.event_seq AND e.id = h.event_id
            WHERE h.app_name = ${ref.appName} AND h.source_user_id = ${ref.userId}
              AND h.source_session_id = ${ref.sessionId} AND h.event_seq IN (${join([...new Set(seqs)])})
            ORDER BY h.event_seq, h.id`,
      );
      return rows.map(stateChange);
    });
  }

  async getKeyHistory(request: KeyHistoryRequest): Promise<Page<StateChange>> {
    const { limit, offset } = pageBounds(request);
    if (request.scope !== 'app' && !request.userId) throw invalidInput('userId is required for user and session history.');
    if (request.scope === 'session' && !request.sessionId) throw invalidInput('sessionId is required for session history.');
    const ownerUserId = request.scope === 'app' ? '' : (request.userId ?? '');
    const ownerSessionId = request.scope === 'session' ? (request.sessionId ?? '') : '';
    const where = sql`app_name = ${request.appName} AND scope = ${request.scope} AND owner_user_id = ${ownerUserId}
      AND owner_session_id = ${ownerSessionId} AND key = ${request.key}`;
    return this.history(where, limit, offset);
  }

  async getUserHistory(
    appName: string,
    userId: string,
    page?: PageRequest & { since?: number },
  ): Promise<Page<StateChange>> {
    const { limit, offset } = pageBounds(page);
    const since = page?.since === undefined ? empty : sql` AND time >= ${page.since}`;
    return this.history(sql`app_name = ${appName} AND owner_user_id = ${userId} AND scope = 'user'${since}`, limit, offset);
  }

  private history(where: Sql, limit: number, offset: number): Promise<Page<StateChange>> {
    return this.read(async (tx) => {
      const [rows, total] = await Promise.all([
        tx.$queryRaw<ChangeRow[]>(
          sql`SELECT h.id, h.app_name, h.scope, h.owner_user_id, h.owner_session_id, h.key, h.old_value, h.new_value,
                ${raw(SOURCE_COLUMNS)} FROM state_changes h WHERE ${where} ORDER BY h.id DESC LIMIT ${limit} OFFSET ${offset}`,
        ),
        tx.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM state_changes h WHERE ${where}`),
      ]);
      return { items: rows.map(stateChange), total: toNumber(total[0]?.n ?? 0) };
    });
  }

  async getStateAsOf(ref: SessionRef, seq: number): Promise<SessionTiers | null> {
    return this.read(async (tx) => {
      const row = await this.findSession(tx, ref);
      if (!row) return null;
      const events = await tx.$queryRaw<{ timestamp: unknown }[]>(
        sql`SELECT timestamp FROM events WHERE session_pk = ${toNumber(row.pk)} AND seq = ${seq}`,
      );
      const event = events[0];
      if (!event) return null;
      const time = toNumber(event.timestamp);
      // The session tier replays exactly up to this event; the shared tiers
      // are taken from their history as of the event's time.
      const [session, user, app] = await Promise.all([
        this.tierAsOf(
          tx,
          sql`c.scope = 'session' AND c.owner_user_id = ${ref.userId} AND c.owner_session_id = ${ref.sessionId}
              AND (c.event_seq IS NULL OR c.event_seq <= ${seq})`,
          ref.appName,
        ),
        this.tierAsOf(
          tx,
          sql`c.scope = 'user' AND c.owner_user_id = ${ref.userId} AND c.owner_session_id = '' AND c.time <= ${time}`,
          ref.appName,
        ),
        this.tierAsOf(
          tx,
          sql`c.scope = 'app' AND c.owner_user_id = '' AND c.owner_session_id = '' AND c.time <= ${time}`,
          ref.appName,
        ),
      ]);
      return { app, user, session };
    });
  }

  private async tierAsOf(tx: SqlExecutor, where: Sql, appName: string): Promise<StateEntry[]> {
    const rows = await tx.$queryRaw<(EntryRow & { new_value: string | null })[]>(
      sql`SELECT h.key, h.new_value, h.new_value AS value, h.time AS update_time, ${raw(SOURCE_COLUMNS)}
          FROM state_changes h WHERE h.id IN (
            SELECT MAX(c.id) FROM state_changes c WHERE c.app_name = ${appName} AND ${where} GROUP BY c.key)
          ORDER BY h.key`,
    );
    return rows.filter((r) => r.new_value !== null).map(stateEntry);
  }

  async editState(edit: StateEdit): Promise<StateEntry[]> {
    if (edit.scope === 'user' && !edit.userId) throw invalidInput('userId is required to edit user state.');
    if (!edit.reason.trim()) throw invalidInput('A reason is required for every edit.');
    if (!edit.actor.trim()) throw invalidInput('The actor of an edit must be named.');
    const owner: TierOwner = { scope: edit.scope, appName: edit.appName, userId: edit.userId ?? '', sessionId: '' };
    const cause: ChangeCause = {
      actor: edit.actor,
      reason: edit.reason,
      time: nowSeconds(),
      sourceUserId: null,
      sourceSessionId: null,
      eventId: null,
      eventSeq: null,
    };
    return this.write(async (tx) => {
      await writeTier(tx, this.dialect, owner, Object.entries(edit.changes), cause);
      return edit.scope === 'app' ? this.appEntries(tx, edit.appName) : this.userEntries(tx, edit.appName, owner.userId);
    });
  }
}

/** An event ready to store: its stored form (no temp: keys), that as JSON text, and its delta by tier. */
interface PendingEvent {
  event: Event;
  stored: Event;
  data: string;
  split: ScopedDelta;
}

function pendingEvent(event: Event): PendingEvent {
  const stored = storedForm(event);
  return { event, stored, data: JSON.stringify(stored), split: splitDelta(stored.actions.stateDelta) };
}

function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
