// The SessionStore over a database an ADK implementation writes, for any
// family (../family.ts): the family says how rows are laid out and encoded,
// this says how the console reads and writes them. Reads never write; a
// write is one short transaction that writes what that ADK writes.
import {
  invalidInput,
  readOnlyStore,
  sessionNotFound,
  staleSession,
  StateConflictError,
  unsupported,
} from '../../../session-service/errors';
import { completeEvent, nowSeconds, storedForm } from '../../../session-service/events';
import { hasOwn, ownEntries, setOwn } from '../../../session-service/json';
import { mergeState, prefixedKey, splitDelta, withoutTempKeys } from '../../../session-service/scope';
import { pageSessions } from '../../../session-service/session-page';
import type {
  AppendOptions,
  AppendResult,
  CreateSessionRequest,
  DataScope,
  EventQuery,
  KeyHistoryRequest,
  ListSessionsRequest,
  SessionList,
  PageRequest,
  SessionRef,
  SessionSearch,
  SessionStore,
  StateEdit,
  StoreInfo,
  UserListRequest,
} from '../../../session-service/store';
import type {
  AppSummary,
  ChangeSource,
  Event,
  GetSessionConfig,
  JsonValue,
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
} from '../../../session-service/types';
import type { AgentDb, AgentQuery, Param } from '../agent-db';
import type { FamilyCodec, FamilyWrites } from '../family';
import type { AuditEntry, EditAudit } from './audit';
import { replaySession, type Replay, type Tiers } from './replay';
import { contains, containsFolded, jsonHas, q, type Fragment } from './sql';

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;
/** Matches of a narrowed search counted past the page's offset; beyond, the total is a lower bound ("10,000+"). */
export const SEARCH_COUNT_LIMIT = 10_000;
const REPLAY_CACHE_SIZE = 32;

export interface AdkStoreOptions {
  info: StoreInfo;
  audit?: EditAudit;
  searchCountLimit?: number;
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

function sortedEntries(record: StateRecord, updateTime: number, lastChange: (key: string) => ChangeSource | null): StateEntry[] {
  return Object.keys(record)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((key) => ({ key, value: record[key] as JsonValue, updateTime, lastChange: lastChange(key) }));
}

function changeSource(change: StateChange): ChangeSource {
  const { actor, reason, time, sourceUserId, sourceSessionId, eventId, eventSeq } = change;
  return { actor, reason, time, sourceUserId, sourceSessionId, eventId, eventSeq };
}

/** Statehouse's edits as history entries: ids negative, apart from the replayed changes' synthetic ids. */
function editChange(entry: AuditEntry & { id: number }): StateChange {
  return {
    id: -entry.id,
    appName: entry.appName,
    scope: entry.scope,
    ownerUserId: entry.scope === 'app' ? '' : entry.userId,
    ownerSessionId: '',
    key: entry.key,
    oldValue: entry.oldValue,
    newValue: entry.newValue,
    actor: entry.actor,
    reason: entry.reason,
    time: entry.time,
    sourceUserId: null,
    sourceSessionId: null,
    eventId: null,
    eventSeq: null,
  };
}

interface CachedReplay {
  marker: string;
  replay: Replay;
}

interface SessionRowView {
  state: StateRecord;
  updateRaw: unknown;
  createRaw: unknown;
}

export class AdkSessionStore implements SessionStore {
  private readonly searchCountLimit: number;
  private readonly replays = new Map<string, CachedReplay>();
  readonly info: StoreInfo;

  constructor(
    private readonly db: AgentDb,
    private readonly codec: FamilyCodec,
    private readonly options: AdkStoreOptions,
  ) {
    this.info = options.info;
    this.searchCountLimit = options.searchCountLimit ?? SEARCH_COUNT_LIMIT;
  }

  close(): Promise<void> {
    return this.db.close();
  }

  /** One trivial query: whether the agent's database answers (readiness). */
  async ping(): Promise<void> {
    await this.db.all('SELECT 1');
  }

  // ---- names ----

  private get s() {
    const l = this.codec.layout.sessions;
    return {
      t: q(l.table),
      app: q(l.appName),
      user: q(l.userId),
      id: q(l.id),
      state: q(l.state),
      create: q(l.createTime),
      update: q(l.updateTime),
    };
  }

  private get e() {
    const l = this.codec.layout.events;
    return {
      t: q(l.table),
      id: q(l.id),
      app: q(l.appName),
      user: q(l.userId),
      session: q(l.sessionId),
      ts: q(l.timestamp),
      cols: l.columns.map(q).join(', '),
    };
  }

  private get a() {
    const l = this.codec.layout.appStates;
    return { t: q(l.table), app: q(l.appName), state: q(l.state), update: q(l.updateTime) };
  }

