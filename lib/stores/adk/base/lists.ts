// An ADK store's lists: apps, users, sessions, and the console's session search.
import { invalidInput, unsupported } from '../../../session-service/errors';
import { pageBounds } from '../../../session-service/paging';
import { mergeState } from '../../../session-service/scope';
import { pageSessions } from '../../../session-service/session-page';
import type { ListSessionsRequest, SessionList, SessionSearch, UserListRequest } from '../../../session-service/store';
import type { AppSummary, Page, Session, SessionSummary, StateRecord, UnreadableNote, UserSummary } from '../../../session-service/types';
import type { AgentQuery, Param } from '../agent-db';
import type { AdkStoreContext } from './context';
import { metaKey } from './session-log';
import { RowDecoder } from './row-decoder';
import { appRow, userRow } from './rows';
import { noteOf } from './unreadable';
import { containsFolded, jsonHas, type Fragment } from './sql';
import { stateFilterFragments } from './state-filters';

export async function listSessions(ctx: AdkStoreContext, request: ListSessionsRequest): Promise<SessionList> {
  const { t, app, user, id, state, updateRead } = ctx.s;
  return ctx.db.read(async (qx) => {
    const where = request.userId === undefined ? `${app} = ?` : `${app} = ? AND ${user} = ?`;
    const params: Param[] = request.userId === undefined ? [request.appName] : [request.appName, request.userId];
    const rows = await qx.all(
      `SELECT ${id} AS id, ${user} AS user_id, ${state} AS state, ${updateRead} AS u FROM ${t} WHERE ${where}`,
      params,
    );
    const appState = (await appRow(ctx, qx, request.appName))?.state ?? {};
    const users = new Map<string, StateRecord>();
    const sessions: Session[] = [];
    for (const row of rows) {
      const userId = String(row.user_id);
      if (!users.has(userId)) users.set(userId, (await userRow(ctx, qx, request.appName, userId))?.state ?? {});
      // A session whose own row cannot be read is listed with what can be, and says why.
      const unreadable: UnreadableNote[] = [];
      let own: StateRecord = {};
      try {
        own = ctx.rows.state(row.state, ctx.codec.layout.sessions.state);
      } catch (error) {
        unreadable.push(noteOf(error, ctx.codec.layout.sessions.state, row.state));
      }
      const lastUpdateTime = ctx.rows.listedSeconds(row.u, 'sessionUpdate', unreadable);
      sessions.push({
        id: String(row.id),
        appName: request.appName,
        userId,
        state: mergeState(appState, users.get(userId) ?? {}, own),
        events: [],
        lastUpdateTime,
        revision: RowDecoder.revision(lastUpdateTime),
        ...(unreadable.length > 0 ? { unreadable } : {}),
      });
    }
    return pageSessions(sessions, request);
  });
}

export async function listApps(ctx: AdkStoreContext): Promise<AppSummary[]> {
  const { t, app, user, update } = ctx.s;
  const a = ctx.a;
  return ctx.db.read(async (qx) => {
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
        lastUpdateTime: await latest(ctx, qx, row.last, appName),
      });
    }
    for (const row of await qx.all(`SELECT ${a.app} AS app FROM ${a.t}`)) {
      const appName = String(row.app);
      if (!apps.has(appName)) apps.set(appName, { appName, sessionCount: 0, userCount: 0, lastUpdateTime: null });
    }
    return [...apps.values()].sort((x, y) => (x.appName < y.appName ? -1 : x.appName > y.appName ? 1 : 0));
  });
}

export async function getAppSummary(ctx: AdkStoreContext, appName: string): Promise<AppSummary | null> {
  const { t, app, user, update } = ctx.s;
  return ctx.db.read(async (qx) => {
    const row = (
      await qx.all(`SELECT count(*) AS n, count(DISTINCT ${user}) AS users, max(${update}) AS last FROM ${t} WHERE ${app} = ?`, [appName])
    )[0];
    const sessionCount = Number(row?.n ?? 0);
    if (sessionCount > 0) {
      return { appName, sessionCount, userCount: Number(row?.users ?? 0), lastUpdateTime: await latest(ctx, qx, row?.last, appName) };
    }
    return (await appRow(ctx, qx, appName)) ? { appName, sessionCount: 0, userCount: 0, lastUpdateTime: null } : null;
  });
}

