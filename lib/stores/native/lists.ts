// The native store's lists: apps, users and sessions, searched and paged through their indexes, with the counts the triggers keep.
import { hasErrorEvent } from './error-events';
import { empty, join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { boundLimit, containsFolded, toNumber, toNumberOrNull } from './dialect';
import { invalidInput } from '../../session-service/errors';
import { encodeJson } from '../../session-service/json';
import { scopeOfKey } from '../../session-service/scope';
import type { ListSessionsRequest, SessionList, SessionSearch, UserListRequest } from '../../session-service/store';
import { listSessions as listSessionPage } from './session-list';
import type { AppSummary, Page, SessionSummary, UserSummary } from '../../session-service/types';
import { pageBounds } from '../../session-service/paging';
import { SESSION_COLUMNS, summaryOf, type SessionRow, type StoreContext } from './context';
import { metaMatches, withMeta } from './session-meta';
import { stateFilterConditions, type TierAccess } from './state-filters';

const SESSION_ORDER: Record<NonNullable<SessionSearch['order']>, Sql> = {
  recent: sql`update_time DESC, pk DESC`,
  oldest: sql`update_time, pk`,
  events: sql`last_seq DESC, update_time DESC, pk DESC`,
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

/** A page of sessions (every one by default) with merged state, and their total: one statement (session-list.ts). */
export function listSessions(ctx: StoreContext, request: ListSessionsRequest): Promise<SessionList> {
  return listSessionPage(ctx.client, ctx.dialect, request);
}

export async function listApps(ctx: StoreContext): Promise<AppSummary[]> {
  return ctx.read(async (tx) => {
    const [withSessions, withState] = await Promise.all([
      // The counts the triggers keep (a few rows per app), and each app's newest update through its index.
      tx.$queryRaw<{ app_name: string; sessions: unknown; users: unknown; last: unknown }[]>(
        sql`SELECT c.app_name, SUM(c.sessions) AS sessions, SUM(c.users) AS users,
              (SELECT MAX(s.update_time) FROM sessions s WHERE s.app_name = c.app_name) AS last
            FROM app_session_counts c GROUP BY c.app_name HAVING SUM(c.sessions) > 0`,
      ),
      tx.$queryRaw<{ app_name: string }[]>(sql`SELECT app_name FROM app_state UNION SELECT app_name FROM user_state`),
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

export async function getAppSummary(ctx: StoreContext, appName: string): Promise<AppSummary | null> {
  return ctx.read(async (tx) => {
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

export async function listUsers(ctx: StoreContext, appName: string, page?: UserListRequest): Promise<Page<UserSummary>> {
  const { limit, offset } = pageBounds(page);
  const filter = page?.idContains ? sql` AND ${containsFolded(ctx.dialect, 'user_id', page.idContains)}` : empty;
  const users = sql`
    SELECT user_id, CAST(SUM(sessions) AS BIGINT) AS sessions, MAX(last) AS last FROM (
      SELECT user_id, COUNT(*) AS sessions, MAX(update_time) AS last FROM sessions
        WHERE app_name = ${appName}${filter} GROUP BY user_id
      UNION ALL
      SELECT user_id, 0 AS sessions, MAX(update_time) AS last FROM user_state
        WHERE app_name = ${appName}${filter} GROUP BY user_id
    ) u GROUP BY user_id`;
  return ctx.read(async (tx) => {
    // The total rides on the page's rows (a window over the grouped users):
    // grouping every session of a large app once costs as much as the page itself.
    const rows = await tx.$queryRaw<{ user_id: string; sessions: unknown; last: unknown; total: unknown }[]>(
      sql`SELECT user_id, sessions, last, COUNT(*) OVER () AS total FROM (${users}) t
          ORDER BY ${orderBy(USER_ORDER, page?.order, 'recent')} LIMIT ${boundLimit(limit)} OFFSET ${offset}`,
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

export async function searchSessions(ctx: StoreContext, search: SessionSearch): Promise<Page<SessionSummary>> {
  const { limit, offset } = pageBounds(search);
  const { where, narrowed } = sessionFilter(ctx, search);
  const order = orderBy(SESSION_ORDER, search.order, 'recent');
  return ctx.read(async (tx) => {
    if (!narrowed) {
      const [rows, counted] = await Promise.all([
        tx.$queryRaw<SessionRow[]>(
          sql`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE ${where} ORDER BY ${order} LIMIT ${boundLimit(limit)} OFFSET ${offset}`,
        ),
        tx.$queryRaw<{ n: unknown }[]>(countSql(ctx, search, where, null)),
      ]);
      const items = await withMeta(tx, search.appName, rows.map(summaryOf));
      return { items, total: toNumber(counted[0]?.n ?? 0), totalIsLowerBound: false };
    }
    const upTo = offset + ctx.searchCountLimit + 1;
    const rows = await tx.$queryRaw<(SessionRow & { n: unknown })[]>(
      narrowedPageSql(where, order, limit, offset, Math.max(upTo, offset + limit)),
    );
    // A page past the last match has no row to carry the count: count again (rare, and bounded the same way).
    const n = rows[0]
      ? toNumber(rows[0].n)
      : offset === 0
        ? 0
        : toNumber((await tx.$queryRaw<{ n: unknown }[]>(countSql(ctx, search, where, upTo)))[0]?.n ?? 0);
    const totalIsLowerBound = n > offset + ctx.searchCountLimit;
    const items = await withMeta(tx, search.appName, rows.map(summaryOf));
    return { items, total: totalIsLowerBound ? offset + ctx.searchCountLimit : n, totalIsLowerBound };
  });
}

/**
 * A narrowed search's page and its bounded count in one walk: the matches in
 * the page's order, up to `upTo`, are found once (MATERIALIZED: not once for
 * the page and again for the count), so the filters test each row once.
 * `walk` covers the page too, when a small count limit would end before it.
 */
export function narrowedPageSql(where: Sql, order: Sql, limit: number, offset: number, walk: number): Sql {
  return sql`WITH hits AS MATERIALIZED (SELECT ${SESSION_COLUMNS} FROM sessions s WHERE ${where} ORDER BY ${order} LIMIT ${boundLimit(walk)})
    SELECT ${SESSION_COLUMNS}, (SELECT COUNT(*) FROM hits) AS n FROM hits ORDER BY ${order} LIMIT ${boundLimit(limit)} OFFSET ${offset}`;
}

/**
 * How many sessions a search matches. An app's or a user's sessions are
 * counted by the triggers (one row or a few); a narrowed search counts its
 * matches up to `upTo` only, so that a page costs the same however many
 * sessions there are.
 */
export function countSql(ctx: StoreContext, search: SessionSearch, where: Sql, upTo: number | null): Sql {
  if (upTo !== null) return sql`SELECT COUNT(*) AS n FROM (SELECT 1 FROM sessions s WHERE ${where} LIMIT ${boundLimit(upTo)}) t`;
  if (search.userId !== undefined) {
    return sql`SELECT COALESCE(SUM(sessions), 0) AS n FROM user_session_counts
               WHERE app_name = ${search.appName} AND user_id = ${search.userId}`;
  }
  return sql`SELECT COALESCE(SUM(sessions), 0) AS n FROM app_session_counts WHERE app_name = ${search.appName}`;
}

/** The WHERE of a search; narrowed: it has conditions beyond the app and the user. */
export function sessionFilter(ctx: StoreContext, search: SessionSearch): { where: Sql; narrowed: boolean } {
  const conditions: Sql[] = [sql`s.app_name = ${search.appName}`];
  if (search.userId !== undefined) conditions.push(sql`s.user_id = ${search.userId}`);
  const scoped = conditions.length;
  if (search.withErrors) conditions.push(hasErrorEvent(ctx.dialect));
  if (search.idContains) {
    conditions.push(sql`(${containsFolded(ctx.dialect, 's.id', search.idContains)} OR ${metaMatches(ctx.dialect, search.idContains)})`);
  }
  const value = search.stateValue === undefined ? undefined : encodeJson(search.stateValue);
  const valueIs = (column: string) => (value === undefined ? empty : sql` AND ${raw(column)} = ${value}`);
  // A user's sessions are few: each is probed for the key. An app's may be
  // 100,000: probing each would cost a lookup per session (most of a second
  // for a rare key), so the matching state rows are found through their key
  // (or scanned once for a bare value) and the sessions tested for membership.
  const perSession = search.userId !== undefined;
  const appHas = (condition: Sql) => sql`EXISTS (SELECT 1 FROM app_state a WHERE a.app_name = ${search.appName} AND ${condition})`;
  const probe: TierAccess = {
    sessionsWith: (condition) => sql`EXISTS (SELECT 1 FROM session_state ss WHERE ss.session_pk = s.pk AND ${condition})`,
    usersWith: (condition) =>
      sql`EXISTS (SELECT 1 FROM user_state us WHERE us.app_name = s.app_name AND us.user_id = s.user_id AND ${condition})`,
    appHas,
  };
  const members: TierAccess = {
    sessionsWith: (condition) => sql`s.pk IN (SELECT ss.session_pk FROM session_state ss WHERE ${condition})`,
    usersWith: (condition) =>
      sql`s.user_id IN (SELECT us.user_id FROM user_state us WHERE us.app_name = ${search.appName} AND ${condition})`,
    appHas,
  };
  const { sessionsWith, usersWith } = perSession ? probe : members;
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
  if (search.filters?.length) {
    conditions.push(...stateFilterConditions(ctx.dialect, perSession ? probe : members, search.filters, probe));
  }
  return { where: join(conditions, ' AND '), narrowed: conditions.length > scoped };
}

/** The SessionStore lists of this file, for the facade (store.ts). */
export const listReads = { listSessions, listApps, getAppSummary, listUsers, searchSessions };