  private get u() {
    const l = this.codec.layout.userStates;
    return { t: q(l.table), app: q(l.appName), user: q(l.userId), state: q(l.state), update: q(l.updateTime) };
  }

  private seconds(raw: unknown, column: Parameters<FamilyCodec['time']['decode']>[1]): number {
    return this.codec.time.decode(raw, column);
  }

  /** The session's revision: its update time in µs, which is what ADK's own stale checks compare. */
  private revisionOf(updateRaw: unknown): number {
    return Math.round(this.seconds(updateRaw, 'sessionUpdate') * 1e6);
  }

  private writes(): FamilyWrites {
    if (this.info.readOnlyReason || !this.codec.writes) throw readOnlyStore(this.info.readOnlyReason ?? 'this family has no writer.');
    return this.codec.writes;
  }

  // ---- rows ----

  /** On PostgreSQL a write locks the rows it read and will rewrite, as adk-python's own append does (with_for_update); SQLite's BEGIN IMMEDIATE already holds the file. */
  private forUpdate(lock: boolean): string {
    return lock && this.db.dialect === 'postgresql' ? ' FOR UPDATE' : '';
  }

  private async sessionRow(qx: AgentQuery, ref: SessionRef, lock = false): Promise<SessionRowView | null> {
    const { t, app, user, id, state, create, update } = this.s;
    const rows = await qx.all(
      `SELECT ${state} AS state, ${create} AS c, ${update} AS u FROM ${t} WHERE ${app} = ? AND ${user} = ? AND ${id} = ?${this.forUpdate(lock)}`,
      [ref.appName, ref.userId, ref.sessionId],
    );
    const row = rows[0];
    if (!row) return null;
    return { state: this.codec.decodeState(row.state), createRaw: row.c, updateRaw: row.u };
  }

  private async appRow(qx: AgentQuery, appName: string, lock = false): Promise<{ state: StateRecord; updateRaw: unknown } | null> {
    const { t, app, state, update } = this.a;
    const row = (await qx.all(`SELECT ${state} AS state, ${update} AS u FROM ${t} WHERE ${app} = ?${this.forUpdate(lock)}`, [appName]))[0];
    return row ? { state: this.codec.decodeState(row.state), updateRaw: row.u } : null;
  }

  private async userRow(
    qx: AgentQuery,
    appName: string,
    userId: string,
    lock = false,
  ): Promise<{ state: StateRecord; updateRaw: unknown } | null> {
    const { t, app, user, state, update } = this.u;
    const row = (
      await qx.all(`SELECT ${state} AS state, ${update} AS u FROM ${t} WHERE ${app} = ? AND ${user} = ?${this.forUpdate(lock)}`, [
        appName,
        userId,
      ])
    )[0];
    return row ? { state: this.codec.decodeState(row.state), updateRaw: row.u } : null;
  }

  private async sessionEvents(qx: AgentQuery, ref: SessionRef): Promise<Event[]> {
    const { t, app, user, session, ts, id, cols } = this.e;
    const rows = await qx.all(`SELECT ${cols} FROM ${t} WHERE ${app} = ? AND ${user} = ? AND ${session} = ? ORDER BY ${ts}, ${id}`, [
      ref.appName,
      ref.userId,
      ref.sessionId,
    ]);
    return rows.map((row) => this.codec.decodeEvent(row));
  }

  private async eventCount(qx: AgentQuery, ref: SessionRef): Promise<number> {
    const { t, app, user, session } = this.e;
    const row = (
      await qx.all(`SELECT count(*) AS n FROM ${t} WHERE ${app} = ? AND ${user} = ? AND ${session} = ?`, [
        ref.appName,
        ref.userId,
        ref.sessionId,
      ])
    )[0];
    return Number(row?.n ?? 0);
  }

  /** The session's replayed timeline, reused while its update time and event count stay the same. */
  private async replay(ref: SessionRef): Promise<{ replay: Replay; row: SessionRowView; tiers: Tiers } | null> {
    return this.db.read(async (qx) => {
      const row = await this.sessionRow(qx, ref);
      if (!row) return null;
      const [app, user, count] = await Promise.all([
        this.appRow(qx, ref.appName),
        this.userRow(qx, ref.appName, ref.userId),
        this.eventCount(qx, ref),
      ]);
      const tiers: Tiers = { app: app?.state ?? {}, user: user?.state ?? {}, session: row.state };
      const key = JSON.stringify([ref.appName, ref.userId, ref.sessionId]);
      const marker = JSON.stringify([String(row.updateRaw), count, tiers]);
      const cached = this.replays.get(key);
      if (cached && cached.marker === marker) return { replay: cached.replay, row, tiers };
      const events = await this.sessionEvents(qx, ref);
      const replay = replaySession(ref, events, tiers, (tier, delta) => this.codec.applyDelta(tier, delta));
      this.replays.delete(key);
      this.replays.set(key, { marker, replay });
      if (this.replays.size > REPLAY_CACHE_SIZE) this.replays.delete(this.replays.keys().next().value as string);
      return { replay, row, tiers };
    });
  }

