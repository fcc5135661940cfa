// A session read as tagged rows: its row, the three state tiers and its
// events. On PostgreSQL all of it is ONE statement (a UNION ALL), which is
// one snapshot, so it needs no transaction: BEGIN, SET TRANSACTION and COMMIT
// would be three more round trips than the read itself. SQLite has no round
// trips, and the compound statement runs slower there than its parts: it
// reads in three lean statements (row, tiers, event bodies) in one snapshot,
// synchronously when the connection is free (SqlClient.$readNow).
import { empty, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { boundLimit, toNumber, unionPart } from './dialect';
import { decodeJson, setOwn } from '../../session-service/json';
import { decodeEvent } from './rows';
import { mergeState } from '../../session-service/scope';
import type { SessionRef } from '../../session-service/store';
import type { Event, Session, StateRecord } from '../../session-service/types';

const SESSION = 0;
const APP = 1;
const USER = 2;
const SESSION_STATE = 3;
const EVENT = 4;
const NO_TEXT = raw('CAST(NULL AS TEXT)');
const NO_INT = raw('CAST(NULL AS INTEGER)');
const NO_FLOAT = raw('CAST(NULL AS DOUBLE PRECISION)');

/** A state row of one tier; part: which tier (APP, USER, SESSION_STATE). */
export interface TierRow {
  part: unknown;
  key: string | null;
  value: string | null;
}

/** part: which of the above; key/value: a state row, or value = an event's data; n/m/t: numbers of the part. */
export interface SnapshotRow extends TierRow {
  /** Session: pk. Event: seq. */
  n: unknown;
  /** Session: revision. */
  m: unknown;
  /** Session: update_time. Event: timestamp. */
  t: unknown;
}

function tierRows(appName: string, userId: string, sessionPk: Sql): Sql {
  return sql`
    SELECT ${unionPart(APP)} AS part, a.key AS key, a.value AS value, ${NO_INT} AS n, ${NO_INT} AS m, ${NO_FLOAT} AS t
      FROM app_state a WHERE a.app_name = ${appName}
    UNION ALL SELECT ${unionPart(USER)}, u.key, u.value, ${NO_INT}, ${NO_INT}, ${NO_FLOAT}
      FROM user_state u WHERE u.app_name = ${appName} AND u.user_id = ${userId}
    UNION ALL SELECT ${unionPart(SESSION_STATE)}, ss.key, ss.value, ${NO_INT}, ${NO_INT}, ${NO_FLOAT}
      FROM session_state ss WHERE ss.session_pk = ${sessionPk}`;
}

/** The merged state of a session by pk: the three tiers in one statement, as TierRow (only the columns it needs: each costs per row). */
export function mergedStateSql(appName: string, userId: string, sessionPk: number): Sql {
  return sql`
    SELECT ${unionPart(APP)} AS part, key, value FROM app_state WHERE app_name = ${appName}
    UNION ALL SELECT ${unionPart(USER)}, key, value FROM user_state WHERE app_name = ${appName} AND user_id = ${userId}
    UNION ALL SELECT ${unionPart(SESSION_STATE)}, key, value FROM session_state WHERE session_pk = ${sessionPk}`;
}

/**
 * Session row, tiers and events. The shared tiers are read only when the
 * session exists; events are the last `numRecentEvents` (all when undefined)
 * at or after `afterTimestamp`, newest first.
 */
export function sessionSnapshotSql(ref: SessionRef, numRecentEvents: number | undefined, afterTimestamp: number | undefined): Sql {
  const events =
    numRecentEvents === 0
      ? empty
      : sql`
    UNION ALL SELECT * FROM (${eventsSql(sql`(SELECT pk FROM s)`, numRecentEvents, afterTimestamp)}) e`;
  return sql`
    WITH s AS (SELECT pk, revision, update_time FROM sessions
               WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND id = ${ref.sessionId})
    SELECT ${unionPart(SESSION)} AS part, ${NO_TEXT} AS key, ${NO_TEXT} AS value, s.pk AS n, s.revision AS m, s.update_time AS t FROM s
    UNION ALL SELECT * FROM (${tierRows(ref.appName, ref.userId, sql`(SELECT pk FROM s)`)}) tiers
      WHERE EXISTS (SELECT 1 FROM s)${events}`;
}

/** A session's events as snapshot rows: the last `numRecentEvents` (all when undefined) at or after `afterTimestamp`. */
export function eventsSql(sessionPk: Sql, numRecentEvents: number | undefined, afterTimestamp: number | undefined): Sql {
  const after = afterTimestamp ? sql` AND timestamp >= ${afterTimestamp}` : empty;
  const limit = numRecentEvents === undefined ? empty : sql` LIMIT ${boundLimit(numRecentEvents)}`;
  return sql`SELECT ${unionPart(EVENT)} AS part, ${NO_TEXT} AS key, data AS value, seq AS n, ${NO_INT} AS m, timestamp AS t
    FROM events WHERE session_pk = ${sessionPk}${after} ORDER BY timestamp DESC, seq DESC${limit}`;
}

/** The merged state from tier rows (any order). */
export function stateOfRows(rows: TierRow[]): StateRecord {
  const tiers: StateRecord[] = [{}, {}, {}];
  for (const row of rows) {
    const part = toNumber(row.part);
    if (part < APP || part > SESSION_STATE || row.key === null || row.value === null) continue;
    setOwn(tiers[part - APP] as StateRecord, row.key, decodeJson(row.value));
  }
  const [app, user, session] = tiers as [StateRecord, StateRecord, StateRecord];
  return mergeState(app, user, session);
}

export function decodeSnapshot(ref: SessionRef, rows: SnapshotRow[]): Session | null {
  const head = rows.find((row) => toNumber(row.part) === SESSION);
  if (!head) return null;
  return {
    id: ref.sessionId,
    appName: ref.appName,
    userId: ref.userId,
    state: stateOfRows(rows),
    events: eventsOfRows(rows),
    lastUpdateTime: toNumber(head.t),
    revision: toNumber(head.m),
  };
}

/** The event rows among `rows`, oldest first. */
export function eventsOfRows(rows: SnapshotRow[]): Event[] {
  const events: { seq: number; timestamp: number; event: Event }[] = [];
  for (const row of rows) {
    if (toNumber(row.part) !== EVENT || row.value === null) continue;
    events.push({ seq: toNumber(row.n), timestamp: toNumber(row.t), event: decodeEvent(row.value) });
  }
  // A UNION's output order is not promised: ascending timestamp, ties by append order.
  events.sort((a, b) => a.timestamp - b.timestamp || a.seq - b.seq);
  return events.map((e) => e.event);
}

/**
 * A read as the statements it runs, in order: each `yield` sends one and
 * gets its rows. Written once, it runs synchronously (runSteps, through
 * SqlClient.$readNow) or through the adapter (runStepsAsync).
 */
export type ReadSteps<R> = Generator<Sql, R, Record<string, unknown>[]>;

export function runSteps<R>(steps: ReadSteps<R>, query: (statement: Sql) => Record<string, unknown>[]): R {
  let step = steps.next([]);
  while (!step.done) step = steps.next(query(step.value));
  return step.value;
}

export async function runStepsAsync<R>(steps: ReadSteps<R>, query: (statement: Sql) => PromiseLike<Record<string, unknown>[]>): Promise<R> {
  let step = steps.next([]);
  while (!step.done) step = steps.next(await query(step.value));
  return step.value;
}

/**
 * A session on SQLite in three statements: its row, its merged state, and
 * the bodies of its events (the last `numRecentEvents`, all when undefined,
 * at or after `afterTimestamp`). Run them in one snapshot.
 */
export function* sqliteSessionRead(
  ref: SessionRef,
  numRecentEvents: number | undefined,
  afterTimestamp: number | undefined,
): ReadSteps<Session | null> {
  const [row] = yield sql`SELECT pk, revision, update_time FROM sessions
    WHERE app_name = ${ref.appName} AND user_id = ${ref.userId} AND id = ${ref.sessionId}`;
  if (!row) return null;
  const pk = toNumber(row.pk);
  const state = stateOfRows((yield mergedStateSql(ref.appName, ref.userId, pk)) as unknown as TierRow[]);
  let events: Event[] = [];
  if (numRecentEvents !== 0) {
    const after = afterTimestamp ? sql` AND timestamp >= ${afterTimestamp}` : empty;
    // The last n come newest first through the index, then are put back in order.
    const rows =
      numRecentEvents === undefined
        ? yield sql`SELECT data FROM events WHERE session_pk = ${pk}${after} ORDER BY timestamp, seq`
        : (yield sql`SELECT data FROM events WHERE session_pk = ${pk}${after}
                     ORDER BY timestamp DESC, seq DESC LIMIT ${boundLimit(numRecentEvents)}`).reverse();
    events = rows.map((r) => decodeEvent(r.data as string));
  }
  return {
    id: ref.sessionId,
    appName: ref.appName,
    userId: ref.userId,
    state,
    events,
    lastUpdateTime: toNumber(row.update_time),
    revision: toNumber(row.revision),
  };
}