export async function listUsers(ctx: AdkStoreContext, appName: string, page: UserListRequest = {}): Promise<Page<UserSummary>> {
  const { limit, offset } = pageBounds(page);
  const { t, app, user, update } = ctx.s;
  const orders: Record<NonNullable<UserListRequest['order']>, string> = {
    recent: `last DESC, ${user}`,
    sessions: `n DESC, last DESC, ${user}`,
    id: `${user}`,
  };
  const order = page.order ?? 'recent';
  if (!Object.hasOwn(orders, order))
    throw invalidInput(`order must be one of ${Object.keys(orders).join(', ')}; got ${JSON.stringify(order)}.`);
  const filter: Fragment = page.idContains ? containsFolded(ctx.db.dialect, user, page.idContains) : { sql: '1 = 1', params: [] };
  return ctx.db.read(async (qx) => {
    const rows = await qx.all(
      `SELECT ${user} AS user_id, count(*) AS n, max(${update}) AS last FROM ${t} WHERE ${app} = ? AND ${filter.sql}
       GROUP BY ${user} ORDER BY ${orders[order]} LIMIT ? OFFSET ?`,
      [appName, ...filter.params, limit, offset],
    );
    const total = await qx.all(`SELECT count(DISTINCT ${user}) AS n FROM ${t} WHERE ${app} = ? AND ${filter.sql}`, [
      appName,
      ...filter.params,
    ]);
    const items: UserSummary[] = [];
    for (const row of rows) {
      const userId = String(row.user_id);
      items.push({ userId, sessionCount: Number(row.n), lastUpdateTime: await latest(ctx, qx, row.last, appName, userId) });
    }
    return { items, total: Number(total[0]?.n ?? 0) };
  });
}

/** Update times looked through for the newest readable one when the newest stored is not a time. */
const LATEST_SCAN = 100;

/**
 * The newest update time among an app's (or a user's) sessions. SQL's max
 * is taken first; when what it found is not a time (a hand-written
 * 'garbage' sorts above every date), the newest readable one is looked for.
 */
async function latest(ctx: AdkStoreContext, qx: AgentQuery, max: unknown, appName: string, userId?: string): Promise<number | null> {
  const found = ctx.rows.secondsOrNull(max, 'sessionUpdate');
  if (found !== null || max === null || max === undefined) return found;
  const { t, app, user, update } = ctx.s;
  const rows = await qx.all(
    `SELECT ${update} AS u FROM ${t} WHERE ${app} = ?${userId === undefined ? '' : ` AND ${user} = ?`} ORDER BY ${update} DESC LIMIT ${LATEST_SCAN}`,
    userId === undefined ? [appName] : [appName, userId],
  );
  for (const row of rows) {
    const seconds = ctx.rows.secondsOrNull(row.u, 'sessionUpdate');
    if (seconds !== null) return seconds;
  }
  return null;
}