  // ---- ADK's operations ----

  async createSession(request: CreateSessionRequest): Promise<Session> {
    const writes = this.writes();
    if (!writes.createSession)
      throw unsupported(`${this.info.label} sessions are created by the agent; Statehouse does not create them here.`);
    if (request.events?.length) throw unsupported('Creating a session with events is not supported on an ADK store; append them after.');
    const sessionId = request.sessionId?.trim() || crypto.randomUUID();
    const ref = { appName: request.appName, userId: request.userId, sessionId };
    const delta = splitDelta(withoutTempKeys(request.state ?? {}));
    const create = writes.createSession.bind(writes);
    await this.db.write(async (qx) => {
      if (await this.sessionRow(qx, ref)) throw invalidInput(`Session with id ${sessionId} already exists.`);
      const [app, user] = await Promise.all([this.appRow(qx, ref.appName), this.userRow(qx, ref.appName, ref.userId)]);
      await create(qx, {
        ref,
        app: app?.state ?? {},
        user: user?.state ?? {},
        session: {},
        hasAppRow: app !== null,
        hasUserRow: user !== null,
        now: nowSeconds(),
        delta,
      });
    });
    const session = await this.getSession(ref);
    if (!session) throw sessionNotFound(sessionId);
    return session;
  }

  async getSession(ref: SessionRef, config: GetSessionConfig = {}): Promise<Session | null> {
    if (config.numRecentEvents !== undefined && config.numRecentEvents < 0) throw invalidInput('numRecentEvents must not be negative.');
    const loaded = await this.replay(ref);
    if (!loaded) return null;
    let events = loaded.replay.events.map((item) => item.event);
    if (config.afterTimestamp) events = events.filter((event) => event.timestamp >= (config.afterTimestamp ?? 0));
    if (config.numRecentEvents !== undefined) events = config.numRecentEvents === 0 ? [] : events.slice(-config.numRecentEvents);
    return {
      id: ref.sessionId,
      appName: ref.appName,
      userId: ref.userId,
      state: mergeState(loaded.tiers.app, loaded.tiers.user, loaded.tiers.session),
      events,
      lastUpdateTime: this.seconds(loaded.row.updateRaw, 'sessionUpdate'),
      revision: this.revisionOf(loaded.row.updateRaw),
    };
  }

  async listSessions(request: ListSessionsRequest): Promise<SessionList> {
    const { t, app, user, id, state, update } = this.s;
    return this.db.read(async (qx) => {
      const where = request.userId === undefined ? `${app} = ?` : `${app} = ? AND ${user} = ?`;
      const params: Param[] = request.userId === undefined ? [request.appName] : [request.appName, request.userId];
      const rows = await qx.all(
        `SELECT ${id} AS id, ${user} AS user_id, ${state} AS state, ${update} AS u FROM ${t} WHERE ${where}`,
        params,
      );
      const appState = (await this.appRow(qx, request.appName))?.state ?? {};
      const users = new Map<string, StateRecord>();
      const sessions: Session[] = [];
      for (const row of rows) {
        const userId = String(row.user_id);
        if (!users.has(userId)) users.set(userId, (await this.userRow(qx, request.appName, userId))?.state ?? {});
        sessions.push({
          id: String(row.id),
          appName: request.appName,
          userId,
          state: mergeState(appState, users.get(userId) ?? {}, this.codec.decodeState(row.state)),
          events: [],
          lastUpdateTime: this.seconds(row.u, 'sessionUpdate'),
          revision: this.revisionOf(row.u),
        });
      }
      return pageSessions(sessions, request);
    });
  }

  async deleteSession(ref: SessionRef): Promise<void> {
    this.writes();
    const e = this.e;
    const s = this.s;
    await this.db.write(async (qx) => {
      await qx.run(`DELETE FROM ${e.t} WHERE ${e.app} = ? AND ${e.user} = ? AND ${e.session} = ?`, [
        ref.appName,
        ref.userId,
        ref.sessionId,
      ]);
      await qx.run(`DELETE FROM ${s.t} WHERE ${s.app} = ? AND ${s.user} = ? AND ${s.id} = ?`, [ref.appName, ref.userId, ref.sessionId]);
    });
  }

