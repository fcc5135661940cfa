// listSessions as one statement: a page of an app's (or a user's) sessions
// in update-time order, through the list indexes (app, [user,] update time,
// pk), with each session's merged state and the total from the counts the
// triggers keep. One statement is one snapshot: no transaction, and one round
// trip on PostgreSQL, whatever the page size or the number of sessions.
import { empty, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { boundLimit, toNumber, unionPart, type Dialect } from './dialect';
import { decodeJson, setOwn } from '../../session-service/json';
import { invalidInput } from '../../session-service/errors';
import { mergeState } from '../../session-service/scope';
import type { ListSessionsRequest, SessionList } from '../../session-service/store';
import type { StateRecord } from '../../session-service/types';
import type { SqlClient } from '../../db/sql';

const SESSION = 0;
const SESSION_STATE = 1;
const USER = 2;
const APP = 3;
const TOTAL = 4;

export interface ListRow {
  part: unknown;
  /** Session: pk; session state: its session's pk; total: the count. */
  n: unknown;
  /** Session and user state: the user. */
  u: string | null;
  /** Session: its id; a state row: the key. */
  key: string | null;
  value: string | null;
  /** Session: revision. */
  m: unknown;
  /** Session: update time. */
  t: unknown;
}

function nonNegativeInteger(value: number | undefined, name: string): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
    throw invalidInput(`${name} must be a non-negative integer.`);
  }
}

/** The statement; `order` defaults to ascending update time (ties by creation). */
export function sessionListSql(dialect: Dialect, request: ListSessionsRequest): Sql {
  const { appName, userId, limit, offset = 0, order = 'asc' } = request;
  nonNegativeInteger(limit, 'limit');
  nonNegativeInteger(offset, 'offset');
  if (order !== 'asc' && order !== 'desc') throw invalidInput(`order must be asc or desc; got ${JSON.stringify(order)}.`);
  const byUser = userId === undefined ? empty : sql` AND user_id = ${userId}`;
  const direction = order === 'desc' ? sql`update_time DESC, pk DESC` : sql`update_time, pk`;
  // SQLite needs a LIMIT before an OFFSET; -1 is none.
  const limitSql = limit !== undefined ? sql` LIMIT ${boundLimit(limit)}` : dialect === 'sqlite' ? sql` LIMIT -1` : empty;
  const total =
    userId === undefined
      ? sql`SELECT COALESCE(SUM(sessions), 0) FROM app_session_counts WHERE app_name = ${appName}`
      : sql`SELECT COALESCE(SUM(sessions), 0) FROM user_session_counts WHERE app_name = ${appName} AND user_id = ${userId}`;
  const text = dialect === 'postgresql' ? sql`CAST(NULL AS TEXT)` : sql`NULL`;
  const int = dialect === 'postgresql' ? sql`CAST(NULL AS BIGINT)` : sql`NULL`;
  const float = dialect === 'postgresql' ? sql`CAST(NULL AS DOUBLE PRECISION)` : sql`NULL`;
  return sql`
    WITH page AS (
      SELECT pk, user_id, id, revision, update_time FROM sessions
      WHERE app_name = ${appName}${byUser} ORDER BY ${direction}${limitSql} OFFSET ${offset}
    )
    SELECT ${unionPart(SESSION)} AS part, CAST(pk AS BIGINT) AS n, user_id AS u, id AS key, ${text} AS value,
        CAST(revision AS BIGINT) AS m, update_time AS t FROM page
    UNION ALL SELECT ${unionPart(SESSION_STATE)}, ss.session_pk, ${text}, ss.key, ss.value, ${int}, ${float}
      FROM session_state ss WHERE ss.session_pk IN (SELECT pk FROM page)
    UNION ALL SELECT ${unionPart(USER)}, ${int}, us.user_id, us.key, us.value, ${int}, ${float}
      FROM user_state us WHERE us.app_name = ${appName} AND us.user_id IN (SELECT user_id FROM page)
    UNION ALL SELECT ${unionPart(APP)}, ${int}, ${text}, a.key, a.value, ${int}, ${float}
      FROM app_state a WHERE a.app_name = ${appName} AND EXISTS (SELECT 1 FROM page)
    UNION ALL SELECT ${unionPart(TOTAL)}, CAST((${total}) AS BIGINT), ${text}, ${text}, ${text}, ${int}, ${float}`;
}

/** The page in the statement's order, each session with its merged state and no events, and the total. */
export function decodeSessionList(appName: string, request: ListSessionsRequest, rows: ListRow[]): SessionList {
  const heads: { pk: number; userId: string; id: string; revision: number; time: number }[] = [];
  const sessionState = new Map<number, StateRecord>();
  const userState = new Map<string, StateRecord>();
  const app: StateRecord = {};
  let total = 0;
  const into = <K>(map: Map<K, StateRecord>, key: K): StateRecord => {
    let record = map.get(key);
    if (!record) map.set(key, (record = {}));
    return record;
  };
  for (const row of rows) {
    const part = toNumber(row.part);
    if (part === SESSION) {
      heads.push({ pk: toNumber(row.n), userId: row.u ?? '', id: row.key ?? '', revision: toNumber(row.m), time: toNumber(row.t) });
    } else if (part === TOTAL) {
      total = toNumber(row.n);
    } else if (row.key !== null && row.value !== null) {
      const value = decodeJson(row.value);
      if (part === SESSION_STATE) setOwn(into(sessionState, toNumber(row.n)), row.key, value);
      else if (part === USER) setOwn(into(userState, row.u ?? ''), row.key, value);
      else if (part === APP) setOwn(app, row.key, value);
    }
  }
  // A UNION's output order is not promised: the page's order again, from its keys.
  const sign = request.order === 'desc' ? -1 : 1;
  heads.sort((a, b) => sign * (a.time - b.time || a.pk - b.pk));
  const sessions = heads.map((head) => ({
    id: head.id,
    appName,
    userId: head.userId,
    state: mergeState(app, userState.get(head.userId) ?? {}, sessionState.get(head.pk) ?? {}),
    events: [],
    lastUpdateTime: head.time,
    revision: head.revision,
  }));
  return { sessions, total };
}

/**
 * Runs the list: on PostgreSQL as one statement (its own snapshot); on
 * SQLite synchronously when the connection is free, else queued behind the
 * open write in a read transaction.
 */
export async function listSessions(client: SqlClient, dialect: Dialect, request: ListSessionsRequest): Promise<SessionList> {
  const statement = sessionListSql(dialect, request);
  if (dialect === 'postgresql') return decodeSessionList(request.appName, request, await client.$queryRaw<ListRow[]>(statement));
  const now = client.$readNow?.((tx) => tx.queryRows<ListRow>(statement));
  const rows = now ? now.result : await client.$transaction(async (tx) => tx.$queryRaw<ListRow[]>(statement));
  return decodeSessionList(request.appName, request, rows);
}