/** The merged-state test of a search: which tier the key is in decides which blob is looked at. */
function stateFilter(ctx: AdkStoreContext, search: SessionSearch): Fragment | null {
  const { stateKey, stateValue } = search;
  if (stateKey === undefined && stateValue === undefined) return null;
  const dialect = ctx.db.dialect;
  const s = ctx.s;
  const a = ctx.a;
  const u = ctx.u;
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

/** Sessions whose title or label matches, looked up in Statehouse's database: at most this many join an id search. */
const TITLED_LIMIT = 500;

/**
 * The session's id contains the text, or its title or one of its labels
 * does: those are kept in Statehouse's own database (session-meta.ts), so the
 * sessions they name are looked up there first and named in the agent's query.
 */
async function idTitleOrLabel(ctx: AdkStoreContext, search: SessionSearch, text: string): Promise<Fragment> {
  const s = ctx.s;
  const byId = containsFolded(ctx.db.dialect, `s.${s.id}`, text);
  const titled = ctx.sessionLog
    ? await ctx.sessionLog.matching(ctx.info.id, {
        appName: search.appName,
        ...(search.userId === undefined ? {} : { userId: search.userId }),
        text,
        limit: TITLED_LIMIT,
      })
    : [];
  if (titled.length === 0) return byId;
  const named = titled.map(() => `(s.${s.user} = ? AND s.${s.id} = ?)`).join(' OR ');
  return { sql: `(${byId.sql} OR ${named})`, params: [...byId.params, ...titled.flatMap((name) => [name.userId, name.sessionId])] };
}

export async function searchSessions(ctx: AdkStoreContext, search: SessionSearch): Promise<Page<SessionSummary>> {
  const { limit, offset } = pageBounds(search);
  const order = search.order ?? 'recent';
  if (order !== 'recent' && order !== 'oldest') throw invalidInput(`order must be one of recent, oldest; got ${JSON.stringify(order)}.`);
  // Finding them would mean reading every event of the agent's database: not offered (the lists hide the filter).
  if (search.withErrors) throw unsupported('Finding sessions with error events is not available on an agent’s store.');
  const s = ctx.s;
  const e = ctx.e;
  const where: Fragment[] = [{ sql: `s.${s.app} = ?`, params: [search.appName] }];
  if (search.userId !== undefined) where.push({ sql: `s.${s.user} = ?`, params: [search.userId] });
  if (search.idContains) where.push(await idTitleOrLabel(ctx, search, search.idContains));
  const state = stateFilter(ctx, search);
  if (state) where.push(state);
  const filters = stateFilterFragments(ctx, search.filters ?? []);
  where.push(...filters);
  const narrowed = Boolean(search.idContains) || state !== null || filters.length > 0;
  const whereSql = where.map((w) => w.sql).join(' AND ');
  const params = where.flatMap((w) => w.params);
  const direction = order === 'recent' ? 'DESC' : 'ASC';
  const page = await ctx.db.read(async (qx) => {
    const rows = await qx.all(
      `SELECT s.${s.id} AS id, s.${s.user} AS user_id, s.${s.create} AS c, ${s.updateRead} AS u
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
      const cap = offset + ctx.searchCountLimit;
      const counted = await qx.all(`SELECT count(*) AS n FROM (SELECT 1 FROM ${s.t} s WHERE ${whereSql} LIMIT ?) m`, [...params, cap + 1]);
      total = Number(counted[0]?.n ?? 0);
      if (total > cap) {
        total = cap;
        totalIsLowerBound = true;
      }
    } else {
      total = Number((await qx.all(`SELECT count(*) AS n FROM ${s.t} s WHERE ${whereSql}`, params))[0]?.n ?? 0);
    }
    const items = rows.map((row): SessionSummary => {
      const unreadable: UnreadableNote[] = [];
      const createTime = ctx.rows.listedSeconds(row.c, 'sessionCreate', unreadable);
      const lastUpdateTime = ctx.rows.listedSeconds(row.u, 'sessionUpdate', unreadable);
      return {
        id: String(row.id),
        appName: search.appName,
        userId: String(row.user_id),
        createTime,
        lastUpdateTime,
        eventCount: counts.get(JSON.stringify([String(row.user_id), String(row.id)])) ?? 0,
        revision: RowDecoder.revision(lastUpdateTime),
        ...(unreadable.length > 0 ? { unreadable } : {}),
      };
    });
    return totalIsLowerBound ? { items, total, totalIsLowerBound } : { items, total };
  });
  return { ...page, items: await withTitles(ctx, search.appName, page.items) };
}

/** The page's sessions with the titles and labels Statehouse keeps for them in its own database (one query for the page). */
async function withTitles(ctx: AdkStoreContext, appName: string, items: SessionSummary[]): Promise<SessionSummary[]> {
  if (!ctx.sessionLog || items.length === 0) return items;
  const kept = await ctx.sessionLog.metaOf(
    ctx.info.id,
    appName,
    items.map((item) => ({ userId: item.userId, sessionId: item.id })),
  );
  return items.map((item) => {
    const meta = kept.get(metaKey(item.userId, item.id));
    return meta && (meta.title || meta.labels.length > 0) ? { ...item, title: meta.title, labels: meta.labels } : item;
  });
}

/** The SessionStore lists of this file, for the facade (store.ts). */
export const listReads = { listSessions, listApps, getAppSummary, listUsers, searchSessions };