  async append(ref: SessionRef, newEvent: NewEvent, options: AppendOptions = {}): Promise<AppendResult> {
    const writes = this.writes();
    const event = completeEvent(newEvent);
    const stored = storedForm(event);
    if (event.partial) {
      const session = await this.getSessionSummary(ref);
      if (!session) throw sessionNotFound(ref.sessionId);
      return { event, revision: session.revision };
    }
    const delta = splitDelta(stored.actions.stateDelta);
    const revision = await this.db.write(async (qx) => {
      const row = await this.sessionRow(qx, ref, true);
      if (!row) throw sessionNotFound(ref.sessionId);
      if (options.expectedRevision !== undefined && this.codec.isStale(this.revisionOf(row.updateRaw), options.expectedRevision)) {
        throw staleSession();
      }
      const app = await this.appRow(qx, ref.appName, Object.keys(delta.app).length > 0);
      const user = await this.userRow(qx, ref.appName, ref.userId, Object.keys(delta.user).length > 0);
      await writes.append(qx, {
        ref,
        app: app?.state ?? {},
        user: user?.state ?? {},
        session: row.state,
        hasAppRow: app !== null,
        hasUserRow: user !== null,
        now: stored.timestamp,
        event: stored,
        delta,
      });
      const after = await this.sessionRow(qx, ref);
      return this.revisionOf(after?.updateRaw);
    });
    if (options.actor && options.actor !== stored.author && this.options.audit) {
      await this.options.audit.record(
        Object.entries(stored.actions.stateDelta).map(([key]) => ({
          storeId: this.info.id,
          kind: 'append' as const,
          appName: ref.appName,
          scope: 'session' as const,
          userId: ref.userId,
          sessionId: ref.sessionId,
          key,
          oldValue: undefined,
          newValue: stored.actions.stateDelta[key],
          actor: options.actor ?? stored.author,
          reason: null,
          eventId: stored.id,
          time: stored.timestamp,
        })),
      );
    }
    return { event: stored, revision };
  }

  // ---- the console's reads ----

  async listApps(): Promise<AppSummary[]> {
    const { t, app, user, update } = this.s;
    const a = this.a;
    return this.db.read(async (qx) => {
      const rows = await qx.all(
        `SELECT ${app} AS app, count(*) AS n, count(DISTINCT ${user}) AS users, max(${update}) AS last FROM ${t} GROUP BY ${app}`,
      );
      const apps = new Map<string, AppSummary>();
      for (const row of rows) {
        const appName = String(row.app);
        apps.set(appName, {
          appName,
          sessionCount: Number(row.n),
          userCount: Number(row.users),
          lastUpdateTime: this.seconds(row.last, 'sessionUpdate'),
        });
      }
      for (const row of await qx.all(`SELECT ${a.app} AS app FROM ${a.t}`)) {
        const appName = String(row.app);
        if (!apps.has(appName)) apps.set(appName, { appName, sessionCount: 0, userCount: 0, lastUpdateTime: null });
      }
      return [...apps.values()].sort((x, y) => (x.appName < y.appName ? -1 : x.appName > y.appName ? 1 : 0));
    });
  }

  async getAppSummary(appName: string): Promise<AppSummary | null> {
    const { t, app, user, update } = this.s;
    return this.db.read(async (qx) => {
      const row = (
        await qx.all(`SELECT count(*) AS n, count(DISTINCT ${user}) AS users, max(${update}) AS last FROM ${t} WHERE ${app} = ?`, [appName])
      )[0];
      const sessionCount = Number(row?.n ?? 0);
      if (sessionCount > 0)
        return { appName, sessionCount, userCount: Number(row?.users ?? 0), lastUpdateTime: this.seconds(row?.last, 'sessionUpdate') };
      return (await this.appRow(qx, appName)) ? { appName, sessionCount: 0, userCount: 0, lastUpdateTime: null } : null;
    });
  }

  async listUsers(appName: string, page: UserListRequest = {}): Promise<Page<UserSummary>> {
    const { limit, offset } = pageBounds(page);
    const { t, app, user, update } = this.s;
    const orders: Record<NonNullable<UserListRequest['order']>, string> = {
      recent: `last DESC, ${user}`,
      sessions: `n DESC, last DESC, ${user}`,
      id: `${user}`,
    };
    const order = page.order ?? 'recent';
    if (!Object.hasOwn(orders, order))
      throw invalidInput(`order must be one of ${Object.keys(orders).join(', ')}; got ${JSON.stringify(order)}.`);
    const filter: Fragment = page.idContains ? containsFolded(this.db.dialect, user, page.idContains) : { sql: '1 = 1', params: [] };
    return this.db.read(async (qx) => {
      const rows = await qx.all(
        `SELECT ${user} AS user_id, count(*) AS n, max(${update}) AS last FROM ${t} WHERE ${app} = ? AND ${filter.sql}
         GROUP BY ${user} ORDER BY ${orders[order]} LIMIT ? OFFSET ?`,
        [appName, ...filter.params, limit, offset],
      );
      const total = await qx.all(`SELECT count(DISTINCT ${user}) AS n FROM ${t} WHERE ${app} = ? AND ${filter.sql}`, [
        appName,
        ...filter.params,
      ]);
      return {
        items: rows.map((row) => ({
          userId: String(row.user_id),
          sessionCount: Number(row.n),
          lastUpdateTime: this.seconds(row.last, 'sessionUpdate'),
        })),
        total: Number(total[0]?.n ?? 0),
      };
    });
  }

  /** The merged-state test of a search: which tier the key is in decides which blob is looked at. */
  private stateFilter(search: SessionSearch): Fragment | null {
    const { stateKey, stateValue } = search;
    if (stateKey === undefined && stateValue === undefined) return null;
    const dialect = this.db.dialect;
    const s = this.s;
    const a = this.a;
    const u = this.u;
    const inApp = (key: string | undefined): Fragment => {
      const has = jsonHas(dialect, `x.${a.state}`, key, stateValue);
      return { sql: `EXISTS (SELECT 1 FROM ${a.t} x WHERE x.${a.app} = s.${s.app} AND ${has.sql})`, params: has.params };
    };
    const inUser = (key: string | undefined): Fragment => {
      const has = jsonHas(dialect, `x.${u.state}`, key, stateValue);
      return {
        sql: `EXISTS (SELECT 1 FROM ${u.t} x WHERE x.${u.app} = s.${s.app} AND x.${u.user} = s.${s.user} AND ${has.sql})`,
        params: has.params,
      };
    };
    const inSession = (key: string | undefined) => jsonHas(dialect, `s.${s.state}`, key, stateValue);
    if (stateKey === undefined) {
      const parts = [inSession(undefined), inApp(undefined), inUser(undefined)];
      return { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, params: parts.flatMap((p) => p.params) };
    }
    if (stateKey.startsWith('app:')) return inApp(stateKey.slice(4));
    if (stateKey.startsWith('user:')) return inUser(stateKey.slice(5));
    return inSession(stateKey);
  }

  async searchSessions(search: SessionSearch): Promise<Page<SessionSummary>> {
    const { limit, offset } = pageBounds(search);
    const order = search.order ?? 'recent';
    if (order !== 'recent' && order !== 'oldest') throw invalidInput(`order must be one of recent, oldest; got ${JSON.stringify(order)}.`);
    const s = this.s;
    const e = this.e;
    const where: Fragment[] = [{ sql: `s.${s.app} = ?`, params: [search.appName] }];
    if (search.userId !== undefined) where.push({ sql: `s.${s.user} = ?`, params: [search.userId] });
    if (search.idContains) where.push(contains(this.db.dialect, `s.${s.id}`, search.idContains));
    const state = this.stateFilter(search);
    if (state) where.push(state);
    const narrowed = Boolean(search.idContains) || state !== null;
    const whereSql = where.map((w) => w.sql).join(' AND ');
    const params = where.flatMap((w) => w.params);
    const direction = order === 'recent' ? 'DESC' : 'ASC';
    return this.db.read(async (qx) => {
      const rows = await qx.all(
        `SELECT s.${s.id} AS id, s.${s.user} AS user_id, s.${s.create} AS c, s.${s.update} AS u
         FROM ${s.t} s WHERE ${whereSql}
         ORDER BY s.${s.update} ${direction}, s.${s.user} ${direction}, s.${s.id} ${direction} LIMIT ? OFFSET ?`,
        [...params, limit, offset],
      );
      // The page's event counts in one grouped query, after the page is chosen: adk-js's and
      // adk-rust's SQLite events have no index that starts with the session, so a count per
      // row (evaluated for every session before the sort) would scan all events once per session.
      const counts = new Map<string, number>();
      if (rows.length > 0) {
        const users = [...new Set(rows.map((row) => String(row.user_id)))];
        const ids = [...new Set(rows.map((row) => String(row.id)))];
        const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
        const counted = await qx.all(
          `SELECT ${e.user} AS user_id, ${e.session} AS session_id, count(*) AS n FROM ${e.t}
           WHERE ${e.app} = ? AND ${e.user} IN (${marks(users.length)}) AND ${e.session} IN (${marks(ids.length)})
           GROUP BY ${e.user}, ${e.session}`,
          [search.appName, ...users, ...ids],
        );
        for (const row of counted) counts.set(JSON.stringify([String(row.user_id), String(row.session_id)]), Number(row.n));
      }
      let total: number;
      let totalIsLowerBound = false;
      if (narrowed) {
        const cap = offset + this.searchCountLimit;
        const counted = await qx.all(`SELECT count(*) AS n FROM (SELECT 1 FROM ${s.t} s WHERE ${whereSql} LIMIT ?) m`, [
          ...params,
          cap + 1,
        ]);
        total = Number(counted[0]?.n ?? 0);
        if (total > cap) {
          total = cap;
          totalIsLowerBound = true;
        }
      } else {
        total = Number((await qx.all(`SELECT count(*) AS n FROM ${s.t} s WHERE ${whereSql}`, params))[0]?.n ?? 0);
      }
      const items = rows.map((row) => ({
        id: String(row.id),
        appName: search.appName,
        userId: String(row.user_id),
        createTime: this.seconds(row.c, 'sessionCreate'),
        lastUpdateTime: this.seconds(row.u, 'sessionUpdate'),
        eventCount: counts.get(JSON.stringify([String(row.user_id), String(row.id)])) ?? 0,
        revision: this.revisionOf(row.u),
      }));
      return totalIsLowerBound ? { items, total, totalIsLowerBound } : { items, total };
    });
  }

  async getSessionSummary(ref: SessionRef): Promise<SessionSummary | null> {
    return this.db.read(async (qx) => {
      const row = await this.sessionRow(qx, ref);
      if (!row) return null;
      return {
        id: ref.sessionId,
        appName: ref.appName,
        userId: ref.userId,
        createTime: this.seconds(row.createRaw, 'sessionCreate'),
        lastUpdateTime: this.seconds(row.updateRaw, 'sessionUpdate'),
        eventCount: await this.eventCount(qx, ref),
        revision: this.revisionOf(row.updateRaw),
      };
    });
  }

  async getSessionTiers(ref: SessionRef): Promise<SessionTiers | null> {
    const loaded = await this.replay(ref);
    if (!loaded) return null;
    const [app, user] = await this.db.read((qx) => Promise.all([this.appRow(qx, ref.appName), this.userRow(qx, ref.appName, ref.userId)]));
    // A key's provenance is the last event of this session that set it, when that is still its value.
    const last = new Map<string, StateChange>();
    for (const item of loaded.replay.events) for (const change of item.changes) last.set(prefixedKey(change.scope, change.key), change);
    const source = (scope: 'app' | 'user' | 'session', tier: StateRecord) => (key: string) => {
      const change = last.get(prefixedKey(scope, key));
      if (!change || change.newValue === undefined || JSON.stringify(change.newValue) !== JSON.stringify(tier[key])) return null;
      return changeSource(change);
    };
    return {
      app: sortedEntries(loaded.tiers.app, app ? this.seconds(app.updateRaw, 'tierUpdate') : 0, source('app', loaded.tiers.app)),
      user: sortedEntries(loaded.tiers.user, user ? this.seconds(user.updateRaw, 'tierUpdate') : 0, source('user', loaded.tiers.user)),
      session: sortedEntries(
        loaded.tiers.session,
        this.seconds(loaded.row.updateRaw, 'sessionUpdate'),
        source('session', loaded.tiers.session),
      ),
    };
  }

  async getAppState(appName: string): Promise<SessionTiers['app']> {
    const row = await this.db.read((qx) => this.appRow(qx, appName));
    if (!row) return [];
    return sortedEntries(
      row.state,
      this.seconds(row.updateRaw, 'tierUpdate'),
      await this.editSources(appName, 'app', undefined, row.state),
    );
  }

  async getUserState(appName: string, userId: string): Promise<SessionTiers['user']> {
    const row = await this.db.read((qx) => this.userRow(qx, appName, userId));
    if (!row) return [];
    return sortedEntries(row.state, this.seconds(row.updateRaw, 'tierUpdate'), await this.editSources(appName, 'user', userId, row.state));
  }

  /** A key's provenance when Statehouse's latest edit of it set the value it still holds (events of the agent leave no such trace). */
  private async editSources(
    appName: string,
    scope: 'app' | 'user',
    userId: string | undefined,
    tier: StateRecord,
  ): Promise<(key: string) => ChangeSource | null> {
    const latest = new Map<string, StateChange>();
    for (const change of await this.edits(appName, [scope], userId)) {
      if (change.scope === scope && !latest.has(change.key)) latest.set(change.key, change);
    }
    return (key) => {
      const change = latest.get(key);
      return change && change.newValue !== undefined && JSON.stringify(change.newValue) === JSON.stringify(tier[key])
        ? changeSource(change)
        : null;
    };
  }

  async listEvents(ref: SessionRef, query: EventQuery = {}): Promise<Page<StoredEvent>> {
    const { limit, offset } = pageBounds(query);
    const loaded = await this.replay(ref);
    if (!loaded) throw sessionNotFound(ref.sessionId);
    let items = loaded.replay.events;
    if (query.afterSeq !== undefined) items = items.filter((item) => item.seq > (query.afterSeq ?? 0));
    if (query.author !== undefined) items = items.filter((item) => item.event.author === query.author);
    if (query.invocationId !== undefined) items = items.filter((item) => item.event.invocationId === query.invocationId);
    if (query.touchedKey !== undefined) {
      const key = query.touchedKey;
      items = items.filter((item) => hasOwn(item.event.actions.stateDelta ?? {}, key));
    }
    if (query.newestFirst) items = [...items].reverse();
    return { items: items.slice(offset, offset + limit).map(({ seq, event }) => ({ seq, event })), total: items.length };
  }

  async getKeyHistory(request: KeyHistoryRequest): Promise<Page<StateChange>> {
    const { limit, offset } = pageBounds(request);
    if (request.scope !== 'app' && !request.userId) throw invalidInput('userId is required for user and session scope.');
    if (request.scope === 'session' && !request.sessionId) throw invalidInput('sessionId is required for session scope.');
    const refs = await this.sessionsTouching(
      request.appName,
      request.scope === 'app' ? undefined : request.userId,
      prefixedKey(request.scope, request.key),
    );
    const wanted = request.scope === 'session' ? refs.filter((ref) => ref.sessionId === request.sessionId) : refs;
    const changes: StateChange[] = [];
    for (const ref of wanted) {
      const loaded = await this.replay(ref);
      for (const item of loaded?.replay.events ?? []) {
        for (const change of item.changes) if (change.scope === request.scope && change.key === request.key) changes.push(change);
      }
    }
    if (request.scope !== 'session') changes.push(...(await this.edits(request.appName, [request.scope], request.userId, request.key)));
    changes.sort((x, y) => y.time - x.time || y.id - x.id);
    return { items: changes.slice(offset, offset + limit), total: changes.length };
  }

  /** Statehouse's own edits of this store's app/user tiers (from its audit), as history entries. */
  private async edits(appName: string, scopes: ('app' | 'user')[], userId: string | undefined, key?: string): Promise<StateChange[]> {
    if (!this.options.audit) return [];
    const entries = await this.options.audit.edits({ storeId: this.info.id, appName, scopes, userId, key });
    return entries.map(editChange);
  }

  /**
   * Sessions with an event whose data mentions this prefixed key, narrowed in
   * SQL by a substring of the stored event data (an ASCII key only: Python's
   * json.dumps escapes the rest), then confirmed by replay.
   */
  private async sessionsTouching(appName: string, userId: string | undefined, prefixed: string): Promise<SessionRef[]> {
    const e = this.e;
    const where: Fragment[] = [{ sql: `${e.app} = ?`, params: [appName] }];
    if (userId !== undefined) where.push({ sql: `${e.user} = ?`, params: [userId] });
    const text = this.codec.layout.events.searchText;
    if (text && /^[\x20-\x7e]*$/.test(prefixed)) {
      const column = this.db.dialect === 'postgresql' ? `(${q(text)})::text` : q(text);
      where.push(contains(this.db.dialect, column, JSON.stringify(prefixed)));
    }
    const rows = await this.db.read((qx) =>
      qx.all(
        `SELECT DISTINCT ${e.user} AS user_id, ${e.session} AS session_id FROM ${e.t} WHERE ${where.map((w) => w.sql).join(' AND ')}`,
        where.flatMap((w) => w.params),
      ),
    );
    return rows.map((row) => ({ appName, userId: String(row.user_id), sessionId: String(row.session_id) }));
  }

  async getUserHistory(appName: string, userId: string, page: PageRequest & { since?: number } = {}): Promise<Page<StateChange>> {
    const { limit, offset } = pageBounds(page);
    const s = this.s;
    const rows = await this.db.read((qx) =>
      qx.all(`SELECT ${s.id} AS id FROM ${s.t} WHERE ${s.app} = ? AND ${s.user} = ?`, [appName, userId]),
    );
    const changes: StateChange[] = [];
    for (const row of rows) {
      const loaded = await this.replay({ appName, userId, sessionId: String(row.id) });
      for (const item of loaded?.replay.events ?? []) {
        for (const change of item.changes) {
          if (change.scope !== 'session' && (page.since === undefined || change.time > page.since)) changes.push(change);
        }
      }
    }
    for (const change of await this.edits(appName, ['app', 'user'], userId)) {
      if (page.since === undefined || change.time > page.since) changes.push(change);
    }
    changes.sort((x, y) => y.time - x.time || y.id - x.id);
    return { items: changes.slice(offset, offset + limit), total: changes.length };
  }

  async listEventChanges(ref: SessionRef, seqs: number[]): Promise<StateChange[]> {
    if (seqs.length > 1000) throw invalidInput('At most 1000 sequence numbers.');
    const loaded = await this.replay(ref);
    if (!loaded) throw sessionNotFound(ref.sessionId);
    const wanted = new Set(seqs);
    return loaded.replay.events.filter((item) => wanted.has(item.seq)).flatMap((item) => item.changes);
  }

  async getStateAsOf(ref: SessionRef, seq: number): Promise<SessionTiers | null> {
    const loaded = await this.replay(ref);
    if (!loaded || !Number.isInteger(seq) || seq < 0 || seq > loaded.replay.events.length) return null;
    const at = loaded.replay.tiersAfter(seq);
    const last = new Map<string, StateChange>();
    for (const item of loaded.replay.events.slice(0, Math.max(0, seq))) {
      for (const change of item.changes) last.set(prefixedKey(change.scope, change.key), change);
    }
    const source = (scope: 'app' | 'user' | 'session') => (key: string) => {
      const change = last.get(prefixedKey(scope, key));
      return change ? changeSource(change) : null;
    };
    const time = (scope: 'app' | 'user' | 'session') => (key: string) => last.get(prefixedKey(scope, key))?.time ?? 0;
    const entries = (scope: 'app' | 'user' | 'session', record: StateRecord) =>
      sortedEntries(record, 0, source(scope)).map((entry) => ({ ...entry, updateTime: time(scope)(entry.key) }));
    return { app: entries('app', at.app), user: entries('user', at.user), session: entries('session', at.session) };
  }

  async editState(edit: StateEdit): Promise<SessionTiers['app']> {
    const writes = this.writes();
    if (edit.scope === 'user' && !edit.userId) throw invalidInput('userId is required for a user-state edit.');
    const now = nowSeconds();
    const changed = await this.db.write(async (qx) => {
      const row =
        edit.scope === 'app' ? await this.appRow(qx, edit.appName, true) : await this.userRow(qx, edit.appName, edit.userId ?? '', true);
      const before = row?.state ?? {};
      // What the editor saw, compared with what the locked row holds: a mismatch writes nothing.
      const expected = Object.entries(edit.expected ?? {});
      const unchanged = expected.find(([key]) => !Object.hasOwn(edit.changes, key));
      if (unchanged) throw invalidInput(`expected: "${unchanged[0]}" is not one of the changed keys.`);
      const conflicts = expected.flatMap(([key, seen]) => {
        const current = hasOwn(before, key) ? before[key] : undefined;
        const same = seen.present ? current !== undefined && JSON.stringify(current) === JSON.stringify(seen.value) : current === undefined;
        return same ? [] : [{ key, current }];
      });
      if (conflicts.length > 0) throw new StateConflictError(conflicts);
      const next: StateRecord = {};
      for (const [key, value] of ownEntries(before)) setOwn(next, key, value);
      for (const [key, value] of Object.entries(edit.changes)) {
        if (value === undefined) delete next[key];
        else setOwn(next, key, value);
      }
      await writes.editTier(qx, {
        appName: edit.appName,
        userId: edit.userId,
        scope: edit.scope,
        app: edit.scope === 'app' ? before : {},
        user: edit.scope === 'user' ? before : {},
        hasAppRow: edit.scope === 'app' && row !== null,
        hasUserRow: edit.scope === 'user' && row !== null,
        now,
        next,
      });
      return Object.keys(edit.changes).map((key) => ({
        key,
        oldValue: hasOwn(before, key) ? before[key] : undefined,
        newValue: edit.changes[key],
      }));
    });
    await this.options.audit?.record(
      changed.map((change) => ({
        storeId: this.info.id,
        kind: 'edit' as const,
        appName: edit.appName,
        scope: edit.scope,
        userId: edit.userId ?? '',
        sessionId: '',
        key: change.key,
        oldValue: change.oldValue,
        newValue: change.newValue,
        actor: edit.actor,
        reason: edit.reason,
        eventId: null,
        time: now,
      })),
    );
    return edit.scope === 'app' ? this.getAppState(edit.appName) : this.getUserState(edit.appName, edit.userId ?? '');
  }

  async clearData(_scope: DataScope): Promise<void> {
    throw unsupported('Clearing data is for Statehouse’s own store; an ADK store’s data belongs to its agent.');
  }
}
